# Out-of-place 2-D transpose of a 8192x8192 matrix in 64x64 tiles (load a tile, tl.trans, store it
# at the mirrored tile), fp32 and fp16. Checked against torch's .t().contiguous(). Plain Triton
# host code that prints RESULT lines; core/bench/compare_with_triton.py runs it under Python +
# Triton and under tilescope's GPU backend. TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def transpose_tiles(src, dst, n_rows, n_cols, src_pitch, dst_pitch, T: tl.constexpr):
    r = tl.program_id(0) * T + tl.arange(0, T)
    c = tl.program_id(1) * T + tl.arange(0, T)
    keep = (r[:, None] < n_rows) & (c[None, :] < n_cols)
    tile = tl.load(src + r[:, None] * src_pitch + c[None, :], mask=keep)
    tl.store(dst + c[:, None] * dst_pitch + r[None, :], tl.trans(tile), mask=tl.trans(keep))


def transpose(x):
    rows, cols = x.shape
    out = torch.empty((cols, rows), device=x.device, dtype=x.dtype)
    transpose_tiles[(triton.cdiv(rows, 64), triton.cdiv(cols, 64))](x, out, rows, cols, x.stride(0), out.stride(0),
                                                                   T=64, num_warps=4)
    return out


R, C = (96, 160) if SMALL else (8192, 8192)
for label, dtype in [('fp32', torch.float32), ('fp16', torch.float16)]:
    x = torch.randn((R, C), device='cuda', dtype=dtype)
    correct = torch.equal(transpose(x), x.t().contiguous())
    ms = triton.testing.do_bench(lambda: transpose(x), quantiles=[0.5])
    moved = 2 * R * C * x.element_size()
    print(f"RESULT\ttranspose {R}x{C} {label}\t{ms:.4f}\t{moved / ms * 1e-6:.1f}\tGB/s\t{'ok' if correct else 'WRONG'}")
