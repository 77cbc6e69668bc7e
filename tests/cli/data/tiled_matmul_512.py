# A 512x512 fp16 matmul in 64x64 tiles (64 programs, 8 steps along K, two loads per step and one
# store), visiting the tiles in groups of 4 tile-rows: the trace-size check of the simulator (the
# whole trace of this run must stay under 64 MiB).
import torch
import triton
import triton.language as tl


@triton.jit
def tile_matmul(lhs, rhs, dst, rows, cols, depth, lhs_rs, lhs_cs, rhs_rs, rhs_cs, dst_rs, dst_cs,
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


torch.manual_seed(1)
size, tile = 512, 64
p = torch.randn((size, size), device='cuda', dtype=torch.float16)
q = torch.randn((size, size), device='cuda', dtype=torch.float16)
out = torch.empty((size, size), device='cuda', dtype=torch.float16)
tiles = (triton.cdiv(size, tile), triton.cdiv(size, tile))
tile_matmul[tiles](p, q, out, size, size, size, p.stride(0), p.stride(1), q.stride(0), q.stride(1),
                   out.stride(0), out.stride(1), TM=tile, TN=tile, TK=tile, GROUP=4)
# Both sides round the fp32 sums to fp16 on their own: allow one fp16 step at |values| < 128.
print(torch.allclose(out, torch.matmul(p, q), atol=0.1, rtol=0))
