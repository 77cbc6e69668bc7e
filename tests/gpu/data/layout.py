# The blocked layout and vector accesses of the GPU backend (docs/GPU_BACKEND.md): odd sizes,
# misaligned and non-contiguous pointers, partial masks, 1- to 8-byte elements, reductions along every
# axis of 2D/3D tiles, tiles smaller than a CTA. Run with TILESCOPE_GPU_CROSSCHECK: every tensor must
# match the simulator.
import torch
import triton
import triton.language as tl

torch.manual_seed(3)

@triton.jit
def copy_scale(x_ptr, y_ptr, n, shift, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    m = offs < n
    x = tl.load(x_ptr + shift + offs, mask=m, other=-7)
    tl.store(y_ptr + shift + offs, x * 3, mask=m)

@triton.jit
def strided(x_ptr, y_ptr, n, stride, B: tl.constexpr):
    offs = tl.arange(0, B)
    m = offs < n
    x = tl.load(x_ptr + offs * stride, mask=m, other=5.0)
    tl.store(y_ptr + offs, x + 1.0)

@triton.jit
def alternate_mask(x_ptr, y_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    m = (offs % 3) != 1
    x = tl.load(x_ptr + offs, mask=m, other=-1.0)
    tl.store(y_ptr + offs, x, mask=(offs % 5) != 2)

@triton.jit
def inplace(x_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    for i in range(3):
        x = tl.load(x_ptr + offs)
        tl.store(x_ptr + offs, x * 2.0 + i)
        r = tl.load(x_ptr + (B - 1 - offs))
        tl.store(x_ptr + B + offs, r)

@triton.jit
def reduce2d(x_ptr, o_ptr, oi_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(o_ptr + r, tl.sum(x, axis=1))
    tl.store(o_ptr + R + c, tl.sum(x, axis=0))
    tl.store(o_ptr + R + C + c, tl.max(x, axis=0))
    tl.store(o_ptr + R + 2 * C + r, tl.min(x, axis=1))
    tl.store(o_ptr + R * 2 + 3 * C, tl.sum(x))
    k = tl.sum(x, axis=1, keep_dims=True)
    tl.store(o_ptr + 4096 + r[:, None] * C + c[None, :], x - k)
    xi = (x * 100.0).to(tl.int32)
    tl.store(oi_ptr + c, tl.sum(xi, axis=0))
    tl.store(oi_ptr + C + r, tl.max(xi, axis=1))
    tl.store(oi_ptr + C + R + r, tl.xor_sum(xi, axis=1))
    tl.store(oi_ptr + C + 2 * R, tl.sum((xi > 0).to(tl.int32)))
    xl = xi.to(tl.int64) * 100000
    tl.store(oi_ptr + 2048 + c, (tl.sum(xl, axis=0) % 1000003).to(tl.int32))
    xd = x.to(tl.float64)
    tl.store(o_ptr + 8192 + r, tl.sum(xd, axis=1).to(tl.float32))

@triton.jit
def reduce3d(x_ptr, o_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)
    b = tl.arange(0, B)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + a[:, None, None] * B * C + b[None, :, None] * C + c[None, None, :])
    s1 = tl.sum(x, axis=1)
    tl.store(o_ptr + a[:, None] * C + c[None, :], s1)
    s0 = tl.max(x, axis=0)
    tl.store(o_ptr + A * C + b[:, None] * C + c[None, :], s0)
    s2 = tl.sum(x, axis=2)
    tl.store(o_ptr + A * C + B * C + a[:, None] * B + b[None, :], s2)

@triton.jit
def narrow(h_ptr, b_ptr, u_ptr, d_ptr, oh_ptr, ob_ptr, ou_ptr, od_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    m = offs < n
    h = tl.load(h_ptr + offs, mask=m, other=1.5)
    b = tl.load(b_ptr + offs, mask=m, other=0.25)
    u = tl.load(u_ptr + offs, mask=m, other=9)
    d = tl.load(d_ptr + offs, mask=m, other=2.5)
    tl.store(oh_ptr + offs, h * 2.0 + tl.sum(h, axis=0), mask=m)
    tl.store(ob_ptr + offs, b - 1.0, mask=m)
    tl.store(ou_ptr + offs, u + 1, mask=m)
    tl.store(od_ptr + offs, d * d + tl.sum(d, axis=0), mask=m)

@triton.jit
def small_tiles(x_ptr, o_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    x = tl.load(x_ptr + offs)
    s = tl.sum(x, axis=0)
    c = tl.cumsum(x, axis=0)
    tl.store(o_ptr + offs, c + s)
    x2 = tl.reshape(x, (B // 4, 4))
    t = tl.trans(x2)
    tl.store(o_ptr + B + tl.arange(0, B // 4)[None, :] + 4 * 0 + tl.arange(0, 4)[:, None] * (B // 4), t)

@triton.jit
def transpose(x_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    t = tl.trans(tl.load(x_ptr + r[:, None] * C + c[None, :]))
    tl.store(o_ptr + c[:, None] * R + r[None, :], t)

@triton.jit
def rows(x_ptr, y_ptr, stride, n_cols, B: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, B)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=-float('inf'))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=m)

# Odd sizes and misaligned starts (x_ptr + 1, + 2, + 3): vector accesses only where the check allows.
for n, shift, B, w in [(1000, 0, 1024, 4), (1003, 1, 512, 4), (997, 2, 256, 2), (4096, 3, 1024, 8), (77, 0, 128, 1)]:
    x = torch.randint(-50, 50, (n + 8,), dtype=torch.int32)
    y = torch.zeros(n + 8, dtype=torch.int32)
    copy_scale[(triton.cdiv(n, B),)](x, y, n, shift, B=B, num_warps=w)
    assert torch.equal(y[shift:shift + n], x[shift:shift + n] * 3), (n, shift)
for stride in [1, 2, 0]:
    x = torch.randn(2048)
    y = torch.zeros(512)
    strided[(1,)](x, y, 500, stride, B=512)
x = torch.randn(1024)
y = torch.full((1024,), 9.0)
alternate_mask[(1,)](x, y, B=1024)
x = torch.randn(2048)
inplace[(1,)](x, B=1024)
# (8, 2048, 4): 128 slots per thread, regrouped through shared memory on sm_90a.
for R, C, w in [(16, 32, 4), (64, 128, 4), (128, 64, 8), (8, 512, 2), (4, 4, 1), (32, 512, 4), (8, 2048, 4)]:
    xr = torch.randn(R, C)
    o = torch.zeros(4096 + R * C + 8192)
    oi = torch.zeros(4096, dtype=torch.int32)
    reduce2d[(1,)](xr, o, oi, R=R, C=C, num_warps=w)
x3 = torch.randn(8, 16, 32)
o3 = torch.zeros(8 * 32 + 16 * 32 + 8 * 16)
reduce3d[(1,)](x3, o3, A=8, B=16, C=32)
n = 1234
h = torch.randn(n, dtype=torch.float16)
bf = torch.randn(n, dtype=torch.bfloat16)
u = torch.randint(0, 200, (n,), dtype=torch.uint8)
d = torch.randn(n, dtype=torch.float64)
oh, ob, ou, od = torch.empty_like(h), torch.empty_like(bf), torch.empty_like(u), torch.empty_like(d)
narrow[(triton.cdiv(n, 1024),)](h, bf, u, d, oh, ob, ou, od, n, B=1024)
narrow[(triton.cdiv(n - 1, 256),)](h[1:], bf[1:], u[1:], d[1:], oh[1:], ob[1:], ou[1:], od[1:], n - 1, B=256)
for B in [32, 64, 256]:
    xs = torch.randn(B)
    os_ = torch.zeros(2 * B)
    small_tiles[(1,)](xs, os_, B=B)
for cols, B in [(8192, 8192), (1000, 1024), (781, 1024)]:
    xm = torch.randn(6, cols + 3)
    ym = torch.zeros_like(xm)
    rows[(6,)](xm, ym, xm.stride(0), cols, B=B)
    rows[(5,)](xm[:, 1:], ym[:, 1:], xm.stride(0), cols, B=B)
# 2-D transposes whose rows are a power of two >= 32 wide are staged with an XOR swizzle (vector
# widths 1 to 8, tiles smaller and larger than the CTA); fp16/bf16 ones in 8-element groups as
# swizzled 16-byte chunks.
for R, C, dt, w in [(64, 64, torch.float32, 4), (32, 128, torch.float16, 4), (128, 32, torch.float32, 8),
                    (8, 32, torch.float32, 1), (16, 256, torch.float16, 2), (64, 64, torch.float16, 4),
                    (64, 16, torch.bfloat16, 1), (8, 128, torch.bfloat16, 1)]:
    xt = torch.randn(R, C).to(dt)
    ot = torch.zeros(C, R, dtype=dt)
    transpose[(1,)](xt, ot, R=R, C=C, num_warps=w)
    assert torch.equal(ot, xt.t().contiguous()), (R, C)
print('layout ok')
