#include "core/python/TensorObject.h"

#include "core/python/PyError.h"
#include "core/python/TorchConvert.h"
#include "core/tensor/TensorPrinter.h"
#include "core/tensor/TypePromotion.h"

namespace tilescope::host {

std::string TensorObject::repr(LaunchContext&) const { return toString(tensor); }

bool TensorObject::truthy(LaunchContext&) const {
  if (tensor.numel() != 1) {
    if (tensor.numel() == 0) throw PyError("RuntimeError", "Boolean value of Tensor with no values is ambiguous");
    throw PyError("RuntimeError", "Boolean value of Tensor with more than one value is ambiguous");
  }
  return tensor.item().toBool();
}

std::optional<Value> TensorObject::number(LaunchContext&) const {
  if (tensor.numel() != 1) return std::nullopt;
  const Scalar s = tensor.item();
  if (s.isBool()) return Value::boolean(s.toBool());
  if (s.isInt()) return Value::integer(s.toInt());
  return Value::real(s.toDouble());
}

std::string DTypeObject::repr(LaunchContext&) const { return torchDTypeName(dtype); }

std::optional<Value> DTypeObject::compare(LaunchContext&, CmpOp op, const Value& other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  auto* o = other.as<DTypeObject>();
  const bool eq = o && o->dtype == dtype;
  return Value::boolean(op == CmpOp::Eq ? eq : !eq);
}

std::optional<std::string> DTypeObject::hashKey(LaunchContext&) const { return "dtype:" + torchDTypeName(dtype); }

}  // namespace tilescope::host
