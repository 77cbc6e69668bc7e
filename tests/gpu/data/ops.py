import torch
import triton
import triton.language as tl

torch.manual_seed(0)

@triton.jit
def elementwise(x_ptr, y_ptr, h_ptr, i_ptr, o_ptr, oh_ptr, oi_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=2.0)
    h = tl.load(h_ptr + offs, mask=m, other=0.5)
    i = tl.load(i_ptr + offs, mask=m, other=3)
    r = x * y + x / y - tl.maximum(x, y) + tl.where(x > 0, tl.exp(y), tl.log(tl.abs(y) + 1.0))
    r += tl.sqrt(tl.abs(x)) + tl.sin(x) * tl.cos(y) + tl.sigmoid(x) + tl.floor(x * 3.0) + tl.erf(y)
    tl.store(o_ptr + offs, r, mask=m)
    tl.store(oh_ptr + offs, h * h + h - 0.25, mask=m)
    q = i // 7 + i % 5 - (i >> 2) + (i << 3) - (i & 12) + (i ^ 5) + (i | 1) + (-i // 3) + (-i % 4)
    q += (x * 1000.0).to(tl.int32) + tl.minimum(i, 17)
    tl.store(oi_ptr + offs, q, mask=m)

@triton.jit
def reductions(x_ptr, o_ptr, oi_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(o_ptr + r, tl.sum(x, axis=1))
    tl.store(o_ptr + R + c, tl.max(x, axis=0))
    tl.store(o_ptr + R + C + c, tl.min(x, axis=0))
    tl.store(o_ptr + R + 2 * C, tl.sum(x))
    tl.store(oi_ptr + r, tl.argmax(x, axis=1))
    tl.store(oi_ptr + R + c, tl.argmin(x, axis=0))
    cs = tl.cumsum(x, axis=1)
    tl.store(o_ptr + 1024 + r[:, None] * C + c[None, :], cs)
    t = tl.trans(x)
    tl.store(o_ptr + 4096 + c[:, None] * R + r[None, :], t * 2.0)
    xi = (x * 10.0).to(tl.int32)
    tl.store(oi_ptr + 512 + c, tl.sum(xi, axis=0))
    tl.store(oi_ptr + 1024 + r[:, None] * C + c[None, :], tl.cumsum(xi, axis=0))

@triton.jit
def dots(a_ptr, b_ptr, ah_ptr, bh_ptr, o_ptr, oh_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    ah = tl.load(ah_ptr + m[:, None] * K + k[None, :])
    bh = tl.load(bh_ptr + k[:, None] * N + n[None, :])
    acc = tl.dot(a, b, input_precision="ieee")
    acc2 = tl.dot(ah, bh, acc)
    tl.store(o_ptr + m[:, None] * N + n[None, :], acc2)
    tl.store(oh_ptr + m[:, None] * N + n[None, :], acc2.to(tl.float16))

@triton.jit
def control(x_ptr, o_ptr, cnt_ptr, n, seed, B: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, B)
    acc = tl.zeros((B,), dtype=tl.float32)
    for k in range(0, n, B):
        x = tl.load(x_ptr + k + offs, mask=k + offs < n, other=0.0)
        acc += x
    i = 0
    while i < pid:
        acc = acc * 0.5
        i += 1
    if pid % 2 == 0:
        acc = acc + tl.rand(seed, offs + pid * B)
    else:
        acc = acc - tl.randn(seed, offs + pid * B)
    tl.store(o_ptr + pid * B + offs, acc)
    tl.atomic_add(cnt_ptr + offs % 4, offs)
    tl.atomic_max(cnt_ptr + 4 + offs % 3, offs * pid)
    old = tl.atomic_add(cnt_ptr + 8, 1)
    tl.store(cnt_ptr + 16 + pid, tl.where(old >= 0, 1, 0))

@triton.jit
def pairs(x_ptr, h_ptr, i_ptr, o_ptr, oh_ptr, oi_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    h = tl.load(h_ptr + r[:, None] * C + c[None, :])
    i = tl.load(i_ptr + r[:, None] * C + c[None, :])
    a, b = tl.split(tl.reshape(x, (R, C // 2, 2)))
    tl.store(o_ptr + r[:, None] * C + c[None, :], tl.reshape(tl.join(b, a * 2.0), (R, C)))
    ha, hb = tl.split(tl.reshape(h, (R, C // 2, 2)))
    hc = tl.arange(0, C // 2)
    tl.store(oh_ptr + r[:, None] * (C // 2) + hc[None, :], ha - hb)
    ia, ib = tl.split(tl.reshape(i, (R, C // 2, 2)))
    tl.store(oi_ptr + r[:, None] * C + c[None, :], tl.interleave(ib, (ia > ib).to(tl.int32)))

x = torch.randn(1000)
y = torch.randn(1000)
h = torch.randn(1000, dtype=torch.float16)
iv = torch.randint(-1000, 1000, (1000,), dtype=torch.int32)
o = torch.empty(1000)
oh = torch.empty(1000, dtype=torch.float16)
oi = torch.empty(1000, dtype=torch.int32)
elementwise[(triton.cdiv(1000, 256),)](x, y, h, iv, o, oh, oi, 1000, B=256)
print('elementwise', o[:3], oh[:3], oi[:3])

xr = torch.randn(16, 32)
orr = torch.zeros(8192)
oir = torch.zeros(2048, dtype=torch.int32)
reductions[(1,)](xr, orr, oir, R=16, C=32)
print('reductions', orr[:3], oir[:3])

a = torch.randn(32, 16)
b = torch.randn(16, 64)
ah = torch.randn(32, 16, dtype=torch.float16)
bh = torch.randn(16, 64, dtype=torch.float16)
od = torch.empty(32, 64)
odh = torch.empty(32, 64, dtype=torch.float16)
dots[(1,)](a, b, ah, bh, od, odh, M=32, N=64, K=16, num_warps=2)
print('dots', od[0, :3])

xp = torch.randn(32, 16)
xp[0, :4] = torch.tensor([-0.0, float('nan'), float('inf'), -1.0])
hp = torch.randn(32, 16, dtype=torch.float16)
ip = torch.randint(-100, 100, (32, 16), dtype=torch.int32)
op = torch.empty(32, 16)
ohp = torch.empty(32, 8, dtype=torch.float16)
oip = torch.empty(32, 16, dtype=torch.int32)
pairs[(1,)](xp, hp, ip, op, ohp, oip, R=32, C=16)
xs = xp.view(32, 8, 2)
assert torch.equal(op.view(32, 8, 2)[1:, :, 0], xs[1:, :, 1]) and torch.equal(op.view(32, 8, 2)[1:, :, 1], xs[1:, :, 0] * 2)
assert torch.equal(ohp, hp.view(32, 8, 2)[:, :, 0] - hp.view(32, 8, 2)[:, :, 1])
assert torch.equal(oip.view(32, 8, 2)[:, :, 0], ip.view(32, 8, 2)[:, :, 1])
print('pairs', op[0, :4].tolist())

xc = torch.randn(300)
oc = torch.empty(4 * 64)
cnt = torch.zeros(32, dtype=torch.int32)
control[(4,)](xc, oc, cnt, 300, 1234, B=64)
print('control', oc[:3], cnt[:10])
