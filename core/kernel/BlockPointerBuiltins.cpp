// tl.make_block_ptr and tl.advance (Triton's block pointers). Loads and stores through them are in
// MemoryBuiltins.cpp; the lowering to pointer tiles and masks is in BlockPointer.cpp.
#include "core/kernel/BlockPointer.h"
#include "core/kernel/BuiltinRegistry.h"

namespace tilescope::lang {

namespace {

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// A tuple (or list) argument of `rank` entries, or of any length when rank is 0.
const ValueList& tupleArg(ExprChecker& ec, const BoundArgs& a, const std::string& param, size_t rank) {
  const Value& v = a.get(param);
  if (!v.isTuple())
    ec.error(a.range(param), a.name() + " " + param + " must be a tuple with one entry per dimension, not " + v.describe());
  if (rank != 0 && v.elements.size() != rank)
    ec.error(a.range(param), a.name() + " " + param + " has " + std::to_string(v.elements.size()) +
                                 (v.elements.size() == 1 ? " entry" : " entries") + " but block_shape has " + std::to_string(rank) +
                                 " dimensions; give one per dimension");
  return v.elements;
}

// Entries of shape / strides / offsets: constexpr ints or integer scalars.
ValueList integerEntries(ExprChecker& ec, const BoundArgs& a, const std::string& param, size_t rank) {
  ValueList out;
  for (const Value& e : tupleArg(ec, a, param, rank)) {
    const bool constInt = e.isConst() && e.constant.isIntegral();
    const bool scalarInt = e.isTensor() && e.expr.type().isScalar() && ir::isInt(e.expr.type().dtype());
    if (!constInt && !scalarInt)
      ec.error(a.range(param), a.name() + " " + param + " entries must be integers (constexprs or integer scalars), not " +
                                   e.describe());
    out.push_back(e);
  }
  return out;
}

Value makeBlockPtr(ExprChecker& ec, const BoundArgs& a) {
  BlockPointer bp;
  bp.base = a.get("base");
  if (!bp.base.isTensor() || !bp.base.expr.type().isPointer() || !bp.base.expr.type().isScalar())
    ec.error(a.range("base"), "tl.make_block_ptr base must be a pointer (a kernel's tensor argument), not " + bp.base.describe());
  bp.blockShape = ec.requireShape(a.get("block_shape"), a.range("block_shape"), "tl.make_block_ptr block_shape");
  for (int64_t d : bp.blockShape)
    if (!isPowerOfTwo(d))
      ec.error(a.range("block_shape"), "tl.make_block_ptr block_shape " + ir::shapeString(bp.blockShape) +
                                           " must have power-of-two dimensions, like every Triton block");
  if (std::string err = ir::tileSizeError(bp.blockShape, "tl.make_block_ptr block"); !err.empty())
    ec.error(a.range("block_shape"), err);
  const size_t rank = bp.blockShape.size();
  bp.shape = integerEntries(ec, a, "shape", rank);
  bp.strides = integerEntries(ec, a, "strides", rank);
  bp.offsets = integerEntries(ec, a, "offsets", rank);
  std::vector<bool> seen(rank, false);
  // A named string, not a temporary: g++ 13 flags a reference returned past a temporary argument.
  const std::string orderParam = "order";
  for (const Value& o : tupleArg(ec, a, orderParam, rank)) {
    const int64_t d = ec.requireConstInt(o, a.range("order"), "tl.make_block_ptr order entries");
    if (d < 0 || d >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(d)])
      ec.error(a.range("order"), "tl.make_block_ptr order must list each dimension 0.." + std::to_string(rank - 1) +
                                     " once, e.g. (1, 0) for a row-major block");
    seen[static_cast<size_t>(d)] = true;
    bp.order.push_back(d);
  }
  return bp.toValue();
}

Value advance(ExprChecker& ec, const BoundArgs& a) {
  const Value& v = a.get("base");
  if (!v.isBlockPointer())
    ec.error(a.range("base"), "tl.advance moves a block pointer made by tl.make_block_ptr, not " + v.describe() +
                                  "; to move a tensor of pointers, add to it: ptrs += step");
  BlockPointer bp = BlockPointer::of(v);
  const ValueList deltas = integerEntries(ec, a, "offsets", bp.rank());
  for (size_t d = 0; d < bp.rank(); ++d) bp.offsets[d] = ec.binary(ir::BinaryOp::Add, bp.offsets[d], deltas[d], a.range("offsets"));
  return bp.toValue();
}

}  // namespace

void registerBlockPointerBuiltins(BuiltinRegistry& r) {
  r.add("tl.make_block_ptr", "base, shape, strides, offsets, block_shape, order", makeBlockPtr);
  r.add("tl.advance", "base, offsets", advance);
}

}  // namespace tilescope::lang
