#include "core/kernel/BlockPointer.h"

namespace tilescope::lang {

Value BlockPointer::toValue() const {
  ValueList els{base};
  els.insert(els.end(), shape.begin(), shape.end());
  els.insert(els.end(), strides.begin(), strides.end());
  els.insert(els.end(), offsets.begin(), offsets.end());
  for (int64_t b : blockShape) els.push_back(Value::ofConst(ConstValue::integer(b)));
  for (int64_t o : order) els.push_back(Value::ofConst(ConstValue::integer(o)));
  return Value::ofBlockPointer(std::move(els));
}

BlockPointer BlockPointer::of(const Value& v) {
  if (!v.isBlockPointer() || v.elements.empty() || (v.elements.size() - 1) % 5 != 0)
    throw InternalError("BlockPointer::of: not a block pointer value");
  const size_t r = (v.elements.size() - 1) / 5;
  BlockPointer bp;
  bp.base = v.elements[0];
  auto part = [&](size_t k) { return ValueList(v.elements.begin() + 1 + k * r, v.elements.begin() + 1 + (k + 1) * r); };
  bp.shape = part(0);
  bp.strides = part(1);
  bp.offsets = part(2);
  for (const Value& b : part(3)) bp.blockShape.push_back(b.constant.asInt());
  for (const Value& o : part(4)) bp.order.push_back(o.constant.asInt());
  return bp;
}

BlockAccess lowerBlockPointer(ExprChecker& ec, const BlockPointer& bp, const std::vector<int64_t>& boundaryCheck,
                              SourceRange range) {
  const int r = static_cast<int>(bp.rank());
  Value elementOffsets, mask;
  for (int d = 0; d < r; ++d) {
    // Indices along dim d, offsets[d] + arange(0, block_shape[d]), placed on axis d of the block.
    Value index = ec.binary(ir::BinaryOp::Add, Value::ofTensor(ir::Arange::make(0, bp.blockShape[d], range)), bp.offsets[d], range);
    ir::Expr along = index.expr;
    for (int a = 0; a < d; ++a) along = ir::ExpandDims::make(along, 0, range);
    for (int a = d + 1; a < r; ++a) along = ir::ExpandDims::make(along, a, range);
    const Value term = ec.binary(ir::BinaryOp::Mul, Value::ofTensor(along), bp.strides[d], range);
    elementOffsets = d == 0 ? term : ec.binary(ir::BinaryOp::Add, elementOffsets, term, range);
    if (std::find(boundaryCheck.begin(), boundaryCheck.end(), d) == boundaryCheck.end()) continue;
    const Value inside =
        ec.binary(ir::BinaryOp::And, ec.compare(ir::BinaryOp::Ge, Value::ofTensor(along), Value::ofConst(ConstValue::integer(0)), range),
                  ec.compare(ir::BinaryOp::Lt, Value::ofTensor(along), bp.shape[d], range), range);
    mask = mask.isTensor() ? ec.binary(ir::BinaryOp::And, mask, inside, range) : inside;
  }
  BlockAccess out;
  out.pointers = ec.broadcastTo(ec.binary(ir::BinaryOp::Add, bp.base, elementOffsets, range).expr, bp.blockShape, range, "the block");
  if (mask.isTensor()) out.mask = ec.broadcastTo(mask.expr, bp.blockShape, range, "the block's mask");
  return out;
}

}  // namespace tilescope::lang
