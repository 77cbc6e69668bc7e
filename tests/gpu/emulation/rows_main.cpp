// Runs the emulated kernels of CudaMemoryBoundRowsTest (kernel_body.inc): row sums of [8, 2048] fp32
// tiles over 4 warps (regrouped through shared memory), a 64x64 fp16 transpose over 4 warps
// (swizzled 16-bit chunks), fp16 softmax rows of 4096 over 8 warps (proven loads, exp2f, the
// exchange's immediate offsets, ts_div_by), against CPU references: the row sums bit for bit
// against the simulator's pairwise tree, the transpose exactly, the softmax within fp16 rounding of
// a float64 one, layer-norm rows (fp32, fp16: masked loads with `other`) within their rounding.
// Prints "sums W, transpose W, softmax E, layer norm fp32 E, layer norm fp16 E" (W: wrong elements,
// E: largest absolute error).
#include "WarpEmulation.h"
#include <algorithm>
#include <random>
#define __shared__ static
#define __builtin_assume(x) ((void)0)
struct uint4 { unsigned x, y, z, w; };
static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
static inline double __longlong_as_double(long long x) { double d; memcpy(&d, &x, 8); return d; }
TS_DEV float ts_rh_d(double x) { return ts_h2f(ts_f2h((float)x)); }  // the constants used here are exact in fp16
TS_DEV int ts_pad(int i) { return i + (i >> 5); }
TS_DEV float ts_shfl_xor(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
template <class M, int V> TS_DEV void ts_vld(const M* p, M (&v)[V]) { memcpy(v, p, sizeof(M) * V); }
static inline float __fdividef(float x, float y) { return x / y; }
static inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
TS_DEV float ts_rcp1(float y) {
  const float r = __fdividef(1.0f, y);
  return __fmaf_rn(r, __fmaf_rn(-y, r, 1.0f), r);
}
static inline float ts_div_slow(float x, float y) { return x / y; }
TS_DEV float ts_div_by(float x, float y, float r) {
  const float q0 = __fmaf_rn(x, r, 0.0f);
  const float q = __fmaf_rn(r, __fmaf_rn(-y, q0, x), q0);
  const float ax = std::fabs(x), ay = std::fabs(y);
  return ax > 0x1p-60f && ax < 0x1p60f && ay > 0x1p-60f && ay < 0x1p60f ? q : ts_div_slow(x, y);
}
#include "kernel_body.inc"

int main() {
  std::mt19937 rng(7);
  std::normal_distribution<float> nd;
  ts_u32 status = 0;
  // Row sums: 16 rows in two programs; the simulator's tree x[i] += x[i + half], half = 1024 .. 1.
  const int R = 16, C = 2048;
  std::vector<float> x(R * C), sums(R, -1.0f);
  for (float& v : x) v = nd(rng);
  emulateGrid(2, 1, 128, [&] { ts_row_sums(x.data() + blockIdx.x * 8 * C, sums.data() + blockIdx.x * 8, &status); });
  int wrongSums = 0;
  for (int r = 0; r < R; ++r) {
    std::vector<float> t(x.begin() + r * C, x.begin() + (r + 1) * C);
    for (int half = C / 2; half >= 1; half /= 2)
      for (int i = 0; i < half; ++i) t[i] = t[i] + t[i + half];
    wrongSums += memcmp(&t[0], &sums[r], 4) != 0;
  }
  // Transpose: 128x192 fp16 in 64x64 tiles.
  const int TR = 128, TC = 192;
  std::vector<ts_u16> h(TR * TC), ht(TC * TR, 0x7e00);
  for (ts_u16& v : h) v = ts_f2h(nd(rng));
  emulateGrid(TR / 64, TC / 64, 128, [&] { ts_transpose_tiles(h.data(), ht.data(), TR, TC, TC, TR, &status); });
  int wrongTranspose = 0;
  for (int r = 0; r < TR; ++r)
    for (int c = 0; c < TC; ++c) wrongTranspose += ht[c * TR + r] != h[r * TC + c];
  // Softmax: 3 rows of 4096 fp16.
  const int SR = 3, SC = 4096;
  std::vector<ts_u16> s(SR * SC), so(SR * SC, 0x7e00);
  for (ts_u16& v : s) v = ts_f2h(2.0f * nd(rng));
  emulateGrid(SR, 1, 256, [&] { ts_half_softmax(s.data(), so.data(), SC, SC, &status); });
  double worst = 0;
  for (int r = 0; r < SR; ++r) {
    double m = -1e300, sum = 0;
    for (int c = 0; c < SC; ++c) m = std::max(m, (double)ts_h2f(s[r * SC + c]));
    for (int c = 0; c < SC; ++c) sum += std::exp((double)ts_h2f(s[r * SC + c]) - m);
    for (int c = 0; c < SC; ++c) {
      const double want = std::exp((double)ts_h2f(s[r * SC + c]) - m) / sum;
      const double err = std::fabs(ts_h2f(so[r * SC + c]) - want);
      worst = std::isnan(err) ? 1e9 : std::max(worst, err);
    }
  }
  // Layer norm: 3 rows of 8192 (fp32, then fp16), gain and bias random; out = (x - mean) / std * g + b.
  const int LR = 3, LC = 8192;
  double worstLayerNorm[2] = {0, 0};
  for (int half = 0; half < 2; ++half) {
    std::vector<float> xf(LR * LC), gf(LC), bf(LC), of(LR * LC, NAN), mean(LR), inv(LR);
    std::vector<ts_u16> xh(LR * LC), gh(LC), bh(LC), oh(LR * LC, 0x7e00);
    for (int i = 0; i < LR * LC; ++i) xh[i] = ts_f2h(xf[i] = nd(rng) + 0.5f);
    for (int i = 0; i < LC; ++i) gh[i] = ts_f2h(gf[i] = nd(rng)), bh[i] = ts_f2h(bf[i] = nd(rng));
    if (half) {
      for (int i = 0; i < LR * LC; ++i) xf[i] = ts_h2f(xh[i]);
      for (int i = 0; i < LC; ++i) gf[i] = ts_h2f(gh[i]), bf[i] = ts_h2f(bh[i]);
      emulateGrid(LR, 1, 256, [&] {
        ts_normalise_rows16(xh.data(), oh.data(), gh.data(), bh.data(), mean.data(), inv.data(), LC, LC, 1e-5f, &status);
      });
      for (int i = 0; i < LR * LC; ++i) of[i] = ts_h2f(oh[i]);
    } else {
      emulateGrid(LR, 1, 256, [&] {
        ts_normalise_rows(xf.data(), of.data(), gf.data(), bf.data(), mean.data(), inv.data(), LC, LC, 1e-5f, &status);
      });
    }
    for (int r = 0; r < LR; ++r) {
      double m = 0, v = 0;
      for (int c = 0; c < LC; ++c) m += xf[r * LC + c];
      m /= LC;
      for (int c = 0; c < LC; ++c) v += (xf[r * LC + c] - m) * (xf[r * LC + c] - m);
      const double is = 1 / std::sqrt(v / LC + 1e-5);
      for (int c = 0; c < LC; ++c) {
        const double err = std::fabs(of[r * LC + c] - ((xf[r * LC + c] - m) * is * gf[c] + bf[c]));
        worstLayerNorm[half] = std::isnan(err) ? 1e9 : std::max(worstLayerNorm[half], err);
      }
    }
  }
  printf("status %u, sums %d, transpose %d, softmax %.6f, layer norm fp32 %.6f, layer norm fp16 %.6f\n", status, wrongSums,
         wrongTranspose, worst, worstLayerNorm[0], worstLayerNorm[1]);
  return 0;
}
