# Per-row kernels beside the suite's sums and softmaxes: (1) argmax of each row of a 16384x1000
# fp32 matrix (width not a power of two, masked with -inf), 4 warps; (2) the running sum of each
# row of a 8192x2048 fp32 matrix with tl.cumsum, one row per program, 8 warps; (3) softmax over the
# last axis of a 3-D fp16 view (64x512x1000 of a 64x512x1024 tensor: non-power-of-two width,
# padded rows) addressed through its three strides, one (batch, row) per program, 4 warps. Checked against torch. Plain Triton host code
# that prints RESULT lines; core/bench/compare_with_triton.py runs it under Python + Triton and under
# tilescope's GPU backend. TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def row_argmax(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=-float('inf'))
    tl.store(out_ptr + row, tl.argmax(x, axis=0))


@triton.jit
def row_cumsum(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride_x + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row * stride_out + cols, tl.cumsum(x, axis=0), mask=cols < n_cols)


@triton.jit
def softmax_3d(x_ptr, y_ptr, n_cols, sxb, sxm, sxn, syb, sym, syn, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    m = tl.program_id(1)
    offs = tl.arange(0, BLOCK_N)
    mask = offs < n_cols
    x = tl.load(x_ptr + b * sxb + m * sxm + offs * sxn, mask=mask, other=-float('inf')).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + b * syb + m * sym + offs * syn, y.to(tl.float16), mask=mask)


def report(label, call, moved, correct):
    ms = triton.testing.do_bench(call, quantiles=[0.5])
    print(f"RESULT\t{label}\t{ms:.4f}\t{moved / ms * 1e-6:.1f}\tGB/s\t{'ok' if correct else 'WRONG'}")


R, C = (8, 300) if SMALL else (16384, 1000)
x = torch.randn((R, C), device='cuda', dtype=torch.float32)
idx = torch.empty((R,), device='cuda', dtype=torch.int32)
am = lambda: row_argmax[(R,)](x, idx, C, x.stride(0), BLOCK_SIZE=triton.next_power_of_2(C), num_warps=4)
am()
report(f"argmax per row {R}x{C} fp32", am, R * C * 4, torch.equal(idx.long(), torch.argmax(x, dim=1).long()))

R, C = (8, 256) if SMALL else (8192, 2048)
x = torch.rand((R, C), device='cuda', dtype=torch.float32)
y = torch.empty_like(x)
cs = lambda: row_cumsum[(R,)](x, y, C, x.stride(0), y.stride(0), BLOCK_SIZE=triton.next_power_of_2(C), num_warps=8)
cs()
report(f"cumsum along rows {R}x{C} fp32", cs, 2 * R * C * 4, torch.allclose(y, torch.cumsum(x, dim=1), atol=1e-2, rtol=1e-4))

B, M, N = (2, 4, 300) if SMALL else (64, 512, 1000)
x3 = torch.randn((B, M, N + 24), device='cuda', dtype=torch.float16)[:, :, :N]  # a view: rows padded to N + 24
y3 = torch.empty((B, M, N), device='cuda', dtype=torch.float16)
sm = lambda: softmax_3d[(B, M)](x3, y3, N, x3.stride(0), x3.stride(1), x3.stride(2), y3.stride(0), y3.stride(1),
                                y3.stride(2), BLOCK_N=triton.next_power_of_2(N), num_warps=4)
sm()
report(f"softmax 3-D strided {B}x{M}x{N} fp16 (padded rows)", sm, 2 * B * M * N * 2,
       torch.allclose(y3.float(), torch.softmax(x3.float(), dim=2), atol=1e-3, rtol=1e-2))
