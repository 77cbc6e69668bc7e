# Sums of a 8192x8192 fp32 matrix along either axis: along rows (axis 1: one program per block of
# 4 rows, looping over the columns in 1024-wide chunks) and along columns (axis 0: one program per
# 128-column strip, looping down the rows in 64-row chunks and reducing each chunk with axis=0).
# Checked against torch.sum. Plain Triton host code that prints RESULT lines;
# core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope's GPU backend.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def sum_rows(src, dst, n_rows, n_cols, pitch, RB: tl.constexpr, CB: tl.constexpr):
    rows = tl.program_id(0) * RB + tl.arange(0, RB)
    total = tl.zeros((RB, CB), dtype=tl.float32)
    for start in range(0, n_cols, CB):
        cols = start + tl.arange(0, CB)
        keep = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        total += tl.load(src + rows[:, None] * pitch + cols[None, :], mask=keep, other=0.0)
    tl.store(dst + rows, tl.sum(total, axis=1), mask=rows < n_rows)


@triton.jit
def sum_cols(src, dst, n_rows, n_cols, pitch, RB: tl.constexpr, CB: tl.constexpr):
    cols = tl.program_id(0) * CB + tl.arange(0, CB)
    total = tl.zeros((CB,), dtype=tl.float32)
    for start in range(0, n_rows, RB):
        rows = start + tl.arange(0, RB)
        keep = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        chunk = tl.load(src + rows[:, None] * pitch + cols[None, :], mask=keep, other=0.0)
        total += tl.sum(chunk, axis=0)
    tl.store(dst + cols, total, mask=cols < n_cols)


R, C = (64, 300) if SMALL else (8192, 8192)
x = torch.randn((R, C), device='cuda', dtype=torch.float32)
by_row = torch.empty((R,), device='cuda', dtype=torch.float32)
by_col = torch.empty((C,), device='cuda', dtype=torch.float32)


def rows_call():
    sum_rows[(triton.cdiv(R, 4),)](x, by_row, R, C, x.stride(0), RB=4, CB=1024, num_warps=4)


def cols_call():
    sum_cols[(triton.cdiv(C, 128),)](x, by_col, R, C, x.stride(0), RB=64, CB=128, num_warps=4)


for label, call, got, want in [('row sums (axis 1)', rows_call, by_row, x.sum(dim=1)),
                               ('column sums (axis 0)', cols_call, by_col, x.sum(dim=0))]:
    call()
    correct = torch.allclose(got, want, atol=1e-2, rtol=1e-4)
    ms = triton.testing.do_bench(call, quantiles=[0.5])
    print(f"RESULT\treduction {label} {R}x{C} fp32\t{ms:.4f}\t{R * C * 4 / ms * 1e-6:.1f}\tGB/s\t"
          f"{'ok' if correct else 'WRONG'}")
