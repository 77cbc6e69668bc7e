#pragma once
// Philox 4x32 and 4x64 counter-based random numbers, bit-compatible with
// triton/language/random.py: same constants, 10 rounds by default, the key bumped after every
// round, the same uint -> float conversion and the same Box-Muller transform.
//
// How Triton wires the generator (tl.randint4x(seed, offset)):
//   seed is converted to uint64 (sign-extended from signed dtypes);
//   32-bit offsets: counter = (offset as u32, 0, 0, 0), key = (seed & 0xffffffff, seed >> 32);
//   64-bit offsets: counter = (offset as u64, 0, 0, 0), key = (seed, 0) with the 4x64 constants.
// tl.randint returns output 0; tl.rand converts output 0 to fp32 in [0, 1); tl.randn applies
// Box-Muller to outputs 0 and 1 and returns the cosine branch.
//
// Float steps are computed in fp32 exactly as the Triton code does them (each op rounded to fp32);
// log/cos/sqrt are correctly rounded here and approximate on the GPU, so tl.randn may differ from
// the GPU by a few ulp (tl.rand and the integer outputs are exact).
#include <array>
#include <cstdint>

namespace tilescope::sim {

inline constexpr int kPhiloxDefaultRounds = 10;

// The raw generator: n rounds of Philox on counter c with key k.
std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k,
                                   int rounds = kPhiloxDefaultRounds);
std::array<uint64_t, 4> philox4x64(std::array<uint64_t, 4> c, std::array<uint64_t, 2> k,
                                   int rounds = kPhiloxDefaultRounds);

// tl.randint4x for 32-bit offsets (`offset` is the offset's bit pattern) and 64-bit offsets.
// `seed` is the seed after Triton's conversion to uint64.
std::array<uint32_t, 4> randint4x32(uint64_t seed, uint32_t offset, int rounds = kPhiloxDefaultRounds);
std::array<uint64_t, 4> randint4x64(uint64_t seed, uint64_t offset, int rounds = kPhiloxDefaultRounds);

// uint_to_uniform_float: the bits as a signed integer, negatives folded (-x - 1), times
// 4.6566127342e-10 (32-bit) or 1.0842020432385337e-19 (64-bit), all in fp32. Result in [0, 1).
float uintToUniformFloat(uint32_t x);
float uintToUniformFloat(uint64_t x);

// pair_uniform_to_normal(u1, u2)[0]: max(1e-7, u1); r = sqrt(-2 log u1); r * cos(2 pi u2).
float pairUniformToNormal(float u1, float u2);

}  // namespace tilescope::sim
