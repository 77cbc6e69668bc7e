# Elementwise sum of two fp32 vectors, one tile of 1024 elements per program: the purely
# memory-bound case. Plain Triton host code that prints RESULT lines; core/bench/compare_with_triton.py
# runs it under Python + Triton and under `tilescope-cli run --backend gpu`.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes so the script also runs on the simulator.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def sum_tiles(lhs, rhs, dst, length, TILE: tl.constexpr):
    lanes = tl.program_id(axis=0) * TILE + tl.arange(0, TILE)
    live = lanes < length
    tl.store(dst + lanes, tl.load(lhs + lanes, mask=live) + tl.load(rhs + lanes, mask=live), mask=live)


def vector_sum(u, v):
    w = torch.empty_like(u)
    sum_tiles[(triton.cdiv(w.numel(), 1024),)](u, v, w, w.numel(), TILE=1024)
    return w


for power in ([12] if SMALL else [24, 27]):
    length = 1 << power
    u = torch.rand(length, device='cuda', dtype=torch.float32)
    v = torch.rand(length, device='cuda', dtype=torch.float32)
    correct = torch.equal(vector_sum(u, v), u + v)
    ms = triton.testing.do_bench(lambda: vector_sum(u, v), quantiles=[0.5])
    moved = 3 * length * 4  # two reads and one write of fp32
    print(f"RESULT\tvector add 2^{power} fp32\t{ms:.4f}\t{moved / ms * 1e-6:.1f}\tGB/s\t{'ok' if correct else 'WRONG'}")
    del u, v
