#include "core/ir/FmaChainGemm.h"

#include <algorithm>
#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TILESCOPE_FMA_CHAIN_AVX2 1
#else
#define TILESCOPE_FMA_CHAIN_AVX2 0
#endif

namespace tilescope::sim {

namespace {

// Rows [i0, i1) x columns [j0, j1) over k steps [k0, k1), one element at a time.
void scalarBlock(const float* a, const float* b, float* c, int64_t k, int64_t n, int64_t i0, int64_t i1, int64_t j0,
                 int64_t j1, int64_t k0, int64_t k1) {
  for (int64_t i = i0; i < i1; ++i) {
    float* crow = c + i * n;
    for (int64_t kk = k0; kk < k1; ++kk) {
      const float aik = a[i * k + kk];
      const float* brow = b + kk * n;
      for (int64_t j = j0; j < j1; ++j) crow[j] = std::fmaf(aik, brow[j], crow[j]);
    }
  }
}

#if TILESCOPE_FMA_CHAIN_AVX2
// Micro-kernel: R rows x 16 columns kept in 2R registers across the k steps [k0, k1).
template <int R>
[[gnu::target("avx2,fma")]] inline void block16(const float* a, const float* b, float* c, int64_t k, int64_t n,
                                                 int64_t i0, int64_t j0, int64_t k0, int64_t k1) {
  __m256 acc[R][2];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    acc[r][0] = _mm256_loadu_ps(c + (i0 + r) * n + j0);
    acc[r][1] = _mm256_loadu_ps(c + (i0 + r) * n + j0 + 8);
  }
  for (int64_t kk = k0; kk < k1; ++kk) {
    const __m256 b0 = _mm256_loadu_ps(b + kk * n + j0);
    const __m256 b1 = _mm256_loadu_ps(b + kk * n + j0 + 8);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m256 x = _mm256_broadcast_ss(a + (i0 + r) * k + kk);
      acc[r][0] = _mm256_fmadd_ps(x, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(x, b1, acc[r][1]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    _mm256_storeu_ps(c + (i0 + r) * n + j0, acc[r][0]);
    _mm256_storeu_ps(c + (i0 + r) * n + j0 + 8, acc[r][1]);
  }
}

// One row x 8 columns.
[[gnu::target("avx2,fma")]] inline void block8(const float* a, const float* b, float* c, int64_t k, int64_t n,
                                                int64_t i, int64_t j0, int64_t k0, int64_t k1) {
  __m256 acc = _mm256_loadu_ps(c + i * n + j0);
  for (int64_t kk = k0; kk < k1; ++kk)
    acc = _mm256_fmadd_ps(_mm256_broadcast_ss(a + i * k + kk), _mm256_loadu_ps(b + kk * n + j0), acc);
  _mm256_storeu_ps(c + i * n + j0, acc);
}

// The scalar tail with the hardware's fused multiply-add (the same bits as std::fmaf).
[[gnu::target("avx2,fma")]] void scalarBlockFma(const float* a, const float* b, float* c, int64_t k, int64_t n,
                                                 int64_t i0, int64_t i1, int64_t j0, int64_t j1, int64_t k0, int64_t k1) {
  for (int64_t i = i0; i < i1; ++i)
    for (int64_t j = j0; j < j1; ++j) {
      __m128 acc = _mm_set_ss(c[i * n + j]);
      for (int64_t kk = k0; kk < k1; ++kk) acc = _mm_fmadd_ss(_mm_set_ss(a[i * k + kk]), _mm_set_ss(b[kk * n + j]), acc);
      c[i * n + j] = _mm_cvtss_f32(acc);
    }
}

[[gnu::target("avx2,fma")]] void gemmAvx2(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  // Blocks of columns and k steps keep the part of B in use in the caches for large products
  // (torch.matmul); tiles of a kernel are one block.
  constexpr int64_t kColumnBlock = 256, kStepBlock = 256;
  constexpr int R = 4;
  for (int64_t jc = 0; jc < n; jc += kColumnBlock) {
    const int64_t jEnd = std::min(n, jc + kColumnBlock);
    for (int64_t kc = 0; kc < k; kc += kStepBlock) {
      const int64_t kEnd = std::min(k, kc + kStepBlock);
      int64_t i = 0;
      for (; i + R <= m; i += R) {
        int64_t j = jc;
        for (; j + 16 <= jEnd; j += 16) block16<R>(a, b, c, k, n, i, j, kc, kEnd);
        for (int64_t r = 0; r < R; ++r) {
          int64_t jj = j;
          for (; jj + 8 <= jEnd; jj += 8) block8(a, b, c, k, n, i + r, jj, kc, kEnd);
          scalarBlockFma(a, b, c, k, n, i + r, i + r + 1, jj, jEnd, kc, kEnd);
        }
      }
      for (; i < m; ++i) {
        int64_t j = jc;
        for (; j + 16 <= jEnd; j += 16) block16<1>(a, b, c, k, n, i, j, kc, kEnd);
        for (; j + 8 <= jEnd; j += 8) block8(a, b, c, k, n, i, j, kc, kEnd);
        scalarBlockFma(a, b, c, k, n, i, i + 1, j, jEnd, kc, kEnd);
      }
    }
  }
}

bool cpuHasAvx2Fma() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return has;
}
#endif

}  // namespace

bool fmaChainGemmVectorised() {
#if TILESCOPE_FMA_CHAIN_AVX2
  return cpuHasAvx2Fma();
#else
  return false;
#endif
}

void fmaChainGemm(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  if (m <= 0 || n <= 0 || k <= 0) return;
#if TILESCOPE_FMA_CHAIN_AVX2
  if (cpuHasAvx2Fma()) {
    gemmAvx2(a, b, c, m, k, n);
    return;
  }
#endif
  scalarBlock(a, b, c, k, n, 0, m, 0, n, 0, k);
}

void fmaChainGemmReference(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = c[i * n + j];
      for (int64_t kk = 0; kk < k; ++kk) acc = std::fmaf(a[i * k + kk], b[kk * n + j], acc);
      c[i * n + j] = acc;
    }
}

}  // namespace tilescope::sim
