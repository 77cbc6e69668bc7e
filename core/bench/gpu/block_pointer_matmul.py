# A matmul written with block pointers (tl.make_block_ptr / tl.advance, boundary checks), fp16 in,
# fp32 accumulate, 4096^3 with 128x128x64 blocks, 8 warps, 3 stages. Runs unchanged under Python +
# Triton and under `tilescope-cli run --backend gpu`.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes so the script also runs on the simulator.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def block_pointer_matmul_k(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak), offsets=(pid_m * BM, 0),
                             block_shape=(BM, BK), order=(1, 0))
    b_bp = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn), offsets=(0, pid_n * BN),
                             block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        a = tl.load(a_bp, boundary_check=(0, 1))
        b = tl.load(b_bp, boundary_check=(0, 1))
        acc += tl.dot(a, b)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn), offsets=(pid_m * BM, pid_n * BN),
                             block_shape=(BM, BN), order=(1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))


def matmul(a, b):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    block_pointer_matmul_k[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                 c.stride(1), BM=128, BN=128, BK=64, num_warps=8, num_stages=3)
    return c


S = 128 if SMALL else 4096
a = torch.randn((S, S), device='cuda', dtype=torch.float16)
b = torch.randn((S, S), device='cuda', dtype=torch.float16)
ok = torch.allclose(matmul(a, b), torch.matmul(a, b), atol=0.25, rtol=1e-2)
ms = triton.testing.do_bench(lambda: matmul(a, b), quantiles=[0.5])
tflops = 2 * S * S * S / ms * 1e-9
print(f"RESULT\tblock-pointer matmul fp16 {S}^3\t{ms:.4f}\t{tflops:.1f}\tTFLOP/s\t{'ok' if ok else 'WRONG'}")
