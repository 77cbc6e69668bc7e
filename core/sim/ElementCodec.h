#pragma once
// One element of a dtype in memory (little-endian, the dtype's own width) <-> the compute
// representation of Tile.h (double for floats, int64 for integers). Memory accesses interpret the
// bytes with the *pointer's* element type, so a pointer cast (bitcast of pointers) reads the same
// bytes differently, as on the GPU.
#include <bit>
#include <cstdint>
#include <cstring>

#include "core/ir/DType.h"
#include "core/ir/Numerics.h"

namespace tilescope::sim {

static_assert(std::endian::native == std::endian::little, "the simulator's memory layout assumes a little-endian host");

template <class T>
inline T readRaw(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline double decodeFloat(ir::DType t, const uint8_t* p) {
  switch (t) {
    case ir::DType::FP32: return static_cast<double>(readRaw<float>(p));
    case ir::DType::FP64: return readRaw<double>(p);
    case ir::DType::FP16:
    case ir::DType::BF16: return bitsToFloat(t, readRaw<uint16_t>(p));
    default: return bitsToFloat(t, *p);  // fp8
  }
}

inline int64_t decodeInt(ir::DType t, const uint8_t* p) {
  switch (t) {
    case ir::DType::I1: return *p != 0 ? 1 : 0;
    case ir::DType::I8: return static_cast<int8_t>(*p);
    case ir::DType::U8: return *p;
    case ir::DType::I16: return readRaw<int16_t>(p);
    case ir::DType::U16: return readRaw<uint16_t>(p);
    case ir::DType::I32: return readRaw<int32_t>(p);
    case ir::DType::U32: return readRaw<uint32_t>(p);
    default: return readRaw<int64_t>(p);  // i64, u64
  }
}

// The element's bits in the low bytes of a uint64 (value rounded/wrapped to t first).
inline uint64_t encodeFloatBits(ir::DType t, double v) { return floatToBits(t, v); }
inline uint64_t encodeIntBits(ir::DType t, int64_t v) {
  if (t == ir::DType::I1) return (v & 1) != 0 ? 1 : 0;
  return static_cast<uint64_t>(v);  // the low bytes are the two's-complement truncation
}

inline void writeBits(uint8_t* p, uint64_t bits, int size) { std::memcpy(p, &bits, static_cast<size_t>(size)); }

}  // namespace tilescope::sim
