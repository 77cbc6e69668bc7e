# Matmul of fp32 inputs on the tensor cores (tf32, Triton's default input precision for a float32
# dot) at 4096^3, with several tile shapes and warp counts, and the same loop with a fused epilogue
# (bias per column and leaky ReLU applied before the store). Checked against torch (fp32 reference,
# tf32 tolerance). Plain Triton host code that prints RESULT lines; core/bench/compare_with_triton.py
# runs it under Python + Triton and under tilescope's GPU backend. TILESCOPE_BENCH_SMALL=1 shrinks it.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def tf32_matmul(x, y, z, bias, m, n, k, sxm, sxk, syk, syn, szm, szn,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, EPILOGUE: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    xp = x + rm[:, None] * sxm + rk[None, :] * sxk
    yp = y + rk[:, None] * syk + rn[None, :] * syn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, k, BK):
        a = tl.load(xp)
        b = tl.load(yp)
        acc = tl.dot(a, b, acc)
        xp += BK * sxk
        yp += BK * syk
    if EPILOGUE:
        acc = acc + tl.load(bias + rn)[None, :]
        acc = tl.where(acc > 0, acc, acc * 0.01)
    tl.store(z + rm[:, None] * szm + rn[None, :] * szn, acc, mask=(rm[:, None] < m) & (rn[None, :] < n))


def matmul(a, b, bias, bm, bn, bk, warps, stages, epilogue):
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    tf32_matmul[grid](a, b, c, bias, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                      c.stride(0), c.stride(1), BM=bm, BN=bn, BK=bk, EPILOGUE=epilogue,
                      num_warps=warps, num_stages=stages)
    return c


S = 128 if SMALL else 4096
a = torch.randn((S, S), device='cuda', dtype=torch.float32)
b = torch.randn((S, S), device='cuda', dtype=torch.float32)
bias = torch.randn((S,), device='cuda', dtype=torch.float32)
plain = torch.matmul(a, b)
fused = plain + bias[None, :]
fused = torch.where(fused > 0, fused, fused * 0.01)
scale = plain.abs().max().item()
for bm, bn, bk, warps, stages, epilogue in [(128, 128, 32, 8, 3, False), (128, 64, 32, 4, 3, False),
                                            (64, 128, 32, 4, 4, False), (64, 64, 32, 4, 4, False),
                                            (128, 128, 32, 8, 3, True)]:
    got = matmul(a, b, bias, bm, bn, bk, warps, stages, epilogue)
    want = fused if epilogue else plain
    correct = (got - want).abs().max().item() < 2e-2 * scale
    ms = triton.testing.do_bench(lambda: matmul(a, b, bias, bm, bn, bk, warps, stages, epilogue), quantiles=[0.5])
    what = 'bias+leaky-relu epilogue, ' if epilogue else ''
    print(f"RESULT\tmatmul tf32 {S}^3 {bm}x{bn}x{bk}, {what}{warps} warps, {stages} stages\t{ms:.4f}\t"
          f"{2.0 * S * S * S / ms * 1e-9:.1f}\tTFLOP/s\t{'ok' if correct else 'WRONG'}")
