# Arg reductions with few outputs (several threads per output, runs combined by warp shuffles) and
# scans longer than one run of 32 (runs scanned apart, then chained): NaNs anywhere (first, last,
# several, all), ties, -inf, integers, both axes of 2-D tiles, reverse scans, fp16 and int64. Run with
# TILESCOPE_GPU_CROSSCHECK: every tensor must match the simulator.
import torch
import triton
import triton.language as tl

torch.manual_seed(7)

@triton.jit
def arg_rows(x_ptr, o_ptr, n, B: tl.constexpr):
    c = tl.arange(0, B)
    x = tl.load(x_ptr + tl.program_id(0) * n + c, mask=c < n, other=-float('inf'))
    tl.store(o_ptr + 4 * tl.program_id(0), tl.argmax(x, axis=0))
    tl.store(o_ptr + 4 * tl.program_id(0) + 1, tl.argmin(x, axis=0))
    tl.store(o_ptr + 4 * tl.program_id(0) + 2, tl.argmax(x, axis=0, tie_break_left=False))
    xi = (x * 4.0).to(tl.int32)
    tl.store(o_ptr + 4 * tl.program_id(0) + 3, tl.argmax(xi, axis=0))

@triton.jit
def arg_2d(x_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(o_ptr + r, tl.argmax(x, axis=1))
    tl.store(o_ptr + R + c, tl.argmin(x, axis=0))

@triton.jit
def scans(x_ptr, o_ptr, oi_ptr, n, B: tl.constexpr):
    c = tl.arange(0, B)
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * n + c, mask=c < n, other=0.0)
    tl.store(o_ptr + row * 4 * B + c, tl.cumsum(x, axis=0))
    tl.store(o_ptr + row * 4 * B + B + c, tl.cumsum(x, axis=0, reverse=True))
    tl.store(o_ptr + row * 4 * B + 2 * B + c, tl.cumprod(1.0 + x * 0.01, axis=0))
    tl.store(o_ptr + row * 4 * B + 3 * B + c, tl.cumsum(x.to(tl.float16), axis=0).to(tl.float32))
    xi = (x * 1000.0).to(tl.int64)
    tl.store(oi_ptr + row * B + c, tl.cumsum(xi * xi * 977, axis=0))

@triton.jit
def scans_2d(x_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(o_ptr + r[:, None] * C + c[None, :], tl.cumsum(x, axis=0))
    tl.store(o_ptr + R * C + r[:, None] * C + c[None, :], tl.cumsum(x, axis=1, reverse=True))

for n, B, warps in [(1000, 1024, 4), (300, 512, 8), (40, 64, 1), (2048, 2048, 8)]:
    x = torch.randn(6, n)
    x[1, 0] = float('nan')
    x[2, n - 1] = float('nan')
    x[3, 5] = float('nan')
    x[3, n // 2] = float('nan')
    x[4, :] = float('nan')
    x[5, :] = 1.5  # ties everywhere
    o = torch.zeros(24, dtype=torch.int32)
    arg_rows[(6,)](x, o, n, B=B, num_warps=warps)
for R, C in [(4, 256), (256, 4), (2, 64)]:
    x2 = torch.randn(R, C)
    x2[0, 3] = float('nan')
    o2 = torch.zeros(R + C, dtype=torch.int32)
    arg_2d[(1,)](x2, o2, R=R, C=C)
for n, B, warps in [(1000, 1024, 4), (33, 64, 1), (2048, 2048, 8), (100, 128, 2)]:
    x = torch.randn(3, n)
    o = torch.zeros(3 * 4 * B)
    oi = torch.zeros(3 * B, dtype=torch.int64)
    scans[(3,)](x, o, oi, n, B=B, num_warps=warps)
    assert torch.allclose(o[:n], torch.cumsum(x[0], dim=0), atol=1e-3), n
for R, C in [(128, 8), (4, 256), (64, 64)]:
    x2 = torch.randn(R, C)
    o2 = torch.zeros(2 * R * C)
    scans_2d[(1,)](x2, o2, R=R, C=C)
    assert torch.allclose(o2[:R * C].reshape(R, C), torch.cumsum(x2, dim=0), atol=1e-3), (R, C)
print('scans ok')
