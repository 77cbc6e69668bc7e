// Runs an emulated pipelined wgmma K loop of WgmmaSwizzleTest (kernel_body.inc, ts_mm or, with
// TRANS, ts_mm_nt of a B stored N x K): C = A @ B for M = N = 2 tiles of BM x BN, K = 76 (a partial
// last K step: its masked columns and rows are NaN in memory, so a masked element read shows), A's
// rows padded to 80 elements (16-byte aligned, so whole chunks take cp.async). CONV / BACK convert
// to and from the 16-bit element. Prints "status S, max abs error E" against a float64 product of
// the same 16-bit values.
#ifndef KDIM
#define KDIM 76  // K; 64 for a kernel that loads B unmasked (whole K steps)
#endif
#ifndef NT_FN
#define NT_FN ts_mm_nt  // the kernel reading B stored N x K (mm_nt, or mm_wt: x @ W^T)
#endif
#include "WarpEmulation.h"
#include <algorithm>
#include <random>
#define __shared__ static
#define __builtin_assume(x) ((void)0)
TS_DEV void ts_cp_async16_if(void* dst, const void* src, bool c) {
  if (c) memcpy(dst, src, 16);
}
struct float2 { float x, y; };
struct float4 { float x, y, z, w; };
static inline float2 make_float2(float x, float y) { return {x, y}; }
template <class T, class U> TS_DEV T ts_sdiv(T a, T b) { return b == 0 ? (T)-1 : (T)(a / b); }
#include "kernel_body.inc"

int main() {
  const int M = 2 * BM, N = 2 * BN, K = KDIM, KP = 80, KR = 96;  // KR: rows of B allocated (the last step's)
  std::mt19937 rng(11);
  std::normal_distribution<float> nd;
  const ts_u16 nan16 = 0x7fff;
  std::vector<ts_u16> a(M * KP + KR, nan16), b(KR * N + N * KP, nan16);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) a[m * KP + k] = CONV(nd(rng));
  // B as K x N (row k at k * N), or with TRANS as N x K (row n at n * KP).
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) (TRANS ? b[n * KP + k] : b[k * N + n]) = CONV(nd(rng));
  std::vector<float> c(M * N, NAN);
  ts_u32 status = 0;
  emulateGrid(M / BM, N / BN, 32 * WARPS, [&] {
#if TRANS
    NT_FN(a.data(), b.data(), c.data(), M, N, K, KP, KP, N, &status);
#else
    ts_mm(a.data(), b.data(), c.data(), M, N, K, KP, N, N, &status);
#endif
  });
  double worst = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double want = 0;
      for (int k = 0; k < K; ++k) want += (double)BACK(a[m * KP + k]) * BACK(TRANS ? b[n * KP + k] : b[k * N + n]);
      const double err = std::fabs(c[m * N + n] - want);
      worst = std::isnan(err) ? 1e9 : std::max(worst, err);
    }
  printf("status %u, max abs error %.7f\n", status, worst);
  return 0;
}
