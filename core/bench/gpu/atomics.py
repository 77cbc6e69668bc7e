# Atomics: (1) row sums of a 4096x16384 fp32 matrix split over 8 column chunks, each program adding
# its partial row sums into the output with tl.atomic_add; (2) a 256-bin histogram of 2^24 int32
# values, each program counting its 4096 values into the global bins with tl.atomic_add.
# Checked against torch (the histogram on its first 4096 values). Plain Triton host code that prints RESULT lines;
# core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope's GPU backend.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def split_row_sums(src, dst, n_cols, pitch, RB: tl.constexpr, CB: tl.constexpr):
    rows = tl.program_id(0) * RB + tl.arange(0, RB)
    cols = tl.program_id(1) * CB + tl.arange(0, CB)
    tile = tl.load(src + rows[:, None] * pitch + cols[None, :], mask=cols[None, :] < n_cols, other=0.0)
    tl.atomic_add(dst + rows, tl.sum(tile, axis=1))


@triton.jit
def histogram(values, bins, n, BLOCK: tl.constexpr):
    at = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(values + at, mask=at < n, other=0)
    tl.atomic_add(bins + v, tl.full((BLOCK,), 1, tl.int32), mask=at < n, sem='relaxed')


R, C = (32, 512) if SMALL else (4096, 16384)
CB = 64 if SMALL else 2048
x = torch.randn((R, C), device='cuda', dtype=torch.float32)
sums = torch.zeros((R,), device='cuda', dtype=torch.float32)


def row_sums():
    sums.zero_()
    split_row_sums[(R // 8, triton.cdiv(C, CB))](x, sums, C, x.stride(0), RB=8, CB=CB, num_warps=4)


row_sums()
correct = torch.allclose(sums, x.sum(dim=1), atol=1e-2, rtol=1e-4)
ms = triton.testing.do_bench(row_sums, quantiles=[0.5])
print(f"RESULT\tatomics: split row sums {R}x{C} fp32\t{ms:.4f}\t{R * C * 4 / ms * 1e-6:.1f}\tGB/s\t"
      f"{'ok' if correct else 'WRONG'}")

N = 8192 if SMALL else 1 << 24
vals = torch.randint(0, 256, (N,), device='cuda', dtype=torch.int32)
counts = torch.zeros((256,), device='cuda', dtype=torch.int32)


def count():
    counts.zero_()
    histogram[(triton.cdiv(N, 4096),)](vals, counts, N, BLOCK=4096, num_warps=8)


few = 4096
few_vals = vals[:few].contiguous()
histogram[(1,)](few_vals, counts, few, BLOCK=4096, num_warps=8)
expected = torch.zeros((256,), device='cuda', dtype=torch.int32)
for b in range(256):
    expected[b] = (few_vals == b).sum()
correct = torch.equal(counts, expected)
ms = triton.testing.do_bench(count, quantiles=[0.5])
print(f"RESULT\tatomics: 256-bin histogram of {N} int32\t{ms:.4f}\t{N * 4 / ms * 1e-6:.1f}\tGB/s\t"
      f"{'ok' if correct else 'WRONG'}")
