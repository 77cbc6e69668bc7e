#pragma once
// The primitive encodings of the trace format (docs/TRACE_FORMAT.md): LEB128 varints, zigzag
// signed varints, length-prefixed strings, compressed integer arrays (affine / int8 / int32 /
// int64), bit-packed masks and tiles. ByteWriter appends to a string; ByteReader reads with
// bounds checks and reports the first problem instead of throwing.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/Type.h"
#include "core/sim/Tile.h"

namespace tilescope::sim {

// Integer array encodings (one tag byte, then the payload).
enum class IntArrayEncoding : uint8_t {
  Affine = 0,  // base, then one stride per dim: v[i0,..,ik] = base + sum(i_d * stride_d)
  Int8 = 1,
  Int32 = 2,
  Int64 = 3,
};

// Mask encodings.
enum class MaskEncoding : uint8_t { AllTrue = 0, AllFalse = 1, Bits = 2 };

class ByteWriter {
public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(uint16_t v);
  void u32(uint32_t v);
  void varint(uint64_t v);
  void svarint(int64_t v);  // zigzag
  void str(std::string_view s);
  void bytes(std::string_view s) { out_.append(s); }
  void fixed32(uint32_t v) { u32(v); }
  void fixed64(uint64_t v);

  // Picks the smallest encoding that reproduces the values exactly (shape gives the dims for
  // the affine test; a 1-D view is fine for plain arrays).
  void intArray(const ir::Shape& shape, std::span<const int64_t> values);
  void mask(std::span<const uint8_t> lanes);  // empty span = all true
  void tile(const Tile& t);

  std::string& buffer() { return out_; }
  std::string take() { return std::move(out_); }

private:
  std::string out_;
};

class ByteReader {
public:
  explicit ByteReader(std::string_view data) : data_(data) {}

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  size_t position() const { return pos_; }
  size_t remaining() const { return pos_ <= data_.size() ? data_.size() - pos_ : 0; }
  void fail(std::string message);

  uint8_t u8();
  uint16_t u16();
  uint32_t u32();
  uint64_t fixed64();
  uint64_t varint();
  int64_t svarint();
  std::string str();
  std::string_view take(size_t n);  // n raw bytes

  std::vector<int64_t> intArray(const ir::Shape& shape);
  std::vector<uint8_t> mask(int64_t lanes);  // empty result for AllTrue
  Tile tile();
  ir::Shape shape();  // rank varint then dims

private:
  std::string_view data_;
  size_t pos_ = 0;
  std::string error_;
};

void writeShape(ByteWriter& w, const ir::Shape& shape);

}  // namespace tilescope::sim
