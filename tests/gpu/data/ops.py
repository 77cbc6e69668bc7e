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

@triton.jit
def reorder(x_ptr, flip_ptr, sort_ptr, sortd_ptr, cat_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(flip_ptr + offs, tl.flip(x, 1))
    tl.store(sort_ptr + offs, tl.sort(x))
    tl.store(sortd_ptr + offs, tl.sort(x, descending=True))
    tl.store(cat_ptr + tl.arange(0, 2 * R)[:, None] * C + tl.arange(0, C)[None, :], tl.cat(x, -x, can_reorder=True))

xr = torch.randn(8, 32)
xr[0, :4] = xr[0, 4:8]
outs = [torch.empty(8, 32) for _ in range(3)]
ocat = torch.empty(16, 32)
reorder[(1,)](xr, *outs, ocat, R=8, C=32)
assert torch.equal(outs[0], xr.flip(1)) and torch.equal(outs[1], torch.sort(xr).values)
assert torch.equal(outs[2], torch.sort(xr, descending=True).values) and torch.equal(ocat, torch.cat([xr, -xr]))
print('reorder', outs[1][0, :3])

@triton.jit
def topks(x_ptr, t_ptr, R: tl.constexpr, C: tl.constexpr, K: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])
    tl.store(t_ptr + tl.arange(0, R)[:, None] * K + tl.arange(0, K)[None, :], tl.topk(x, K))

otk = torch.empty(8, 4)
topks[(1,)](xr, otk, R=8, C=32, K=4)
assert torch.equal(otk, torch.sort(xr, descending=True).values[:, :4])
print('topk', otk[0, :2])

@triton.jit
def gathers(src_ptr, idx_ptr, out_ptr, h_ptr, R: tl.constexpr, C: tl.constexpr, B: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    src = tl.load(src_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(src, idx % C, 1))
    tl.store(h_ptr + tl.arange(0, B), tl.histogram(idx, B, mask=idx < 12))

srcg = torch.randn(8, 16)
idxg = torch.randint(0, 20, (8, 16), dtype=torch.int32)
outg = torch.empty(8, 16)
hg = torch.empty(16, dtype=torch.int32)
gathers[(1,)](srcg, idxg, outg, hg, R=8, C=16, B=16)
assert torch.equal(outg, torch.gather(srcg, 1, (idxg % 16).long()))
assert hg.tolist() == [(idxg == b).sum().item() if b < 12 else 0 for b in range(16)]
print('gathers', hg[:4])

@triton.jit
def bp_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (tl.program_id(0) * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn), (0, tl.program_id(1) * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a_bp, boundary_check=(0, 1), padding_option="zero"),
                      tl.load(b_bp, boundary_check=(0, 1), padding_option="zero"))
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn), (tl.program_id(0) * BM, tl.program_id(1) * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))

for (M, N, K, BM, BN, BK, warps) in [(100, 72, 80, 32, 32, 16, 4), (256, 256, 192, 128, 128, 64, 8)]:
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = torch.empty(M, N, dtype=torch.float16)
    bp_matmul[(triton.cdiv(M, BM), triton.cdiv(N, BN))](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                                        c.stride(0), c.stride(1), BM=BM, BN=BN, BK=BK, num_warps=warps)
    assert torch.allclose(c.float(), a.float() @ b.float(), atol=5e-2, rtol=1e-2)
print('block pointers', c[0, :3])

xc = torch.randn(300)
oc = torch.empty(4 * 64)
cnt = torch.zeros(32, dtype=torch.int32)
control[(4,)](xc, oc, cnt, 300, 1234, B=64)
print('control', oc[:3], cnt[:10])
