# Grouped fp16 GEMM through tensor descriptors made on the device, in the style of Triton's TMA
# grouped-GEMM tutorial: a persistent grid of one program per SM walks the tiles of every problem
# of the group; each problem's A (M x K), B given transposed (N x K) and C are described with
# tl.make_tensor_descriptor from a table of addresses (triton.set_allocator supplies the global
# scratch Triton needs for them), boxes are loaded with desc.load and multiplied as a @ b.T, and
# the C box is written with desc.store. Four square problems of side 1024 / 2048 / 4096, beside
# torch.matmul for each problem (cuBLAS). Checked against torch (every element written, and 64 random
# rows x 64 random columns of each product). Plain Triton host code that
# prints RESULT lines; core/bench/compare_with_triton.py runs it under Python + Triton and under
# tilescope's GPU backend. TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'
# compare_with_triton.py --tutorial FILE sets this to True and puts the TMA kernel of Triton's
# grouped-GEMM tutorial (grouped_matmul_tma_kernel, read from FILE at run time) after the imports;
# the same host code then launches that kernel instead of ours.
TUTORIAL = False
PROGRAMS = 4 if SMALL else 132  # the H100's and H200's SM count
# The torch.matmul reference rows (not compared with Triton) left out: under tilescope-cli the built-in
# torch's matmul is not cuBLAS (2026-11-26: 4.9 s per 4x1024^3 call, which ran the case out of time).
NO_TORCH_ROWS = os.environ.get('TILESCOPE_BENCH_NO_TORCH_ROWS') == '1'



@triton.jit
def grouped_gemm_desc(a_addrs, bt_addrs, c_addrs, dims, pitches, count, PROGRAMS: tl.constexpr,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    first = 0
    for g in range(count):
        m = tl.load(dims + g * 3)
        n = tl.load(dims + g * 3 + 1)
        k = tl.load(dims + g * 3 + 2)
        tiles_n = tl.cdiv(n, BN)
        tiles = tl.cdiv(m, BM) * tiles_n
        if tile >= first and tile < first + tiles:
            a = tl.make_tensor_descriptor(tl.load(a_addrs + g).to(tl.pointer_type(tl.float16)), shape=[m, k],
                                          strides=[tl.load(pitches + g * 3), 1], block_shape=[BM, BK])
            bt = tl.make_tensor_descriptor(tl.load(bt_addrs + g).to(tl.pointer_type(tl.float16)), shape=[n, k],
                                           strides=[tl.load(pitches + g * 3 + 1), 1], block_shape=[BN, BK])
            c = tl.make_tensor_descriptor(tl.load(c_addrs + g).to(tl.pointer_type(tl.float16)), shape=[m, n],
                                          strides=[tl.load(pitches + g * 3 + 2), 1], block_shape=[BM, BN])
            while tile >= first and tile < first + tiles:
                row = (tile - first) // tiles_n * BM
                col = (tile - first) % tiles_n * BN
                acc = tl.zeros((BM, BN), dtype=tl.float32)
                for kk in range(0, tl.cdiv(k, BK)):
                    acc += tl.dot(a.load([row, kk * BK]), bt.load([col, kk * BK]).T)
                c.store([row, col], acc.to(tl.float16))
                tile += PROGRAMS
        first = first + tiles


def scratch(size, alignment, stream):
    return torch.empty(size, device='cuda', dtype=torch.int8)


triton.set_allocator(scratch)


def problems(sides):
    A = [torch.randn((s, s), device='cuda', dtype=torch.float16) for s in sides]
    B = [torch.randn((s, s), device='cuda', dtype=torch.float16) for s in sides]
    BT = [b.t().contiguous() for b in B]
    C = [torch.empty((s, s), device='cuda', dtype=torch.float16) for s in sides]
    tables = [torch.tensor([t.data_ptr() for t in ts], device='cuda') for ts in [A, BT, C]]
    dims = torch.tensor([v for s in sides for v in (s, s, s)], device='cuda', dtype=torch.int32)
    pitches = torch.tensor([v for a, bt, c in zip(A, BT, C) for v in (a.stride(0), bt.stride(0), c.stride(0))],
                           device='cuda', dtype=torch.int32)
    return A, B, BT, C, tables, dims, pitches


def written(out):
    """Every element written (the outputs start as NaN)."""
    return not bool(torch.isnan(out).any())


def sample_close(a, b, out, n=64):
    """out matches a @ b on n random rows x n random columns: a full product on the CPU (the built-in
    torch under tilescope-cli sums in the simulator's order) took minutes at 4096^3."""
    rows = torch.randint(0, a.shape[0], (n,), device='cuda')
    cols = torch.randint(0, b.shape[1], (n,), device='cuda')
    ref = torch.matmul(a[rows].float(), b[:, cols].float())
    return bool(torch.allclose(out[rows][:, cols].float(), ref, atol=0.25, rtol=1e-2))


def launch(tables, dims, pitches, count, bn, warps, stages):
    if TUTORIAL:
        grouped_matmul_tma_kernel[(PROGRAMS,)](tables[0], tables[1], tables[2], dims, pitches, count, NUM_SM=PROGRAMS,
                                               BLOCK_SIZE_M=128, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=64, FP8=False,
                                               num_warps=warps, num_stages=stages)
        return
    grouped_gemm_desc[(PROGRAMS,)](tables[0], tables[1], tables[2], dims, pitches, count, PROGRAMS=PROGRAMS,
                                   BM=128, BN=bn, BK=64, num_warps=warps, num_stages=stages)


for side in ([64, 128] if SMALL else [1024, 2048, 4096]):
    sides = [side] * 4
    A, B, BT, C, tables, dims, pitches = problems(sides)  # BT stays alive: the kernel reads it
    flops = sum(2.0 * s * s * s for s in sides)
    for bn, warps, stages in ([(128, 4, 3)] if SMALL else [(128, 8, 3), (256, 8, 3)]):
        for out in C:  # (a module-level `c` would shadow the kernel's local c in Triton's code generator)
            out.fill_(float('nan'))
        launch(tables, dims, pitches, len(sides), bn, warps, stages)
        correct = all(written(out) and sample_close(x, y, out) for x, y, out in zip(A, B, C))
        ms = triton.testing.do_bench(lambda: launch(tables, dims, pitches, len(sides), bn, warps, stages), quantiles=[0.5])
        what = "tutorial's TMA grouped GEMM kernel" if TUTORIAL else 'grouped GEMM via tensor descriptors'
        print(f"RESULT\t{what} 4x{side}^3 fp16, 128x{bn}x64, {warps} warps, {stages} stages\t"
              f"{ms:.4f}\t{flops / ms * 1e-9:.1f}\tTFLOP/s\t{'ok' if correct else 'WRONG'}")
    if NO_TORCH_ROWS:
        continue
    ms = triton.testing.do_bench(lambda: [torch.matmul(a, b) for a, b in zip(A, B)], quantiles=[0.5])
    print(f"RESULT\ttorch.matmul per problem (cuBLAS) 4x{side}^3 fp16\t{ms:.4f}\t{flops / ms * 1e-9:.1f}\tTFLOP/s\tok")
