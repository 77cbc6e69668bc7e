# fp16 matmul with fp32 accumulation at 4096^3, 128x128x64 tiles, 8 warps, 3 stages, beside
# torch.matmul (cuBLAS). Output tiles are visited in groups of 8 tile-rows (tl.swizzle2d) so that
# programs running together reuse the same B columns from L2. Plain Triton host code that prints
# RESULT lines; core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes so the script also runs on the simulator.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def swizzled_matmul(lhs, rhs, dst, rows, cols, depth, lhs_rs, lhs_cs, rhs_rs, rhs_cs, dst_rs, dst_cs,
                    TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr, GROUP: tl.constexpr):
    tile_r, tile_c = tl.swizzle2d(tl.program_id(0), tl.program_id(1), tl.num_programs(0), tl.num_programs(1), GROUP)
    r = tile_r * TM + tl.arange(0, TM)
    c = tile_c * TN + tl.arange(0, TN)
    kk = tl.arange(0, TK)
    lhs_at = lhs + r[:, None] * lhs_rs + kk[None, :] * lhs_cs
    rhs_at = rhs + kk[:, None] * rhs_rs + c[None, :] * rhs_cs
    total = tl.zeros((TM, TN), dtype=tl.float32)
    for step in range(0, depth, TK):
        total += tl.dot(tl.load(lhs_at), tl.load(rhs_at), allow_tf32=False)
        lhs_at += TK * lhs_cs
        rhs_at += TK * rhs_rs
    keep = (r[:, None] < rows) & (c[None, :] < cols)
    tl.store(dst + r[:, None] * dst_rs + c[None, :] * dst_cs, total, mask=keep)


def matmul(p, q, tile=128):
    rows, depth = p.shape
    cols = q.shape[1]
    out = torch.empty((rows, cols), device=p.device, dtype=torch.float16)
    tiles = (triton.cdiv(rows, tile), triton.cdiv(cols, tile))
    swizzled_matmul[tiles](p, q, out, rows, cols, depth, p.stride(0), p.stride(1), q.stride(0), q.stride(1),
                           out.stride(0), out.stride(1), TM=tile, TN=tile, TK=64, GROUP=8, num_warps=8, num_stages=3)
    return out


S = 128 if SMALL else 4096
p = torch.randn((S, S), device='cuda', dtype=torch.float16)
q = torch.randn((S, S), device='cuda', dtype=torch.float16)
correct = torch.allclose(matmul(p, q), torch.matmul(p, q), atol=0.25, rtol=1e-2)
for label, call in [('grouped matmul', lambda: matmul(p, q)), ('torch.matmul (cuBLAS)', lambda: torch.matmul(p, q))]:
    ms = triton.testing.do_bench(call, quantiles=[0.5])
    print(f"RESULT\t{label} fp16 {S}^3\t{ms:.4f}\t{2 * S * S * S / ms * 1e-9:.1f}\tTFLOP/s\t{'ok' if correct else 'WRONG'}")
