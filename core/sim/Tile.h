#pragma once
// The runtime value of a tile or scalar in the simulator: element type + shape + contiguous
// row-major storage in a wide "compute" representation, so that every tile op is a loop over one
// contiguous array:
//   integers (i1..i64, u8..u64)  int64, wrapped to the dtype's width after every op (unsigned
//                                dtypes zero-extended, u64 as its bit pattern, i1 as 0/1)
//   floats (fp8..fp64)           double, rounded to the dtype after every op (so fp32 ops computed
//                                in double are exact: + - * / sqrt round once)
//   pointers                     int64 device address (see DeviceAddress in Memory.h: tensor id
//                                and byte offset), element type = the pointee dtype
// A scalar is a tile of rank 0 with one element. Tiles are values: ops make new tiles; the
// evaluator shares them through TileRef.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/ir/Type.h"

namespace tilescope::sim {

// Leaves elements default-initialised (uninitialised for int64_t/double) on resize, so tiles that
// an op is about to overwrite entirely skip the zero fill.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

class Tile {
public:
  Tile() = default;  // an i32 scalar 0
  // Zero-filled storage of the right kind.
  Tile(ir::DType dtype, bool pointer, ir::Shape shape);
  explicit Tile(const ir::Type& type) : Tile(type.dtype(), type.isPointer(), type.shape()) {}
  // Storage left uninitialised: for ops that write every element before anyone reads it.
  static Tile uninitialized(const ir::Type& type);

  static Tile scalarInt(ir::DType t, int64_t v);      // wraps v to t
  static Tile scalarFloat(ir::DType t, double v);     // rounds v to t
  static Tile scalarPointer(ir::DType pointee, int64_t address);
  static Tile fromInts(ir::DType t, ir::Shape shape, std::span<const int64_t> values);     // wraps
  static Tile fromFloats(ir::DType t, ir::Shape shape, std::span<const double> values);    // rounds
  static Tile fromPointers(ir::DType pointee, ir::Shape shape, std::span<const int64_t> addresses);

  ir::DType dtype() const { return dtype_; }
  bool isPointer() const { return pointer_; }
  const ir::Shape& shape() const { return shape_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  bool isScalar() const { return shape_.empty(); }
  int64_t numel() const { return numel_; }
  ir::Type type() const { return ir::Type(dtype_, pointer_, shape_); }
  // True when the elements live in floats() (a float dtype that is not a pointer).
  bool hasFloatStorage() const { return floatStorage_; }

  int64_t* ints() { return ints_.data(); }
  const int64_t* ints() const { return ints_.data(); }
  double* floats() { return floats_.data(); }
  const double* floats() const { return floats_.data(); }

  // Element i as a double (ints read with their signedness; pointers as the address).
  double asDouble(int64_t i) const;
  // Element i as an int64 (floats truncated; for tests and scalar control flow).
  int64_t asInt(int64_t i) const;
  bool asBool(int64_t i) const;  // element != 0
  // The scalar's value (or element 0).
  int64_t scalarInt() const { return asInt(0); }
  double scalarDouble() const { return asDouble(0); }

  // Same elements, new shape (same element count).
  Tile reshaped(ir::Shape shape) const;
  // Approximate heap footprint, for trace size caps.
  size_t byteSize() const { return ints_.size() * sizeof(int64_t) + floats_.size() * sizeof(double); }

  // Exact equality of type and elements (NaN equals NaN; -0.0 differs from +0.0).
  friend bool operator==(const Tile& a, const Tile& b);

  // "tensor<4xi32>[0 1 2 3]" - for test failure messages and debugging.
  std::string debugString() const;

private:
  ir::DType dtype_ = ir::DType::I32;
  bool pointer_ = false;
  bool floatStorage_ = false;
  ir::Shape shape_;
  int64_t numel_ = 1;
  std::vector<int64_t, DefaultInitAllocator<int64_t>> ints_ = {0};
  std::vector<double, DefaultInitAllocator<double>> floats_;
};

using TileRef = std::shared_ptr<const Tile>;

inline TileRef makeTileRef(Tile t) { return std::make_shared<const Tile>(std::move(t)); }

}  // namespace tilescope::sim
