#pragma once
// Internal: single-precision log and sincos evaluated exactly as torch's AVX2 normal-distribution kernel
// does (the Cephes polynomials of Pommier's sse_mathfun / avx_mathfun, one lane at a time, every
// operation rounded to float in the same order). randn on float32 needs these to reproduce torch's
// values to the last bit; the C library's logf/sinf/cosf differ by an ulp now and then.
//
// Both are built without FMA contraction (baseline x86-64 has no FMA, and CephesMath.cpp is compiled
// with -ffp-contract=off semantics by construction: every product is stored to a float first).
namespace tilescope::host {

// Natural log for x > 0 (returns NaN for x <= 0).
float cephesLogf(float x);
// sin and cos of x (accurate for |x| < 8192, which covers Box-Muller's [0, 2*pi)).
void cephesSincosf(float x, float& sinOut, float& cosOut);

}  // namespace tilescope::host
