#pragma once
// Moving values between the interpreter and the tensor library: Python numbers <-> Scalar, nested
// lists <-> NestedValue, shapes, dtype=/device= arguments, subscripts -> TensorIndex lists.
#include <optional>
#include <vector>

#include "core/tensor/NestedValue.h"
#include "core/tensor/Tensor.h"
#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorIndexing.h"
#include "core/tensor/TensorOps.h"
#include "core/host/Value.h"

namespace tilescope::host {

class TensorObject;

Value makeTensor(Tensor t);
// The tensor a value holds, or nullptr.
const Tensor* tensorOf(const Value& v);
// The tensor argument `what` of a torch function; TypeError otherwise.
// `what` is a C string (not std::string) so that callers pass no temporary objects: g++ 13 would
// otherwise suspect the returned reference of dangling (-Wdangling-reference).
const Tensor& requireTensor(const Value& v, const char* what);

Value scalarToValue(const Scalar& s);
std::optional<Scalar> valueToScalar(const Value& v);
Scalar requireScalar(Interpreter& in, const Value& v, const std::string& what);
// A tensor operand or a Python number (weak in type promotion).
std::optional<TensorOrScalar> toOperand(const Value& v);
Value nestedToValue(const NestedValue& n);
NestedValue valueToNested(Interpreter& in, const Value& v);

// A shape from (2, 3), [2, 3], torch.Size or the varargs form f(2, 3).
Shape toShape(Interpreter& in, const ValueList& args, const std::string& what);
Shape toShape(Interpreter& in, const Value& v, const std::string& what);
std::vector<int64_t> toIntList(Interpreter& in, const Value& v, const std::string& what);

// dtype= (torch.float16, 'float16' strings are not accepted by torch either) and device=.
std::optional<DType> toDType(const Value& v);
DType requireDType(const Value& v, const std::string& what);
std::optional<Device> toDevice(Interpreter& in, const Value& v);
TensorOptions toOptions(Interpreter& in, const Value& dtype, const Value& device);

std::vector<TensorIndex> toIndices(Interpreter& in, const Value& index);

// The torch.float32 / torch.device values.
Value makeDType(DType t);
Value makeDevice(const Device& d);

}  // namespace tilescope::host
