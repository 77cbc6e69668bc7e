# Matmuls as users write a linear layer, beside the suite's fp32/fp16 ones: (1) bf16 inputs with a
# bias and an exact (erf) GELU applied before a bf16 store, 128x128x32 tiles, 4 warps, 4 stages;
# (2) fp16 x @ W^T (W stored row-major as (N, K), so B is read along its columns) with leaky ReLU
# into a separate fp16 output, 64x128x32, 4 warps, 4 stages; (3) int8 inputs with int32
# accumulation and int32 output, 128x128x64, 8 warps, 3 stages. Checked against torch (GELU's
# reference is the tanh form, within the bf16 tolerance; the int8 product is exact in fp32 for these
# small integers). Plain Triton host code that prints RESULT lines; core/bench/compare_with_triton.py
# runs it under Python + Triton and under tilescope's GPU backend. TILESCOPE_BENCH_SMALL=1 shrinks it.
import math
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def linear_gelu(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
    x = acc + bias[None, :]
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, y.to(tl.bfloat16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def linear_leaky(x_ptr, w_ptr, out_ptr, M, N, K, stride_xm, stride_xk, stride_wn, stride_wk, stride_om, stride_on,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc += tl.dot(tl.load(x_ptrs), tl.load(w_ptrs))
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk
    acc = tl.where(acc >= 0, acc, 0.01 * acc)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :] * stride_on, acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def int8_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, K, BLOCK_K):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn, acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def report(label, call, flops, correct):
    ms = triton.testing.do_bench(call, quantiles=[0.5])
    print(f"RESULT\t{label}\t{ms:.4f}\t{flops / ms * 1e-9:.1f}\tTFLOP/s\t{'ok' if correct else 'WRONG'}")


S = 128 if SMALL else 4096
a = torch.randn((S, S), device='cuda', dtype=torch.bfloat16)
b = torch.randn((S, S), device='cuda', dtype=torch.bfloat16)
bias = torch.randn((S,), device='cuda', dtype=torch.bfloat16)
c = torch.empty((S, S), device='cuda', dtype=torch.bfloat16)
gelu = lambda: linear_gelu[(triton.cdiv(S, 128), triton.cdiv(S, 128))](
    a, b, bias, c, S, S, S, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
    BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, num_warps=4, num_stages=4)
gelu()
x = torch.matmul(a.float(), b.float()) + bias.float()[None, :]
want = 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))
report(f"linear bf16 {S}^3 +bias, GELU, 128x128x32", gelu, 2.0 * S * S * S,
       torch.allclose(c.float(), want, atol=0.1 * math.sqrt(S / 64), rtol=2e-2))

x16 = torch.randn((S, S), device='cuda', dtype=torch.float16)
w16 = torch.randn((S, S), device='cuda', dtype=torch.float16)  # (N, K), as nn.Linear stores it
o16 = torch.empty((S, S), device='cuda', dtype=torch.float16)
leaky = lambda: linear_leaky[(triton.cdiv(S, 64), triton.cdiv(S, 128))](
    x16, w16, o16, S, S, S, x16.stride(0), x16.stride(1), w16.stride(0), w16.stride(1), o16.stride(0), o16.stride(1),
    BLOCK_M=64, BLOCK_N=128, BLOCK_K=32, num_warps=4, num_stages=4)
leaky()
ref = torch.matmul(x16.float(), w16.float().t())
ref = torch.where(ref >= 0, ref, 0.01 * ref)
report(f"linear fp16 x@W^T {S}^3, leaky ReLU, 64x128x32", leaky, 2.0 * S * S * S,
       torch.allclose(o16.float(), ref, atol=0.05 * math.sqrt(S / 64), rtol=1e-2))

i8a = torch.randint(-8, 8, (S, S), device='cuda', dtype=torch.int8)
i8b = torch.randint(-8, 8, (S, S), device='cuda', dtype=torch.int8)
i32 = torch.empty((S, S), device='cuda', dtype=torch.int32)
imm = lambda: int8_matmul[(triton.cdiv(S, 128), triton.cdiv(S, 128))](
    i8a, i8b, i32, S, S, S, i8a.stride(0), i8a.stride(1), i8b.stride(0), i8b.stride(1), i32.stride(0), i32.stride(1),
    BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)
imm()
exact = torch.matmul(i8a.float(), i8b.float())
report(f"matmul int8 {S}^3 int32 acc, 128x128x64", imm, 2.0 * S * S * S, torch.equal(i32.float(), exact))
