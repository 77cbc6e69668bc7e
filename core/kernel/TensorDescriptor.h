#pragma once
// tl.make_tensor_descriptor: a strided tensor of `shape` at `base` read and written in boxes of
// block_shape at offsets given per access (desc.load(offsets), desc.store(offsets, v), atomics).
// Like a block pointer it is a value of the checker, never IR: each access becomes the pointer tile
// and mask of the box with every dim bounds-checked, so out-of-bounds elements of a box read as
// the padding (zero or NaN) and are not written. No TMA and no global scratch are needed for that.
#include <string>

#include "core/kernel/BlockPointer.h"

namespace tilescope::lang {

struct TensorDescriptor {
  Value base;              // scalar pointer
  ValueList shape, strides;  // one per dim: constexpr ints or integer scalars
  ir::Shape blockShape;
  bool padNan = false;  // padding_option "nan" (else "zero")

  size_t rank() const { return blockShape.size(); }
  ir::DType dtype() const { return base.expr.type().dtype(); }
  // As a Value: elements = base, shape..., strides..., block shape..., padding ("zero" / "nan").
  Value toValue() const;
  static TensorDescriptor of(const Value& v);  // v.isTensorDescriptor()
  // The box at `offsets` as a block pointer (all dims bounds-checked when lowered).
  BlockPointer box(const ValueList& offsets) const;
};

// `desc.<attr>`: the methods (load, store, atomic_*) and block_shape, dtype, shape, strides.
Value tensorDescriptorAttribute(ExprChecker& ec, const Value& self, const std::string& attr, SourceRange range);
// The builtin a method of a descriptor calls: "tensor_descriptor.load", ...
std::string tensorDescriptorMethodBuiltin(const std::string& method);

}  // namespace tilescope::lang
