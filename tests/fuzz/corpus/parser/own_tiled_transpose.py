import triton
import triton.language as tl


@triton.jit
def transpose_tiles(src, dst, n_rows, n_cols, TR: tl.constexpr, TC: tl.constexpr):
    r = tl.program_id(0) * TR + tl.arange(0, TR)
    c = tl.program_id(1) * TC + tl.arange(0, TC)
    ok = (r[:, None] < n_rows) & (c[None, :] < n_cols)
    tile = tl.load(src + r[:, None] * n_cols + c[None, :], mask=ok)
    tl.store(dst + c[None, :] * n_rows + r[:, None], tile, mask=ok)


@triton.jit
def scaled_copy(src, dst, n, alpha, B: tl.constexpr = 64):
    i = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(dst + i, alpha * tl.load(src + i, mask=i < n), mask=i < n)
