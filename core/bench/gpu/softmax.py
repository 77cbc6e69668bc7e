# Softmax over the rows of a 4096x8192 fp32 matrix, a whole row per program (row max, exponentials,
# row sum in registers), at 8 and 16 warps. Plain Triton host code that prints RESULT lines;
# core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope's GPU backend.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes so the script also runs on the simulator.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def row_softmax(src, dst, src_pitch, dst_pitch, width, LANES: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, LANES)
    vals = tl.load(src + r * src_pitch + c, mask=c < width, other=-float('inf'))
    shifted = vals - tl.max(vals, axis=0)  # the largest exponent becomes 0: no overflow
    e = tl.exp(shifted)
    tl.store(dst + r * dst_pitch + c, e / tl.sum(e, axis=0), mask=c < width)


def softmax_rows(m, warps):
    rows, width = m.shape
    out = torch.empty_like(m)
    row_softmax[(rows,)](m, out, m.stride(0), out.stride(0), width, LANES=triton.next_power_of_2(width),
                         num_warps=warps)
    return out


ROWS, COLS = (8, 200) if SMALL else (4096, 8192)
m = torch.randn(ROWS, COLS, device='cuda', dtype=torch.float32)
for warps in [8, 16]:
    correct = torch.allclose(softmax_rows(m, warps), torch.softmax(m, dim=1), atol=1e-6, rtol=1e-4)
    ms = triton.testing.do_bench(lambda: softmax_rows(m, warps), quantiles=[0.5])
    moved = 2 * ROWS * COLS * 4  # read once, write once
    print(f"RESULT\tsoftmax {ROWS}x{COLS} fp32, {warps} warps\t{ms:.4f}\t{moved / ms * 1e-6:.1f}\tGB/s\t"
          f"{'ok' if correct else 'WRONG'}")
