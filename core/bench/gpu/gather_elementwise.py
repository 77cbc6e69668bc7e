# Memory-bound kernels beside the suite's vector add and dropout: (1) an embedding lookup, 65536
# int64 token ids loaded and their 1024-wide fp16 rows of a 32000-row table gathered, 8 tokens per
# program, 4 warps; (2) SwiGLU, silu(gate) * up on bf16 (2^26 elements), 1024 per program, 4 warps;
# (3) a 2-D add of a 5000x3000 fp32 matrix and the transpose view of another (strides passed, both
# edges masked: neither size a power of two), 32x64 tiles, 4 warps; (4) fp32 to int8 quantisation
# (scale, round half away from zero, tl.clamp to [-128, 127]) of 2^26 values, 2048 per program,
# 8 warps. Checked against torch. Plain Triton host code that prints RESULT lines;
# core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope's GPU backend.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def embedding(ids_ptr, table_ptr, out_ptr, n_ids, dim, stride_table, stride_out,
              TOKENS: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0) * TOKENS + tl.arange(0, TOKENS)
    ids = tl.load(ids_ptr + tok, mask=tok < n_ids, other=0)
    d = tl.arange(0, BLOCK_D)
    mask = (tok[:, None] < n_ids) & (d[None, :] < dim)
    rows = tl.load(table_ptr + ids[:, None] * stride_table + d[None, :], mask=mask)
    tl.store(out_ptr + tok[:, None] * stride_out + d[None, :], rows, mask=mask)


@triton.jit
def swiglu(gate_ptr, up_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    g = tl.load(gate_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(up_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    out = g * tl.sigmoid(g) * u
    tl.store(out_ptr + offs, out.to(tl.bfloat16), mask=mask)


@triton.jit
def add_2d(x_ptr, y_ptr, z_ptr, M, N, sxm, sxn, sym, syn, szm, szn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + offs_m[:, None] * sxm + offs_n[None, :] * sxn, mask=mask)
    y = tl.load(y_ptr + offs_m[:, None] * sym + offs_n[None, :] * syn, mask=mask)
    tl.store(z_ptr + offs_m[:, None] * szm + offs_n[None, :] * szn, x + y, mask=mask)


@triton.jit
def quantize_int8(x_ptr, q_ptr, n, inv_scale, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0) * inv_scale
    r = tl.where(x >= 0, tl.floor(x + 0.5), -tl.floor(-x + 0.5))
    tl.store(q_ptr + offs, tl.clamp(r, -128.0, 127.0).to(tl.int8), mask=mask)


def report(label, call, moved, correct):
    ms = triton.testing.do_bench(call, quantiles=[0.5])
    print(f"RESULT\t{label}\t{ms:.4f}\t{moved / ms * 1e-6:.1f}\tGB/s\t{'ok' if correct else 'WRONG'}")


V, D, T = (100, 96, 40) if SMALL else (32000, 1024, 65536)
table = torch.randn((V, D), device='cuda', dtype=torch.float16)
ids = torch.randint(0, V, (T,), device='cuda', dtype=torch.int64)
emb = torch.empty((T, D), device='cuda', dtype=torch.float16)
look = lambda: embedding[(triton.cdiv(T, 8),)](ids, table, emb, T, D, table.stride(0), emb.stride(0), TOKENS=8,
                                               BLOCK_D=triton.next_power_of_2(D), num_warps=4)
look()
report(f"embedding gather {T} ids x {D} fp16", look, 2 * T * D * 2 + T * 8, torch.equal(emb, table[ids]))

N = 5000 if SMALL else 1 << 26
gate = torch.randn((N,), device='cuda', dtype=torch.bfloat16)
up = torch.randn((N,), device='cuda', dtype=torch.bfloat16)
act = torch.empty_like(gate)
sw = lambda: swiglu[(triton.cdiv(N, 1024),)](gate, up, act, N, BLOCK_SIZE=1024, num_warps=4)
sw()
gf = gate.float()
report(f"SwiGLU silu(g)*u {N} bf16", sw, 3 * N * 2,
       torch.allclose(act.float(), gf * torch.sigmoid(gf) * up.float(), atol=1e-2, rtol=1e-2))

M, N = (50, 70) if SMALL else (5000, 3000)
x = torch.randn((M, N), device='cuda', dtype=torch.float32)
yt = torch.randn((N, M), device='cuda', dtype=torch.float32).t()  # (M, N) view, column-major
z = torch.empty((M, N), device='cuda', dtype=torch.float32)
add = lambda: add_2d[(triton.cdiv(M, 32), triton.cdiv(N, 64))](x, yt, z, M, N, x.stride(0), x.stride(1), yt.stride(0),
                                                               yt.stride(1), z.stride(0), z.stride(1), BLOCK_M=32,
                                                               BLOCK_N=64, num_warps=4)
add()
report(f"2-D add, one operand transposed {M}x{N} fp32", add, 3 * M * N * 4, torch.equal(z, x + yt))

N = 5000 if SMALL else 1 << 26
v = torch.randn((N,), device='cuda', dtype=torch.float32) * 50.0
q = torch.empty((N,), device='cuda', dtype=torch.int8)
qz = lambda: quantize_int8[(triton.cdiv(N, 2048),)](v, q, N, 1.0 / 0.5, BLOCK_SIZE=2048, num_warps=8)
qz()
s = v * 2.0
want = torch.clamp(torch.where(s >= 0, torch.floor(s + 0.5), -torch.floor(-s + 0.5)), -128.0, 127.0)
report(f"quantise fp32 to int8 with clamp {N}", qz, N * 5, torch.equal(q.float(), want))
