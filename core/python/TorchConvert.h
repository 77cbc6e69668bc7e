#pragma once
// Tensors and dtypes as launch values (TensorObject.h): wrapping them and finding the tensor a launch
// argument holds.
#include "core/python/Value.h"
#include "core/tensor/Tensor.h"

namespace tilescope::host {

Value makeTensor(Tensor t);
// The tensor a value holds, or nullptr.
const Tensor* tensorOf(const Value& v);
// The torch.float32 value of a dtype.
Value makeDType(DType t);

}  // namespace tilescope::host
