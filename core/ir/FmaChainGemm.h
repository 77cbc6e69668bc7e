#pragma once
// The fp32 matrix product both the simulator's tl.dot (core/sim/TileDot) and the built-in
// torch.matmul (core/tensor/TensorLinalg) compute, so that a kernel's `acc += tl.dot(a, b)` K loop
// and torch.matmul give the same bits:
//
//   for kk = 0 .. k-1 (in this order): C[i][j] = fma(A[i][kk], B[kk][j], C[i][j])
//
// each step the exact a*b + c rounded once to fp32 (round to nearest even), as the GPU's fp32 FMA
// chain does. The loop runs over output columns with 8-wide FMAs where the CPU has AVX2 and FMA
// (chosen at run time); elsewhere std::fmaf gives the same bits. Blocking changes only the order in
// which elements are visited, never the order of one element's k steps.
#include <cstdint>

namespace tilescope::sim {

// Row-major, contiguous: A is m x k, B is k x n, C is m x n and is accumulated into (set it to zero
// first for a plain product).
void fmaChainGemm(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);

// The same result one element at a time with std::fmaf: the definition the fast path is tested against.
void fmaChainGemmReference(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);

// Whether fmaChainGemm uses the AVX2+FMA kernel on this CPU.
bool fmaChainGemmVectorised();

}  // namespace tilescope::sim
