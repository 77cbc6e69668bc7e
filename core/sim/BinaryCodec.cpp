#include "core/sim/BinaryCodec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace tilescope::sim {

namespace {

// Upper bound on elements of one array in a trace; guards allocations on corrupt input.
constexpr uint64_t kMaxElements = uint64_t{1} << 28;

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// Row-major unit-step element index of each dim (0 for dims of size <= 1).
std::vector<int64_t> rowStrides(const ir::Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

// Fills out[] with base + sum(i_d * stride_d) over the shape, in wrapping 64-bit arithmetic.
void expandAffine(const ir::Shape& shape, int64_t base, const std::vector<int64_t>& strides, int64_t* out) {
  const int64_t n = ir::numElements(shape);
  if (n == 0) return;
  std::vector<int64_t> idx(shape.size(), 0);
  uint64_t v = static_cast<uint64_t>(base);
  for (int64_t k = 0; k < n; ++k) {
    out[k] = static_cast<int64_t>(v);
    // Increment the multi-index, adjusting v by the strides.
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) {
        v += static_cast<uint64_t>(strides[d]);
        break;
      }
      v -= static_cast<uint64_t>(strides[d]) * static_cast<uint64_t>(shape[d] - 1);
      idx[d] = 0;
    }
  }
}

// Whether values[] equals base + sum(i_d * stride_d) over the shape (what expandAffine writes),
// checked as it goes: no copy, and it stops at the first element that differs.
bool isAffine(const ir::Shape& shape, int64_t base, const std::vector<int64_t>& strides, std::span<const int64_t> values) {
  const int64_t n = static_cast<int64_t>(values.size());
  std::vector<int64_t> idx(shape.size(), 0);
  uint64_t v = static_cast<uint64_t>(base);
  const int inner = static_cast<int>(shape.size()) - 1;
  const uint64_t innerStride = inner >= 0 ? static_cast<uint64_t>(strides[static_cast<size_t>(inner)]) : 0;
  const int64_t innerSize = inner >= 0 ? shape[static_cast<size_t>(inner)] : 1;
  for (int64_t k = 0; k < n;) {
    // The innermost dimension as a plain loop: the common case of a contiguous row.
    for (int64_t j = 0; j < innerSize; ++j, ++k, v += innerStride)
      if (values[static_cast<size_t>(k)] != static_cast<int64_t>(v)) return false;
    v -= innerStride * static_cast<uint64_t>(innerSize);
    int d = inner - 1;
    for (; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) {
        v += static_cast<uint64_t>(strides[static_cast<size_t>(d)]);
        break;
      }
      v -= static_cast<uint64_t>(strides[static_cast<size_t>(d)]) * static_cast<uint64_t>(shape[static_cast<size_t>(d)] - 1);
      idx[static_cast<size_t>(d)] = 0;
    }
    if (d < 0) break;
  }
  return true;
}

// Appends `count` little-endian integers of `width` bytes, each `value(i)` truncated.
template <typename Value>
void appendLittleEndian(std::string& out, size_t count, int width, Value value) {
  const size_t at = out.size();
  out.resize(at + count * static_cast<size_t>(width));
  char* p = out.data() + at;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t v = value(i);
    for (int b = 0; b < width; ++b) *p++ = static_cast<char>(static_cast<uint8_t>(v >> (8 * b)));
  }
}

}  // namespace

void ByteWriter::u16(uint16_t v) {
  u8(static_cast<uint8_t>(v));
  u8(static_cast<uint8_t>(v >> 8));
}
void ByteWriter::u32(uint32_t v) {
  for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
}
void ByteWriter::fixed64(uint64_t v) {
  for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
}
void ByteWriter::varint(uint64_t v) {
  while (v >= 0x80) {
    u8(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  u8(static_cast<uint8_t>(v));
}
void ByteWriter::svarint(int64_t v) { varint(zigzag(v)); }
void ByteWriter::str(std::string_view s) {
  varint(s.size());
  out_.append(s);
}

void writeShape(ByteWriter& w, const ir::Shape& shape) {
  w.varint(shape.size());
  for (int64_t d : shape) w.varint(static_cast<uint64_t>(d));
}

void ByteWriter::intArray(const ir::Shape& shape, std::span<const int64_t> values) {
  const int64_t n = static_cast<int64_t>(values.size());
  // Affine: recover the per-dim strides from the unit steps and check every element.
  if (n > 0 && ir::numElements(shape) == n) {
    const std::vector<int64_t> unit = rowStrides(shape);
    std::vector<int64_t> strides(shape.size(), 0);
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] > 1) strides[d] = static_cast<int64_t>(static_cast<uint64_t>(values[unit[d]]) - static_cast<uint64_t>(values[0]));
    if (isAffine(shape, values[0], strides, values)) {
      u8(static_cast<uint8_t>(IntArrayEncoding::Affine));
      svarint(values[0]);
      for (int64_t s : strides) svarint(s);
      return;
    }
  }
  int64_t lo = 0;
  int64_t hi = 0;
  for (int64_t v : values) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const auto at = [&](size_t i) { return static_cast<uint64_t>(values[i]); };
  if (lo >= std::numeric_limits<int8_t>::min() && hi <= std::numeric_limits<int8_t>::max()) {
    u8(static_cast<uint8_t>(IntArrayEncoding::Int8));
    appendLittleEndian(out_, values.size(), 1, at);
  } else if (lo >= std::numeric_limits<int32_t>::min() && hi <= std::numeric_limits<int32_t>::max()) {
    u8(static_cast<uint8_t>(IntArrayEncoding::Int32));
    appendLittleEndian(out_, values.size(), 4, at);
  } else {
    u8(static_cast<uint8_t>(IntArrayEncoding::Int64));
    appendLittleEndian(out_, values.size(), 8, at);
  }
}

void ByteWriter::mask(std::span<const uint8_t> lanes) {
  bool allTrue = true;
  bool allFalse = !lanes.empty();
  for (uint8_t b : lanes) {
    allTrue &= b != 0;
    allFalse &= b == 0;
  }
  if (allTrue) {
    u8(static_cast<uint8_t>(MaskEncoding::AllTrue));
    return;
  }
  if (allFalse) {
    u8(static_cast<uint8_t>(MaskEncoding::AllFalse));
    return;
  }
  u8(static_cast<uint8_t>(MaskEncoding::Bits));
  for (size_t i = 0; i < lanes.size(); i += 8) {
    uint8_t byte = 0;
    for (size_t j = 0; j < 8 && i + j < lanes.size(); ++j)
      if (lanes[i + j]) byte |= static_cast<uint8_t>(1u << j);
    u8(byte);
  }
}

void ByteWriter::tile(const Tile& t) {
  u8(static_cast<uint8_t>(t.dtype()));
  u8(t.isPointer() ? 1 : 0);
  writeShape(*this, t.shape());
  if (t.hasFloatStorage()) {
    // Every dtype up to fp32 is exactly an fp32; fp64 keeps 8 bytes.
    const bool wide = t.dtype() == ir::DType::FP64;
    u8(wide ? 8 : 4);
    const double* f = t.floats();
    const auto count = static_cast<size_t>(t.numel());
    if (wide) appendLittleEndian(out_, count, 8, [f](size_t i) { return std::bit_cast<uint64_t>(f[i]); });
    else appendLittleEndian(out_, count, 4, [f](size_t i) { return uint64_t{std::bit_cast<uint32_t>(static_cast<float>(f[i]))}; });
    return;
  }
  const ir::Shape shape = t.isScalar() ? ir::Shape{1} : t.shape();
  intArray(shape, std::span<const int64_t>(t.ints(), static_cast<size_t>(t.numel())));
}

// --- reader --------------------------------------------------------------------------------------

void ByteReader::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message) + " (at byte " + std::to_string(pos_) + ")";
}

uint8_t ByteReader::u8() {
  if (pos_ >= data_.size()) {
    fail("unexpected end of data");
    return 0;
  }
  return static_cast<uint8_t>(data_[pos_++]);
}
uint16_t ByteReader::u16() {
  const uint16_t lo = u8();
  return static_cast<uint16_t>(lo | (u8() << 8));
}
uint32_t ByteReader::u32() {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(u8()) << (8 * i);
  return v;
}
uint64_t ByteReader::fixed64() {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(u8()) << (8 * i);
  return v;
}
uint64_t ByteReader::varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const uint8_t b = u8();
    if (!ok()) return 0;
    v |= static_cast<uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
  fail("varint longer than 10 bytes");
  return 0;
}
int64_t ByteReader::svarint() { return unzigzag(varint()); }

std::string_view ByteReader::take(size_t n) {
  if (n > remaining()) {
    fail("length " + std::to_string(n) + " runs past the end of the data");
    pos_ = data_.size();
    return {};
  }
  std::string_view s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

std::string ByteReader::str() { return std::string(take(static_cast<size_t>(varint()))); }

ir::Shape ByteReader::shape() {
  const uint64_t rank = varint();
  if (rank > 8) {
    fail("tile rank " + std::to_string(rank) + " is larger than 8");
    return {};
  }
  ir::Shape s;
  uint64_t n = 1;
  for (uint64_t i = 0; i < rank && ok(); ++i) {
    const uint64_t d = varint();
    if (d > kMaxElements || (n *= (d == 0 ? 1 : d)) > kMaxElements) {
      fail("tile shape too large");
      return {};
    }
    s.push_back(static_cast<int64_t>(d));
  }
  return s;
}

std::vector<int64_t> ByteReader::intArray(const ir::Shape& shape) {
  const int64_t n = ir::numElements(shape);
  std::vector<int64_t> out;
  const auto enc = static_cast<IntArrayEncoding>(u8());
  if (!ok()) return out;
  switch (enc) {
    case IntArrayEncoding::Affine: {
      const int64_t base = svarint();
      std::vector<int64_t> strides(shape.size());
      for (int64_t& s : strides) s = svarint();
      if (!ok()) return {};
      out.resize(static_cast<size_t>(n));
      expandAffine(shape, base, strides, out.data());
      return out;
    }
    case IntArrayEncoding::Int8:
    case IntArrayEncoding::Int32:
    case IntArrayEncoding::Int64: {
      const size_t width = enc == IntArrayEncoding::Int8 ? 1 : enc == IntArrayEncoding::Int32 ? 4 : 8;
      if (static_cast<uint64_t>(n) * width > remaining()) {
        fail("integer array runs past the end of the data");
        return {};
      }
      out.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        if (width == 1) out[i] = static_cast<int8_t>(u8());
        else if (width == 4) out[i] = static_cast<int32_t>(u32());
        else out[i] = static_cast<int64_t>(fixed64());
      }
      return out;
    }
  }
  fail("unknown integer array encoding " + std::to_string(static_cast<int>(enc)));
  return out;
}

std::vector<uint8_t> ByteReader::mask(int64_t lanes) {
  const auto enc = static_cast<MaskEncoding>(u8());
  switch (enc) {
    case MaskEncoding::AllTrue: return {};
    case MaskEncoding::AllFalse: return std::vector<uint8_t>(static_cast<size_t>(lanes), 0);
    case MaskEncoding::Bits: {
      std::vector<uint8_t> out(static_cast<size_t>(lanes), 0);
      const std::string_view bits = take(static_cast<size_t>((lanes + 7) / 8));
      if (!ok()) return {};
      for (int64_t i = 0; i < lanes; ++i) out[i] = (static_cast<uint8_t>(bits[i / 8]) >> (i % 8)) & 1;
      return out;
    }
  }
  fail("unknown mask encoding " + std::to_string(static_cast<int>(enc)));
  return {};
}

Tile ByteReader::tile() {
  const uint8_t dt = u8();
  const bool pointer = u8() != 0;
  ir::Shape s = shape();
  if (!ok()) return {};
  if (dt >= ir::kDTypeCount) {
    fail("unknown dtype " + std::to_string(dt));
    return {};
  }
  Tile t(static_cast<ir::DType>(dt), pointer, s);
  if (t.hasFloatStorage()) {
    const uint8_t width = u8();
    if (width != 4 && width != 8) {
      fail("float width must be 4 or 8");
      return {};
    }
    if (static_cast<uint64_t>(t.numel()) * width > remaining()) {
      fail("float array runs past the end of the data");
      return {};
    }
    for (int64_t i = 0; i < t.numel(); ++i)
      t.floats()[i] = width == 8 ? std::bit_cast<double>(fixed64()) : static_cast<double>(std::bit_cast<float>(u32()));
    return t;
  }
  const std::vector<int64_t> v = intArray(t.isScalar() ? ir::Shape{1} : s);
  if (!ok()) return {};
  std::copy(v.begin(), v.end(), t.ints());
  return t;
}

}  // namespace tilescope::sim
