#include "core/kernel/TensorDescriptor.h"

#include "core/base/Suggest.h"

namespace tilescope::lang {

namespace {
const std::vector<std::string>& methodNames() {
  static const std::vector<std::string> names{"load", "store", "atomic_add", "atomic_min", "atomic_max",
                                              "atomic_and", "atomic_or", "atomic_xor"};
  return names;
}
}  // namespace

Value TensorDescriptor::toValue() const {
  ValueList els{base};
  els.insert(els.end(), shape.begin(), shape.end());
  els.insert(els.end(), strides.begin(), strides.end());
  for (int64_t b : blockShape) els.push_back(Value::ofConst(ConstValue::integer(b)));
  els.push_back(Value::ofConst(ConstValue::string(padNan ? "nan" : "zero")));
  return Value::ofTensorDescriptor(std::move(els));
}

TensorDescriptor TensorDescriptor::of(const Value& v) {
  if (!v.isTensorDescriptor() || v.elements.size() < 2 || (v.elements.size() - 2) % 3 != 0)
    throw InternalError("TensorDescriptor::of: not a tensor descriptor value");
  const size_t r = (v.elements.size() - 2) / 3;
  TensorDescriptor td;
  td.base = v.elements[0];
  auto part = [&](size_t k) { return ValueList(v.elements.begin() + 1 + k * r, v.elements.begin() + 1 + (k + 1) * r); };
  td.shape = part(0);
  td.strides = part(1);
  for (const Value& b : part(2)) td.blockShape.push_back(b.constant.asInt());
  td.padNan = v.elements.back().constant.asString() == "nan";
  return td;
}

BlockPointer TensorDescriptor::box(const ValueList& offsets) const {
  BlockPointer bp;
  bp.base = base;
  bp.shape = shape;
  bp.strides = strides;
  bp.offsets = offsets;
  bp.blockShape = blockShape;
  for (size_t d = rank(); d-- > 0;) bp.order.push_back(static_cast<int64_t>(d));
  return bp;
}

Value tensorDescriptorAttribute(ExprChecker& ec, const Value& self, const std::string& attr, SourceRange range) {
  const TensorDescriptor td = TensorDescriptor::of(self);
  if (attr == "block_shape") {
    ValueList dims;
    for (int64_t d : td.blockShape) dims.push_back(Value::ofConst(ConstValue::integer(d)));
    return Value::ofTuple(std::move(dims));
  }
  if (attr == "dtype") return Value::ofConst(ConstValue::dtype(td.dtype()));
  if (attr == "shape") return Value::ofTuple(td.shape);
  if (attr == "strides") return Value::ofTuple(td.strides);
  for (const std::string& m : methodNames())
    if (m == attr) return Value::ofMethod(attr, self);
  if (attr == "gather" || attr == "scatter")
    ec.error(range, "tensor descriptor " + attr + " is not supported by tilescope yet; load boxes with desc.load(offsets) or use tl.load with a tensor of pointers");
  std::vector<std::string> candidates = methodNames();
  for (const char* a : {"block_shape", "dtype", "shape", "strides"}) candidates.emplace_back(a);
  std::string msg = "a tensor descriptor has no attribute '" + attr + "'";
  if (auto s = closestMatch(attr, candidates)) msg += "; did you mean '" + *s + "'?";
  ec.error(range, msg);
}

std::string tensorDescriptorMethodBuiltin(const std::string& method) { return "tensor_descriptor." + method; }

}  // namespace tilescope::lang
