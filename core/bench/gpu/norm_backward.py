# Backward-pass and column kernels: (1) layer-norm backward on fp16 rows (8192x4096): each of 512
# programs walks its rows (row = pid, pid + 512, ...), writes dx, and keeps its partial dw and db in
# registers, stored once per program as a row of a (512, 4096) fp32 buffer (no atomics, no locks);
# 8 warps; (2) column sums of a 32768x8192 fp16 matrix, one program per 64-column strip
# accumulating 64x64 fp32 chunks and reducing along axis 0 once at the end, 4 warps. Checked against
# torch (the backward against its closed form). Plain Triton host code that prints RESULT lines;
# core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope's GPU backend.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def layer_norm_bwd(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_part, db_part, M, N, stride,
                   GROUPS: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros((BLOCK_N,), dtype=tl.float32)
    db = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for row in range(pid, M, GROUPS):
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(dx_ptr + row * stride + cols, dx.to(tl.float16), mask=mask)
        dw += dy * xhat
        db += dy
    tl.store(dw_part + pid * N + cols, dw, mask=mask)
    tl.store(db_part + pid * N + cols, db, mask=mask)


@triton.jit
def column_sums(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, M, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        acc += tl.load(x_ptr + rows[:, None] * stride + cols[None, :],
                       mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0).to(tl.float32)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < N)


def report(label, call, moved, correct):
    ms = triton.testing.do_bench(call, quantiles=[0.5])
    print(f"RESULT\t{label}\t{ms:.4f}\t{moved / ms * 1e-6:.1f}\tGB/s\t{'ok' if correct else 'WRONG'}")


M, N, G = (40, 300, 8) if SMALL else (8192, 4096, 512)
x = torch.randn((M, N), device='cuda', dtype=torch.float16)
dy = torch.randn((M, N), device='cuda', dtype=torch.float16)
w = torch.randn((N,), device='cuda', dtype=torch.float16)
xf = x.float()
mean = xf.mean(dim=1)
rstd = torch.rsqrt(((xf - mean[:, None]) ** 2).mean(dim=1) + 1e-5)
dx = torch.empty_like(x)
dw_p = torch.empty((G, N), device='cuda', dtype=torch.float32)
db_p = torch.empty((G, N), device='cuda', dtype=torch.float32)
bwd = lambda: layer_norm_bwd[(G,)](dy, x, w, mean, rstd, dx, dw_p, db_p, M, N, x.stride(0), GROUPS=G,
                                   BLOCK_N=triton.next_power_of_2(N), num_warps=8)
bwd()
xhat = (xf - mean[:, None]) * rstd[:, None]
wdy = w.float()[None, :] * dy.float()
want_dx = (wdy - (xhat * (xhat * wdy).mean(dim=1, keepdim=True) + wdy.mean(dim=1, keepdim=True))) * rstd[:, None]
correct = (torch.allclose(dx.float(), want_dx, atol=2e-2, rtol=1e-2) and
           torch.allclose(dw_p.sum(dim=0), (dy.float() * xhat).sum(dim=0), atol=0.5, rtol=1e-3) and
           torch.allclose(db_p.sum(dim=0), dy.float().sum(dim=0), atol=0.5, rtol=1e-3))
report(f"layer-norm backward dx + partial dw,db {M}x{N} fp16, {G} programs", bwd, 3 * M * N * 2 + 2 * G * N * 4, correct)

M, N = (300, 200) if SMALL else (32768, 8192)
t = torch.randn((M, N), device='cuda', dtype=torch.float16)
sums = torch.empty((N,), device='cuda', dtype=torch.float32)
cols = lambda: column_sums[(triton.cdiv(N, 64),)](t, sums, M, N, t.stride(0), BLOCK_M=64, BLOCK_N=64, num_warps=4)
cols()
report(f"column sums (axis 0) {M}x{N} fp16", cols, M * N * 2,
       torch.allclose(sums, t.float().sum(dim=0), atol=5e-2, rtol=1e-3))
