# fp16 matmuls scheduled as users write them beyond one program per output tile: (1) a persistent
# kernel, one program per SM walking the output tiles with `for tile in range(pid, num_tiles,
# NUM_SMS)` in grouped order, 128x128x64 tiles, 8 warps, 3 stages; (2) split-K, 4096x4096 outputs
# with K = 16384 cut into 4 slices whose partial fp32 tiles are added into the output with
# tl.atomic_add, 128x128x64, 8 warps, 3 stages. Checked against torch. Plain Triton host code that
# prints RESULT lines; core/bench/compare_with_triton.py runs it under Python + Triton and under
# tilescope's GPU backend. TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def persistent_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                      GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    tiles_per_group = GROUP_M * num_pid_n
    for tile_id in range(pid, num_tiles, NUM_SMS):
        group = tile_id // tiles_per_group
        first_m = group * GROUP_M
        group_size = min(num_pid_m - first_m, GROUP_M)
        pid_m = first_m + (tile_id % group_size)
        pid_n = (tile_id % tiles_per_group) // group_size
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, K, BLOCK_K):
            acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
            a_ptrs += BLOCK_K * stride_ak
            b_ptrs += BLOCK_K * stride_bk
        c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
        tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def split_k_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    k_per_split = K // SPLIT_K
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * k_per_split + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, k_per_split, BLOCK_K):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.atomic_add(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def report(label, call, flops, correct):
    ms = triton.testing.do_bench(call, quantiles=[0.5])
    print(f"RESULT\t{label}\t{ms:.4f}\t{flops / ms * 1e-9:.1f}\tTFLOP/s\t{'ok' if correct else 'WRONG'}")


S = 256 if SMALL else 4096
sms = torch.cuda.get_device_properties(0).multi_processor_count
a = torch.randn((S, S), device='cuda', dtype=torch.float16)
b = torch.randn((S, S), device='cuda', dtype=torch.float16)
c = torch.empty((S, S), device='cuda', dtype=torch.float16)
tiles = triton.cdiv(S, 128) * triton.cdiv(S, 128)
persistent = lambda: persistent_matmul[(min(sms, tiles),)](
    a, b, c, S, S, S, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
    NUM_SMS=min(sms, tiles), BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=3)
persistent()
report(f"persistent matmul fp16 {S}^3, {min(sms, tiles)} programs", persistent, 2.0 * S * S * S,
       torch.allclose(c.float(), torch.matmul(a.float(), b.float()), atol=0.25, rtol=1e-2))

K = 512 if SMALL else 16384
ka = torch.randn((S, K), device='cuda', dtype=torch.float16)
kb = torch.randn((K, S), device='cuda', dtype=torch.float16)
kc = torch.zeros((S, S), device='cuda', dtype=torch.float32)


def split_k():
    kc.zero_()
    split_k_matmul[(triton.cdiv(S, 128), triton.cdiv(S, 128), 4)](
        ka, kb, kc, S, S, K, ka.stride(0), ka.stride(1), kb.stride(0), kb.stride(1), kc.stride(0), kc.stride(1),
        BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, SPLIT_K=4, num_warps=8, num_stages=3)


split_k()
report(f"split-K matmul fp16 {S}x{S}x{K}, 4 slices, atomic_add", split_k, 2.0 * S * S * K,
       torch.allclose(kc, torch.matmul(ka.float(), kb.float()), atol=0.05, rtol=1e-3))
