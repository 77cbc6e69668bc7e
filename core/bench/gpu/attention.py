# Fused attention forward, O = softmax(Q K^T * scale) V, one program per (128-row block of queries,
# batch x head), streaming K and V in 64-row blocks with the online softmax (running row max and
# row sum in fp32): fp16 and bf16, and a causal fp16 variant that stops at the diagonal block.
# Batch 4, 16 heads, 4096 tokens, head dim 64, 8 warps. Checked against torch at 256 tokens.
# Plain Triton host code that prints RESULT lines; core/bench/compare_with_triton.py runs it under
# Python + Triton and under tilescope's GPU backend. TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import math
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def attention_forward(q_base, k_base, v_base, o_base, seq_len, scale,
                      s_head, s_row,
                      BM: tl.constexpr, BN: tl.constexpr, DIM: tl.constexpr, CAUSAL: tl.constexpr):
    block = tl.program_id(0)
    head = tl.program_id(1)
    rows = block * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    feat = tl.arange(0, DIM)
    q = tl.load(q_base + head * s_head + rows[:, None] * s_row + feat[None, :])
    row_max = tl.full([BM], -float('inf'), tl.float32)
    row_sum = tl.zeros([BM], dtype=tl.float32)
    out = tl.zeros([BM, DIM], dtype=tl.float32)
    qk_scale = scale * 1.4426950408889634  # exp(x) = exp2(x * log2(e))
    stop = (block + 1) * BM if CAUSAL else seq_len
    for start in range(0, stop, BN):
        keys = start + cols
        k = tl.load(k_base + head * s_head + keys[:, None] * s_row + feat[None, :])
        scores = tl.dot(q, tl.trans(k)) * qk_scale
        if CAUSAL:
            scores = tl.where(rows[:, None] >= keys[None, :], scores, -float('inf'))
        new_max = tl.maximum(row_max, tl.max(scores, axis=1))
        p = tl.exp2(scores - new_max[:, None])
        correction = tl.exp2(row_max - new_max)
        row_sum = row_sum * correction + tl.sum(p, axis=1)
        v = tl.load(v_base + head * s_head + keys[:, None] * s_row + feat[None, :])
        out = out * correction[:, None] + tl.dot(p.to(v.dtype), v)
        row_max = new_max
    out = out / row_sum[:, None]
    tl.store(o_base + head * s_head + rows[:, None] * s_row + feat[None, :], out.to(o_base.dtype.element_ty))


def attention(q, k, v, causal):
    batch, heads, seq, dim = q.shape
    o = torch.empty_like(q)
    grid = (seq // 128, batch * heads)
    attention_forward[grid](q, k, v, o, seq, 1.0 / math.sqrt(dim), q.stride(1), q.stride(2),
                            BM=128, BN=64, DIM=dim, CAUSAL=causal, num_warps=8, num_stages=3)
    return o


def reference(q, k, v, causal):
    batch, heads, seq, dim = q.shape
    qf = q.float().reshape(batch * heads, seq, dim)
    kf = k.float().reshape(batch * heads, seq, dim)
    vf = v.float().reshape(batch * heads, seq, dim)
    s = torch.matmul(qf, kf.transpose(1, 2).contiguous()) / math.sqrt(dim)
    if causal:
        keep = torch.tril(torch.ones((seq, seq), device=q.device)) > 0
        s = torch.where(keep, s, torch.full_like(s, -float('inf')))
    return torch.matmul(torch.softmax(s, dim=-1), vf).reshape(batch, heads, seq, dim)


B, H, N, D = (1, 2, 128, 64) if SMALL else (4, 16, 4096, 64)
CHECK_N = 128 if SMALL else 256
for label, dtype, causal in [('fp16', torch.float16, False), ('bf16', torch.bfloat16, False),
                             ('fp16 causal', torch.float16, True)]:
    cq, ck, cv = [torch.randn((1, 2, CHECK_N, D), device="cuda", dtype=dtype) for _ in range(3)]
    got = attention(cq, ck, cv, causal).float()
    correct = torch.allclose(got, reference(cq, ck, cv, causal), atol=2e-2, rtol=2e-2)
    q, k, v = [torch.randn((B, H, N, D), device="cuda", dtype=dtype) for _ in range(3)]
    ms = triton.testing.do_bench(lambda: attention(q, k, v, causal), quantiles=[0.5])
    flops = 4.0 * B * H * N * N * D * (0.5 if causal else 1.0)
    print(f"RESULT\tattention fwd {label} {B}x{H}x{N}x{D}\t{ms:.4f}\t{flops / ms * 1e-9:.1f}\tTFLOP/s\t"
          f"{'ok' if correct else 'WRONG'}")
