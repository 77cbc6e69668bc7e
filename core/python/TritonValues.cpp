#include "core/python/TritonValues.h"

namespace tilescope::host {

std::optional<Value> TlDTypeObject::compare(LaunchContext&, CmpOp op, const Value& other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  auto* o = other.as<TlDTypeObject>();
  const bool eq = o && o->dtype == dtype;
  return Value::boolean(op == CmpOp::Eq ? eq : !eq);
}

}  // namespace tilescope::host
