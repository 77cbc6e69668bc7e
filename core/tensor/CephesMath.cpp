#include "core/tensor/CephesMath.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

namespace tilescope::host {

namespace {

// The vector code initialises its float constants from double literals; static_cast reproduces that
// rounding exactly (a float literal could round differently in rare double-rounding cases).
constexpr float f(double v) { return static_cast<float>(v); }

constexpr float kSqrtHalf = f(0.707106781186547524);
constexpr float kLogP[9] = {f(7.0376836292E-2),  f(-1.1514610310E-1), f(1.1676998740E-1),
                            f(-1.2420140846E-1), f(+1.4249322787E-1), f(-1.6668057665E-1),
                            f(+2.0000714765E-1), f(-2.4999993993E-1), f(+3.3333331174E-1)};
constexpr float kLogQ1 = f(-2.12194440e-4);
constexpr float kLogQ2 = f(0.693359375);

constexpr float kMinusDP1 = f(-0.78515625);
constexpr float kMinusDP2 = f(-2.4187564849853515625e-4);
constexpr float kMinusDP3 = f(-3.77489497744594108e-8);
constexpr float kSinP[3] = {f(-1.9515295891E-4), f(8.3321608736E-3), f(-1.6666654611E-1)};
constexpr float kCosP[3] = {f(2.443315711809948E-005), f(-1.388731625493765E-003), f(4.166664568298827E-002)};
constexpr float kFourOverPi = f(1.27323954473516);

// Volatile-free way to force float rounding of each step: every intermediate is a named float.
inline float mul(float a, float b) { return a * b; }
inline float add(float a, float b) { return a + b; }
inline float sub(float a, float b) { return a - b; }

// _mm256_cvttps_epi32: truncation, 0x80000000 for NaN or out of range.
int32_t truncateToInt(float v) {
  if (!(v >= -2147483648.0f && v < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

}  // namespace

float cephesLogf(float xIn) {
  if (!(xIn > 0.0f)) return std::numeric_limits<float>::quiet_NaN();
  // Denormals are clamped to the smallest normal, as the vector code does.
  float x = std::max(xIn, std::bit_cast<float>(uint32_t{0x00800000}));
  uint32_t bits = std::bit_cast<uint32_t>(x);
  const int32_t exponentField = static_cast<int32_t>(bits >> 23);
  // Keep the mantissa, force the exponent of 0.5: x in [0.5, 1).
  bits = (bits & ~uint32_t{0x7f800000}) | std::bit_cast<uint32_t>(0.5f);
  x = std::bit_cast<float>(bits);
  float e = add(static_cast<float>(exponentField - 0x7f), 1.0f);

  const bool small = x < kSqrtHalf;
  const float tmp = small ? x : 0.0f;
  x = sub(x, 1.0f);
  e = sub(e, small ? 1.0f : 0.0f);
  x = add(x, tmp);

  const float z = mul(x, x);
  float y = kLogP[0];
  for (int i = 1; i < 9; ++i) y = add(mul(y, x), kLogP[i]);
  y = mul(y, x);
  y = mul(y, z);
  y = add(y, mul(e, kLogQ1));
  y = sub(y, mul(z, 0.5f));
  x = add(x, y);
  x = add(x, mul(e, kLogQ2));
  return x;
}

void cephesSincosf(float xIn, float& sinOut, float& cosOut) {
  const uint32_t inBits = std::bit_cast<uint32_t>(xIn);
  uint32_t signSin = inBits & 0x80000000u;
  float x = std::bit_cast<float>(inBits & 0x7fffffffu);

  // Octant j (made even), reduce x by j * pi/4 in three extra-precision steps.
  float y = mul(x, kFourOverPi);
  int32_t j = truncateToInt(y);
  j = (j + 1) & ~1;
  y = static_cast<float>(j);
  const uint32_t swapSignSin = static_cast<uint32_t>(j & 4) << 29;
  const bool cosPolyForCos = (j & 2) == 0;  // selects which polynomial feeds which output
  const float r1 = mul(y, kMinusDP1);
  const float r2 = mul(y, kMinusDP2);
  const float r3 = mul(y, kMinusDP3);
  x = add(x, r1);
  x = add(x, r2);
  x = add(x, r3);
  const uint32_t signCos = static_cast<uint32_t>(~(j - 2) & 4) << 29;
  signSin ^= swapSignSin;

  const float z = mul(x, x);
  float yc = mul(kCosP[0], z);
  yc = add(yc, kCosP[1]);
  yc = mul(yc, z);
  yc = add(yc, kCosP[2]);
  yc = mul(yc, z);
  yc = mul(yc, z);
  yc = sub(yc, mul(z, 0.5f));
  yc = add(yc, 1.0f);

  float ys = mul(kSinP[0], z);
  ys = add(ys, kSinP[1]);
  ys = mul(ys, z);
  ys = add(ys, kSinP[2]);
  ys = mul(ys, z);
  ys = mul(ys, x);
  ys = add(ys, x);

  // The vector code selects with masks and adds zeros; replicate the adds for signed-zero fidelity.
  const float sinFromSinPoly = cosPolyForCos ? ys : 0.0f;
  const float sinFromCosPoly = cosPolyForCos ? 0.0f : yc;
  ys = sub(ys, sinFromSinPoly);
  yc = sub(yc, sinFromCosPoly);
  const float s = add(sinFromCosPoly, sinFromSinPoly);
  const float c = add(yc, ys);
  sinOut = std::bit_cast<float>(std::bit_cast<uint32_t>(s) ^ signSin);
  cosOut = std::bit_cast<float>(std::bit_cast<uint32_t>(c) ^ signCos);
}

}  // namespace tilescope::host
