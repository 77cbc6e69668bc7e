# Random-number kernels with Philox (tl.rand / tl.randn): dropout of 2^26 fp32 values with
# p = 0.5 (keep and scale by 2 where the uniform draw passes), and filling 2^26 fp32 values with
# standard normals. Checked for what does not depend on the generator's exact bits: dropout keeps
# exactly the values it did not zero, scaled by 2, about half of them, the same for the same seed;
# the normals have mean about 0 and variance about 1. Plain Triton host code that prints RESULT
# lines; core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope's GPU
# backend. TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def dropout(src, dst, n, p, seed, BLOCK: tl.constexpr):
    at = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(src + at, mask=at < n)
    keep = tl.rand(seed, at) > p
    tl.store(dst + at, tl.where(keep, x / (1 - p), 0.0), mask=at < n)


@triton.jit
def normals(dst, n, seed, BLOCK: tl.constexpr):
    at = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + at, tl.randn(seed, at), mask=at < n)


N = 1 << 14 if SMALL else 1 << 26
x = torch.rand((N,), device='cuda', dtype=torch.float32) + 1.0  # never 0: a zero in the output means dropped
y = torch.empty_like(x)
run = lambda: dropout[(triton.cdiv(N, 1024),)](x, y, N, 0.5, 1234, BLOCK=1024, num_warps=4)
run()
first = y.clone()
run()
kept = y != 0
fraction = kept.float().mean().item()
correct = torch.equal(first, y) and torch.allclose(y[kept], x[kept] * 2) and abs(fraction - 0.5) < 0.02
ms = triton.testing.do_bench(run, quantiles=[0.5])
print(f"RESULT\tdropout p=0.5 {N} fp32\t{ms:.4f}\t{2 * N * 4 / ms * 1e-6:.1f}\tGB/s\t{'ok' if correct else 'WRONG'}")

z = torch.empty((N,), device='cuda', dtype=torch.float32)
fill = lambda: normals[(triton.cdiv(N, 1024),)](z, N, 42, BLOCK=1024, num_warps=4)
fill()
mean = z.mean().item()
var = (z * z).mean().item() - mean * mean
correct = abs(mean) < 0.05 and abs(var - 1.0) < 0.05
ms = triton.testing.do_bench(fill, quantiles=[0.5])
print(f"RESULT\trandn fill {N} fp32\t{ms:.4f}\t{N * 4 / ms * 1e-6:.1f}\tGB/s\t{'ok' if correct else 'WRONG'}")
