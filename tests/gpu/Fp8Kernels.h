#pragma once
// Kernels over fp8 tiles shared by the GPU backend's fp8 tests: CudaFp8Test.cpp compiles them without
// a GPU, GpuRunFp8Test.cpp runs them on one against the simulator.
namespace tilescope::test {

// Every conversion to and from fp8 a kernel writes: fp32 -> e4m3 / e5m2 (nearest even and toward
// zero), fp16 -> e4m3, fp8 loads widened to fp32, e4m3 -> e5m2, and fp8 arithmetic (e5m2 + e5m2
// rounds to e5m2).
inline constexpr const char* kFp8ConvertSource = R"PY(
import triton
import triton.language as tl

@triton.jit
def fp8_convert(src, e4, e5, e4_rz, e5_rz, e4_from_half, back4, back5, e5_from_e4, e5_sum, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(src + offs)
    tl.store(e4 + offs, x.to(tl.float8e4nv))
    tl.store(e5 + offs, x.to(tl.float8e5))
    tl.store(e4_rz + offs, x.to(tl.float8e4nv, fp_downcast_rounding="rtz"))
    tl.store(e5_rz + offs, x.to(tl.float8e5, fp_downcast_rounding="rtz"))
    tl.store(e4_from_half + offs, x.to(tl.float16).to(tl.float8e4nv))
    a = tl.load(e4 + offs)
    b = tl.load(e5 + offs)
    tl.store(back4 + offs, a.to(tl.float32))
    tl.store(back5 + offs, b.to(tl.float32))
    tl.store(e5_from_e4 + offs, a.to(tl.float8e5))
    tl.store(e5_sum + offs, b + b)
)PY";

// The matrix-multiplication tutorial's loop on fp8 operands: masked loads along K, tl.dot into an
// fp32 accumulator, the result stored as fp32.
inline constexpr const char* kFp8MatmulSource = R"PY(
import triton
import triton.language as tl

@triton.jit
def fp8_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + (rm[:, None] % M) * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + (rn[None, :] % N) * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
)PY";

}  // namespace tilescope::test
