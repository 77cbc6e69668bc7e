# Loops the assign-layouts pass keeps in tensor-core registers (fused attention's two chained dots,
# row max/sum by quad shuffles, p fed to the second dot from registers, k and v copied ahead with
# cp.async), on the GPU with every launch cross-checked against the simulator by the test
# (TILESCOPE_GPU_CROSSCHECK): fp16 and bf16, causal, 4 and 8 warps, head dims 32, 64 and 128, masked
# tails with run-time strides (the seed tutorial's form), and a result checked against softmax.
import math
import torch
import triton
import triton.language as tl


@triton.jit
def attention_forward(q_base, k_base, v_base, o_base, seq_len, scale, s_head, s_row,
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
    qk_scale = scale * 1.4426950408889634
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


@triton.jit
def masked_attention(Q, K, V, Out, stride_h, stride_m, stride_k, n_ctx,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    q = tl.load(Q + off_h * stride_h + offs_m[:, None] * stride_m + offs_k[None, :] * stride_k,
                mask=offs_m[:, None] < n_ctx, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for start_n in range(0, n_ctx, BLOCK_N):
        keys = start_n + offs_n
        k = tl.load(K + off_h * stride_h + keys[:, None] * stride_m + offs_k[None, :] * stride_k,
                    mask=keys[:, None] < n_ctx, other=0.0)
        v = tl.load(V + off_h * stride_h + keys[:, None] * stride_m + offs_k[None, :] * stride_k,
                    mask=keys[:, None] < n_ctx, other=0.0)
        s = tl.dot(q, tl.trans(k))
        s = tl.where(keys[None, :] < n_ctx, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(Out + off_h * stride_h + offs_m[:, None] * stride_m + offs_k[None, :] * stride_k,
             acc.to(Out.dtype.element_ty), mask=offs_m[:, None] < n_ctx)


def reference(q, k, v, causal, scale):
    s = torch.matmul(q.float(), k.float().transpose(-1, -2).contiguous()) * scale
    if causal:
        n = q.shape[-2]
        s = torch.where(torch.tril(torch.ones((n, n))) > 0, s, torch.full_like(s, -float('inf')))
    return torch.matmul(torch.softmax(s, dim=-1), v.float())


torch.manual_seed(0)
# On sm_90a the 64-column cases run both dots as wgmma (swizzled stages), the others on mma.sync.
for dtype, causal, bm, bn, dim, warps in [(torch.float16, False, 128, 64, 64, 8), (torch.bfloat16, False, 64, 32, 32, 4),
                                          (torch.float16, True, 128, 64, 64, 8), (torch.float16, True, 64, 64, 32, 4),
                                          (torch.bfloat16, True, 128, 64, 64, 8), (torch.float16, False, 64, 64, 128, 4)]:
    heads, seq = 2, 256
    q, k, v = [torch.randn((heads, seq, dim), dtype=dtype) for _ in range(3)]
    o = torch.empty_like(q)
    attention_forward[(seq // bm, heads)](q, k, v, o, seq, 1.0 / math.sqrt(dim), q.stride(0), q.stride(1),
                                          BM=bm, BN=bn, DIM=dim, CAUSAL=causal, num_warps=warps)
    err = (o.float() - reference(q, k, v, causal, 1.0 / math.sqrt(dim))).abs().max().item()
    assert err < 5e-2, (dtype, causal, bm, bn, dim, warps, err)

for n_ctx in [40, 64]:
    q, k, v = [torch.randn((2, n_ctx, 64), dtype=torch.float16) for _ in range(3)]
    o = torch.empty_like(q)
    masked_attention[(triton.cdiv(n_ctx, 64), 2)](q, k, v, o, q.stride(0), q.stride(1), q.stride(2), n_ctx,
                                                  BLOCK_M=64, BLOCK_N=32, BLOCK_K=64, num_warps=4)
    err = (o.float() - reference(q, k, v, False, 1.0)).abs().max().item()
    assert err < 5e-2, (n_ctx, err)
print("register loop ok")
