#include "core/sim/Tile.h"

#include <bit>
#include <cmath>

#include "core/base/Diagnostic.h"
#include "core/ir/Numerics.h"
#include "core/sim/TileFormat.h"

namespace tilescope::sim {

Tile::Tile(ir::DType dtype, bool pointer, ir::Shape shape)
    : dtype_(dtype), pointer_(pointer), floatStorage_(!pointer && ir::isFloat(dtype)), shape_(std::move(shape)) {
  numel_ = ir::numElements(shape_);
  if (numel_ < 0) throw lang::InternalError("Tile: negative element count");
  ints_.clear();
  if (floatStorage_) {
    floats_.assign(static_cast<size_t>(numel_), 0.0);
  } else {
    ints_.assign(static_cast<size_t>(numel_), 0);
  }
}

Tile Tile::uninitialized(const ir::Type& type) {
  Tile out;
  out.dtype_ = type.dtype();
  out.pointer_ = type.isPointer();
  out.floatStorage_ = !out.pointer_ && ir::isFloat(out.dtype_);
  out.shape_ = type.shape();
  out.numel_ = ir::numElements(out.shape_);
  if (out.numel_ < 0) throw lang::InternalError("Tile: negative element count");
  if (out.floatStorage_) {
    out.ints_.clear();
    out.floats_.resize(static_cast<size_t>(out.numel_));
  } else {
    out.ints_.resize(static_cast<size_t>(out.numel_));
  }
  return out;
}

Tile Tile::scalarInt(ir::DType t, int64_t v) {
  Tile out(t, false, {});
  if (out.floatStorage_) throw lang::InternalError("Tile::scalarInt: float dtype");
  out.ints_[0] = wrapInt(t, v);
  return out;
}

Tile Tile::scalarFloat(ir::DType t, double v) {
  Tile out(t, false, {});
  if (!out.floatStorage_) throw lang::InternalError("Tile::scalarFloat: not a float dtype");
  out.floats_[0] = roundToDType(t, v);
  return out;
}

Tile Tile::scalarPointer(ir::DType pointee, int64_t address) {
  Tile out(pointee, true, {});
  out.ints_[0] = address;
  return out;
}

Tile Tile::fromInts(ir::DType t, ir::Shape shape, std::span<const int64_t> values) {
  Tile out(t, false, std::move(shape));
  if (out.floatStorage_ || static_cast<int64_t>(values.size()) != out.numel_)
    throw lang::InternalError("Tile::fromInts: dtype or element count mismatch");
  for (int64_t i = 0; i < out.numel_; ++i) out.ints_[i] = wrapInt(t, values[i]);
  return out;
}

Tile Tile::fromFloats(ir::DType t, ir::Shape shape, std::span<const double> values) {
  Tile out(t, false, std::move(shape));
  if (!out.floatStorage_ || static_cast<int64_t>(values.size()) != out.numel_)
    throw lang::InternalError("Tile::fromFloats: dtype or element count mismatch");
  for (int64_t i = 0; i < out.numel_; ++i) out.floats_[i] = roundToDType(t, values[i]);
  return out;
}

Tile Tile::fromPointers(ir::DType pointee, ir::Shape shape, std::span<const int64_t> addresses) {
  Tile out(pointee, true, std::move(shape));
  if (static_cast<int64_t>(addresses.size()) != out.numel_)
    throw lang::InternalError("Tile::fromPointers: element count mismatch");
  std::copy(addresses.begin(), addresses.end(), out.ints_.begin());
  return out;
}

double Tile::asDouble(int64_t i) const {
  if (floatStorage_) return floats_[i];
  if (!pointer_ && ir::isUnsignedInt(dtype_)) return static_cast<double>(asUnsigned(dtype_, ints_[i]));
  return static_cast<double>(ints_[i]);
}

int64_t Tile::asInt(int64_t i) const {
  if (floatStorage_) return static_cast<int64_t>(floats_[i]);
  return ints_[i];
}

bool Tile::asBool(int64_t i) const { return floatStorage_ ? floats_[i] != 0 : ints_[i] != 0; }

Tile Tile::reshaped(ir::Shape shape) const {
  if (ir::numElements(shape) != numel_) throw lang::InternalError("Tile::reshaped: element count mismatch");
  Tile out = *this;
  out.shape_ = std::move(shape);
  return out;
}

bool operator==(const Tile& a, const Tile& b) {
  if (a.dtype_ != b.dtype_ || a.pointer_ != b.pointer_ || a.shape_ != b.shape_) return false;
  if (a.floatStorage_) {
    for (int64_t i = 0; i < a.numel_; ++i) {
      const double x = a.floats_[i];
      const double y = b.floats_[i];
      if (std::isnan(x) && std::isnan(y)) continue;
      if (std::bit_cast<uint64_t>(x) != std::bit_cast<uint64_t>(y)) return false;
    }
    return true;
  }
  return a.ints_ == b.ints_;
}

std::string Tile::debugString() const { return type().str() + formatTile(*this); }

}  // namespace tilescope::sim
