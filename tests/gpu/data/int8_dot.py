# int8 x int8 -> int32 dots on tensor cores (wmma s8) against the simulator, bit for bit: whole
# 16-byte chunks of 16 int8 elements, a K tail cut by the mask inside a chunk, a strided B
# (element-wise staging), a misaligned A, a loop not pipelined (num_stages=1), an accumulator that
# starts near the int32 limit and wraps, and a dot outside a loop.
import torch
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, start,
       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.full((BM, BN), start, dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0)
        acc += tl.dot(a, b)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :], acc, mask=c_mask)


@triton.jit
def one(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    c = tl.load(c_ptr + r[:, None] * B + r[None, :])
    tl.store(c_ptr + r[:, None] * B + r[None, :], tl.dot(a, b, c))


def run(M, N, K, stages, transposed_b=False, misaligned_a=False, BM=128, BN=128, BK=64, warps=8, start=0):
    a_store = torch.randint(-128, 128, (M * K + 16,), dtype=torch.int8)
    a = a_store[1:1 + M * K] if misaligned_a else a_store[:M * K]
    if transposed_b:
        b = torch.randint(-128, 128, (N * K,), dtype=torch.int8)  # B[k, n] at n * K + k
        sbk, sbn = 1, K
    else:
        b = torch.randint(-128, 128, (K * N,), dtype=torch.int8)
        sbk, sbn = N, 1
    c = torch.zeros(M * N, dtype=torch.int32)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    mm[grid](a, b, c, M, N, K, K, 1, sbk, sbn, N, start, BM=BM, BN=BN, BK=BK, num_warps=warps, num_stages=stages)
    return c


run(256, 256, 512, 3)                      # the benchmark's shape: whole chunks, 4 programs
run(128, 128, 88, 3)                       # K tail: 24 of the last 64, a chunk cut in two
run(128, 64, 96, 4, transposed_b=True, BN=64, warps=4)   # stride_bn = K: element-wise staging of B
run(64, 64, 128, 2, misaligned_a=True, BM=64, BN=64, warps=4)  # a[1:]: no chunk of A aligned
run(128, 128, 128, 1)                      # not pipelined: staged every iteration
run(64, 64, 256, 3, BM=64, BN=64, BK=32, warps=4, start=2147483647 - 1000)  # sums past the int32 limit wrap
run(64, 64, 256, 3, BM=64, BN=64, BK=32, warps=4, start=-2147483647)
x = torch.randint(-128, 128, (32 * 32,), dtype=torch.int8)
y = torch.randint(-128, 128, (32 * 32,), dtype=torch.int8)
z = torch.full((32 * 32,), 2147483600, dtype=torch.int32)
one[(1,)](x, y, z, B=32, num_warps=4)
print("int8 dot ok")
