#include "core/sim/Philox.h"

#include <cmath>

namespace tilescope::sim {

namespace {

constexpr uint32_t kRoundA32 = 0xD2511F53u;
constexpr uint32_t kRoundB32 = 0xCD9E8D57u;
constexpr uint32_t kKeyA32 = 0x9E3779B9u;
constexpr uint32_t kKeyB32 = 0xBB67AE85u;
constexpr uint64_t kRoundA64 = 0xD2E7470EE14C6C93ull;
constexpr uint64_t kRoundB64 = 0xCA5A826395121157ull;
constexpr uint64_t kKeyA64 = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kKeyB64 = 0xBB67AE8584CAA73Bull;

uint32_t mulhi32(uint32_t a, uint32_t b) { return static_cast<uint32_t>((uint64_t{a} * b) >> 32); }
uint64_t mulhi64(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}

float f32(double x) { return static_cast<float>(x); }

}  // namespace

std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    const uint32_t c0 = c[0];
    const uint32_t c2 = c[2];
    c[0] = mulhi32(kRoundB32, c2) ^ c[1] ^ k[0];
    c[2] = mulhi32(kRoundA32, c0) ^ c[3] ^ k[1];
    c[1] = kRoundB32 * c2;
    c[3] = kRoundA32 * c0;
    k[0] += kKeyA32;
    k[1] += kKeyB32;
  }
  return c;
}

std::array<uint64_t, 4> philox4x64(std::array<uint64_t, 4> c, std::array<uint64_t, 2> k, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    const uint64_t c0 = c[0];
    const uint64_t c2 = c[2];
    c[0] = mulhi64(kRoundB64, c2) ^ c[1] ^ k[0];
    c[2] = mulhi64(kRoundA64, c0) ^ c[3] ^ k[1];
    c[1] = kRoundB64 * c2;
    c[3] = kRoundA64 * c0;
    k[0] += kKeyA64;
    k[1] += kKeyB64;
  }
  return c;
}

std::array<uint32_t, 4> randint4x32(uint64_t seed, uint32_t offset, int rounds) {
  return philox4x32({offset, 0, 0, 0}, {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}, rounds);
}

std::array<uint64_t, 4> randint4x64(uint64_t seed, uint64_t offset, int rounds) {
  return philox4x64({offset, 0, 0, 0}, {seed, 0}, rounds);
}

float uintToUniformFloat(uint32_t x) {
  int32_t s = static_cast<int32_t>(x);
  if (s < 0) s = -s - 1;  // no overflow: -INT_MIN - 1 is computed as INT_MAX by Triton's wrap too
  // int32 * python float -> fp32: the int is converted to fp32 first, then one fp32 multiply.
  return f32(static_cast<double>(static_cast<float>(s)) * static_cast<double>(4.6566127342e-10f));
}

float uintToUniformFloat(uint64_t x) {
  int64_t s = static_cast<int64_t>(x);
  if (s < 0) s = -(s + 1);
  return f32(static_cast<double>(static_cast<float>(s)) * static_cast<double>(1.0842020432385337e-19f));
}

float pairUniformToNormal(float u1, float u2) {
  u1 = std::fmax(1.0e-7f, u1);
  const float th = f32(6.283185307179586f * static_cast<double>(u2));
  const float lg = f32(std::log(static_cast<double>(u1)));
  const float r = f32(std::sqrt(static_cast<double>(f32(-2.0 * lg))));
  return f32(static_cast<double>(r) * static_cast<double>(f32(std::cos(static_cast<double>(th)))));
}

}  // namespace tilescope::sim
