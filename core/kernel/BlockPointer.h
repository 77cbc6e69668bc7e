#pragma once
// tl.make_block_ptr: a window of block_shape elements at `offsets` into a strided tensor of `shape`
// at `base`. The checker keeps it as a value (never as IR) and lowers each tl.load / tl.store
// through it to an ordinary pointer tile and mask, so the simulator, its traces and the GPU
// generator see the same loads as hand-written pointer arithmetic.
#include <vector>

#include "core/kernel/ExprChecker.h"

namespace tilescope::lang {

struct BlockPointer {
  Value base;                          // scalar pointer
  ValueList shape, strides, offsets;  // one per dim: constexpr ints or integer scalars
  ir::Shape blockShape;
  std::vector<int64_t> order;  // a layout hint in Triton; kept for describing, not used

  size_t rank() const { return blockShape.size(); }
  // As a Value: elements = base, shape..., strides..., offsets..., block shape..., order...
  Value toValue() const;
  static BlockPointer of(const Value& v);  // v.isBlockPointer()
  // Index of offsets[d] in the Value's elements (what a loop carries).
  static size_t offsetElement(size_t rank, size_t d) { return 1 + 2 * rank + d; }
};

// What tl.load / tl.store through a block pointer read or write: the pointer tile of blockShape
// and, for the dims in boundaryCheck, the mask 0 <= index < shape[d] (null when no dim is checked).
struct BlockAccess {
  ir::Expr pointers;
  ir::Expr mask;
};
BlockAccess lowerBlockPointer(ExprChecker& ec, const BlockPointer& bp, const std::vector<int64_t>& boundaryCheck,
                              SourceRange range);

}  // namespace tilescope::lang
