# Batched fp16 matmul (32 independent 1024x1024x1024 products, fp32 accumulation), one program per
# (output tile, batch entry): the third grid axis walks the batch. 128x128x64 tiles, 8 warps,
# 3 stages. Checked against torch.matmul on the 3-D tensors. Plain Triton host code that prints
# RESULT lines; core/bench/compare_with_triton.py runs it under Python + Triton and under
# tilescope's GPU backend. TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def bmm_kernel(x, y, z, size, sxb, syb, szb, sx, sy, sz,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tm = tl.program_id(0)
    tn = tl.program_id(1)
    batch = tl.program_id(2)
    rm = tm * BM + tl.arange(0, BM)
    rn = tn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    xp = x + batch * sxb + rm[:, None] * sx + rk[None, :]
    yp = y + batch * syb + rk[:, None] * sy + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, size, BK):
        acc += tl.dot(tl.load(xp), tl.load(yp))
        xp += BK
        yp += BK * sy
    tl.store(z + batch * szb + rm[:, None] * sz + rn[None, :], acc.to(tl.float16))


def bmm(a, b):
    batch, size, _ = a.shape
    c = torch.empty((batch, size, size), device=a.device, dtype=torch.float16)
    grid = (size // 128, size // 128, batch)
    bmm_kernel[grid](a, b, c, size, a.stride(0), b.stride(0), c.stride(0), a.stride(1), b.stride(1), c.stride(1),
                     BM=128, BN=128, BK=64, num_warps=8, num_stages=3)
    return c


BATCH, S = (2, 128) if SMALL else (32, 1024)
a = torch.randn((BATCH, S, S), device='cuda', dtype=torch.float16)
b = torch.randn((BATCH, S, S), device='cuda', dtype=torch.float16)
correct = torch.allclose(bmm(a, b).float(), torch.matmul(a, b).float(), atol=0.25, rtol=1e-2)
ms = triton.testing.do_bench(lambda: bmm(a, b), quantiles=[0.5])
print(f"RESULT\tbatched matmul fp16 {BATCH}x{S}^3\t{ms:.4f}\t{2.0 * BATCH * S * S * S / ms * 1e-9:.1f}\tTFLOP/s\t"
      f"{'ok' if correct else 'WRONG'}")
