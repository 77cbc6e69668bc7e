# Software-pipelined K loops (cp.async stages) against the simulator: a K tail cut by the mask, a
# transposed B whose stride is not 1 (staged K-major), a misaligned A (a[1:]), one to four
# stages, several programs, and a loop too short to fill the ring; then the same on wgmma's shapes.
import torch
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :], acc, mask=c_mask)


def run(M, N, K, stages, transposed_b=False, misaligned_a=False, BM=64, BN=64, BK=32, warps=4, dtype=torch.float16):
    a_store = torch.randn(M * K + 8, dtype=dtype)
    a = a_store[1:1 + M * K] if misaligned_a else a_store[:M * K]
    if transposed_b:
        b = torch.randn(N * K, dtype=dtype)  # B[k, n] at n * K + k
        sbk, sbn = 1, K
    else:
        b = torch.randn(K * N, dtype=dtype)
        sbk, sbn = N, 1
    c = torch.zeros(M * N)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    mm[grid](a, b, c, M, N, K, K, 1, sbk, sbn, N, BM=BM, BN=BN, BK=BK, num_warps=warps, num_stages=stages)
    return c


run(128, 128, 256, 3)
run(128, 64, 80, 3)                      # K tail: the last step's second half is masked off
run(64, 128, 96, 4, transposed_b=True)   # stride_bn = K, a multiple of 16: B staged K-major (chunks along K)
run(96, 128, 80, 3, transposed_b=True, dtype=torch.bfloat16)  # K-major B, a masked K tail, an M tail
run(64, 64, 88, 2, transposed_b=True)    # stride_bn = 88, no multiple of 16, stride_bk 1: K-major, masked chunks
run(64, 64, 64, 2, misaligned_a=True)    # a[1:]: no chunk of A is 16-byte aligned
run(64, 64, 32, 4)                       # one iteration, a ring of four
run(96, 80, 48, 3, BM=32, BN=16, BK=16, warps=2)
run(128, 128, 160, 3, dtype=torch.bfloat16)  # bf16 through the same ring
# fp32 operands (tf32 dots) through the same ring, four elements per 16-byte chunk, rounded to tf32
# as the fragments are read: whole chunks, a masked K tail, a strided B, a misaligned A, 8 warps.
run(128, 128, 256, 3, dtype=torch.float32)
run(128, 64, 84, 3, dtype=torch.float32)
run(128, 64, 82, 3, dtype=torch.float32)       # a chunk cut by the mask; rows of 82 floats: misaligned chunks
run(64, 128, 96, 4, transposed_b=True, dtype=torch.float32)
run(64, 64, 64, 2, misaligned_a=True, dtype=torch.float32)
run(128, 128, 96, 3, warps=8, dtype=torch.float32)     # 8 warps over 64 columns: the wmma loop on sm_90a too
# On sm_90a the others take wgmma's transposed product (BN a multiple of 64 per warpgroup, BK of 32):
run(128, 256, 160, 3, BM=64, BN=128, BK=64, warps=8, dtype=torch.float32)  # two warpgroups, two K panels, a tail
run(256, 64, 96, 3, BM=128, BN=64, dtype=torch.float32)  # wgmma's N = BM = 128
# BK a multiple of 64 and 4 or 8 warps: on sm_90a these take wgmma over swizzled stages (the fp16/bf16
# runs above with BK = 32, BM and BN 64 or more, too: A in the 64-byte swizzle).
run(128, 128, 320, 3, BK=64, warps=8)                 # two warpgroups, 64 rows each
run(64, 256, 192, 3, BM=64, BN=256, BK=64)            # one warpgroup, N = 256
run(256, 64, 128, 2, BM=256, BN=64, BK=64)            # four 64-row tiles per warpgroup
run(128, 64, 100, 3, BM=64, BN=64, BK=64)             # K tail masked inside a swizzled stage
run(64, 128, 128, 3, BM=64, BN=128, BK=64, transposed_b=True)
run(64, 64, 128, 3, BM=64, BN=64, BK=64, misaligned_a=True)
run(128, 128, 192, 4, BM=128, BN=128, BK=128, warps=8, dtype=torch.bfloat16)  # two K panels
print('pipeline ok')
