#include "core/python/TorchConvert.h"

#include "core/python/TensorObject.h"

namespace tilescope::host {

Value makeTensor(Tensor t) { return makeObject<TensorObject>(std::move(t)); }

const Tensor* tensorOf(const Value& v) {
  auto* t = v.as<TensorObject>();
  return t ? &t->tensor : nullptr;
}

Value makeDType(DType t) { return makeObject<DTypeObject>(t); }

}  // namespace tilescope::host
