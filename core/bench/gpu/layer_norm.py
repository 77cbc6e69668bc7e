# Layer normalisation forward over the rows of a 4096x8192 matrix in fp32 and fp16: one program per
# row holds the whole row, computes mean and variance in fp32, scales and shifts, and also stores
# each row's mean and 1/std (what a backward pass would need). Plain Triton host code that prints
# RESULT lines; core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes so the script also runs on the simulator.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def normalise_rows(src, dst, gain, bias, row_mean, row_inv_std, pitch, width, eps, LANES: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, LANES)
    used = c < width
    v = tl.load(src + r * pitch + c, mask=used, other=0.0).to(tl.float32)
    mu = tl.sum(v, axis=0) / width
    dev = tl.where(used, v - mu, 0.0)
    inv_std = 1 / tl.sqrt(tl.sum(dev * dev, axis=0) / width + eps)
    g = tl.load(gain + c, mask=used, other=1.0)
    s = tl.load(bias + c, mask=used, other=0.0)
    tl.store(dst + r * pitch + c, dev * inv_std * g + s, mask=used)
    tl.store(row_mean + r, mu)
    tl.store(row_inv_std + r, inv_std)


def layer_norm(m, gain, bias, eps, warps):
    rows, width = m.shape
    out = torch.empty_like(m)
    means = torch.empty((rows,), dtype=torch.float32, device=m.device)
    inv_stds = torch.empty((rows,), dtype=torch.float32, device=m.device)
    normalise_rows[(rows,)](m, out, gain, bias, means, inv_stds, m.stride(0), width, eps,
                            LANES=triton.next_power_of_2(width), num_warps=warps)
    return out


ROWS, COLS = (8, 200) if SMALL else (4096, 8192)
for dtype, label, nbytes in [(torch.float32, 'fp32', 4), (torch.float16, 'fp16', 2)]:
    m = torch.randn(ROWS, COLS, device='cuda', dtype=dtype)
    gain = torch.rand(COLS, device='cuda', dtype=dtype)
    bias = torch.rand(COLS, device='cuda', dtype=dtype)
    expected = torch.nn.functional.layer_norm(m.float(), (COLS,), gain.float(), bias.float(), 1e-5)
    correct = torch.allclose(layer_norm(m, gain, bias, 1e-5, 8).float(), expected, atol=2e-2, rtol=0)
    ms = triton.testing.do_bench(lambda: layer_norm(m, gain, bias, 1e-5, 8), quantiles=[0.5])
    moved = 2 * ROWS * COLS * nbytes  # the matrix read once and written once
    print(f"RESULT\tlayer-norm forward {ROWS}x{COLS} {label}\t{ms:.4f}\t{moved / ms * 1e-6:.1f}\tGB/s\t"
          f"{'ok' if correct else 'WRONG'}")
