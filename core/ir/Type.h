#pragma once
// The type of an IR value: an element dtype, whether the element is a pointer to that dtype, and a
// tile shape (empty for scalars). Pointers are always global-memory pointers (Triton's address
// space 1); block pointers (make_block_ptr) are not modelled.
//
// Printing follows MLIR's tensor spelling so the IR dump reads like Triton's TTIR:
//   i32                    scalar
//   ptr<fp16>              scalar pointer
//   tensor<64x64xfp32>     tile
//   tensor<64x!ptr<fp16>>  tile of pointers
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/DType.h"

namespace tilescope::ir {

using Shape = std::vector<int64_t>;

// "[64x32]" - the spelling diagnostics use for shapes; "[]" for a scalar.
std::string shapeString(const Shape& shape);
// The product of the dims; saturates at INT64_MAX instead of wrapping (a shape checked against a tile
// limit must never look small because its count overflowed).
int64_t numElements(const Shape& shape);

class Type {
public:
  Type() = default;  // i32 scalar; exists so containers and optionals work
  Type(DType dtype, bool pointer, Shape shape) : dtype_(dtype), pointer_(pointer), shape_(std::move(shape)) {}

  static Type scalar(DType t) { return Type(t, false, {}); }
  static Type pointer(DType pointee) { return Type(pointee, true, {}); }
  static Type tile(DType t, Shape shape) { return Type(t, false, std::move(shape)); }
  static Type pointerTile(DType pointee, Shape shape) { return Type(pointee, true, std::move(shape)); }

  // Element dtype; for pointers, the pointee's dtype.
  DType dtype() const { return dtype_; }
  bool isPointer() const { return pointer_; }
  const Shape& shape() const { return shape_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  bool isScalar() const { return shape_.empty(); }
  bool isTile() const { return !shape_.empty(); }
  int64_t numel() const { return numElements(shape_); }

  // Value-element predicates: false for pointers whatever they point to.
  bool isFloat() const { return !pointer_ && ir::isFloat(dtype_); }
  bool isInt() const { return !pointer_ && ir::isInt(dtype_); }
  bool isBool() const { return !pointer_ && dtype_ == DType::I1; }

  Type withShape(Shape shape) const { return Type(dtype_, pointer_, std::move(shape)); }
  // Same shape, new element; the result is not a pointer.
  Type withDType(DType t) const { return Type(t, false, shape_); }
  // Same shape, element replaced by another element type (pointer or not).
  Type withElement(DType t, bool pointer) const { return Type(t, pointer, shape_); }
  Type scalarType() const { return Type(dtype_, pointer_, {}); }
  // The type a load through this pointer (tile) produces: pointer flag dropped, shape kept.
  Type pointee() const { return Type(dtype_, false, shape_); }

  // The element spelling: "fp32" or "ptr<fp32>".
  std::string elementString() const;
  std::string str() const;

  friend bool operator==(const Type& a, const Type& b) {
    return a.dtype_ == b.dtype_ && a.pointer_ == b.pointer_ && a.shape_ == b.shape_;
  }
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

private:
  DType dtype_ = DType::I32;
  bool pointer_ = false;
  Shape shape_;
};

}  // namespace tilescope::ir
