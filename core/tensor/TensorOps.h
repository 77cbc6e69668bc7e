#pragma once
// Elementwise torch operations with broadcasting and torch's type promotion.
//
// Python numbers are "weak" operands (TensorOrScalar holding a Scalar): int tensor + 2.5 is float32,
// float16 tensor * 3 stays float16. True division of integers gives float32, `//` floors and `%` takes
// the divisor's sign, like torch. float16/bfloat16 arithmetic is done in float and rounded once.
// All results are fresh contiguous tensors on the first tensor operand's device.
#include <optional>

#include "core/tensor/Scalar.h"
#include "core/tensor/Tensor.h"

namespace tilescope::host {

// One operand of an elementwise op: a tensor or a Python number.
class TensorOrScalar {
 public:
  TensorOrScalar(const Tensor& t) : tensor_(t), isTensor_(true) {}
  TensorOrScalar(const Scalar& s) : scalar_(s) {}
  TensorOrScalar(bool v) : scalar_(v) {}
  template <class N>
    requires(std::integral<N> || std::floating_point<N>)
  TensorOrScalar(N v) : scalar_(v) {}

  bool isTensor() const { return isTensor_; }
  const Tensor& tensor() const { return tensor_; }
  const Scalar& scalar() const { return scalar_; }

 private:
  Tensor tensor_;
  Scalar scalar_;
  bool isTensor_ = false;
};

enum class BinaryOp {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow,     // + - * / // % **
  Eq, Ne, Lt, Le, Gt, Ge,                     // comparisons -> bool
  BitAnd, BitOr, BitXor,                      // & | ^ (integral and bool only)
  Maximum, Minimum,                           // torch.maximum / minimum (NaN propagates)
  LogicalAnd, LogicalOr,                      // torch.logical_and / logical_or -> bool
};

// At least one operand must be a tensor.
Tensor binary(BinaryOp op, const TensorOrScalar& a, const TensorOrScalar& b);
// Python's augmented assignment on a tensor (x += y): computes in place; torch's rule forbids results
// the tensor's dtype cannot hold ("result type Float can't be cast to the desired output type Long").
Tensor& binaryInPlace(BinaryOp op, Tensor& self, const TensorOrScalar& other);

// The dtype binary() would produce (torch.result_type plus the op's own rule).
DType binaryResultType(BinaryOp op, const TensorOrScalar& a, const TensorOrScalar& b);
// torch.can_cast(from, to).
bool canCast(DType from, DType to);

inline Tensor add(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Add, a, b); }
inline Tensor sub(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Sub, a, b); }
inline Tensor mul(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Mul, a, b); }
inline Tensor div(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Div, a, b); }
inline Tensor floorDivide(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::FloorDiv, a, b); }
inline Tensor remainder(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Mod, a, b); }
inline Tensor pow(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Pow, a, b); }
inline Tensor eq(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Eq, a, b); }
inline Tensor ne(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Ne, a, b); }
inline Tensor lt(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Lt, a, b); }
inline Tensor le(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Le, a, b); }
inline Tensor gt(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Gt, a, b); }
inline Tensor ge(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::Ge, a, b); }
inline Tensor bitwiseAnd(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::BitAnd, a, b); }
inline Tensor bitwiseOr(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::BitOr, a, b); }
inline Tensor bitwiseXor(const TensorOrScalar& a, const TensorOrScalar& b) { return binary(BinaryOp::BitXor, a, b); }
inline Tensor maximum(const Tensor& a, const Tensor& b) { return binary(BinaryOp::Maximum, a, b); }
inline Tensor minimum(const Tensor& a, const Tensor& b) { return binary(BinaryOp::Minimum, a, b); }

enum class UnaryOp {
  Neg, Abs, BitNot, LogicalNot,                          // keep dtype (LogicalNot -> bool)
  Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Tanh, Sigmoid, Reciprocal,  // ints -> float32
  Floor, Ceil, Round, Trunc,                             // ints unchanged
};
Tensor unary(UnaryOp op, const Tensor& x);
inline Tensor neg(const Tensor& x) { return unary(UnaryOp::Neg, x); }
inline Tensor abs(const Tensor& x) { return unary(UnaryOp::Abs, x); }
inline Tensor bitwiseNot(const Tensor& x) { return unary(UnaryOp::BitNot, x); }
inline Tensor exp(const Tensor& x) { return unary(UnaryOp::Exp, x); }
inline Tensor log(const Tensor& x) { return unary(UnaryOp::Log, x); }
inline Tensor sqrt(const Tensor& x) { return unary(UnaryOp::Sqrt, x); }

// torch.where(cond, x, y): cond must be bool; x/y promote together.
Tensor where(const Tensor& condition, const TensorOrScalar& x, const TensorOrScalar& y);
// x.masked_fill(mask, value): value where mask holds (mask broadcasts to x), x's dtype kept.
Tensor maskedFill(const Tensor& x, const Tensor& mask, const Scalar& value);
// torch.triu / torch.tril over the last two dims: elements with col - row >= diagonal (triu) or
// <= diagonal (tril) kept, the others zero.
Tensor triangle(const Tensor& x, int64_t diagonal, bool upper);
// torch.clamp(x, min=, max=): at least one bound; the result dtype promotes with the bounds.
Tensor clamp(const Tensor& x, std::optional<Scalar> min, std::optional<Scalar> max);

// C++ operators mirroring Python's (for tests and the interpreter's convenience).
inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator+(const Tensor& a, const Scalar& b) { return add(a, b); }
inline Tensor operator+(const Scalar& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator-(const Tensor& a, const Scalar& b) { return sub(a, b); }
inline Tensor operator-(const Scalar& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator*(const Tensor& a, const Scalar& b) { return mul(a, b); }
inline Tensor operator*(const Scalar& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator/(const Tensor& a, const Scalar& b) { return div(a, b); }
inline Tensor operator/(const Scalar& a, const Tensor& b) { return div(a, b); }
inline Tensor operator%(const Tensor& a, const Tensor& b) { return remainder(a, b); }
inline Tensor operator%(const Tensor& a, const Scalar& b) { return remainder(a, b); }
inline Tensor operator-(const Tensor& a) { return neg(a); }
inline Tensor operator~(const Tensor& a) { return bitwiseNot(a); }
inline Tensor operator&(const Tensor& a, const Tensor& b) { return bitwiseAnd(a, b); }
inline Tensor operator|(const Tensor& a, const Tensor& b) { return bitwiseOr(a, b); }
inline Tensor operator^(const Tensor& a, const Tensor& b) { return bitwiseXor(a, b); }
inline Tensor operator==(const Tensor& a, const Tensor& b) { return eq(a, b); }
inline Tensor operator==(const Tensor& a, const Scalar& b) { return eq(a, b); }
inline Tensor operator!=(const Tensor& a, const Tensor& b) { return ne(a, b); }
inline Tensor operator<(const Tensor& a, const Tensor& b) { return lt(a, b); }
inline Tensor operator<(const Tensor& a, const Scalar& b) { return lt(a, b); }
inline Tensor operator<=(const Tensor& a, const Tensor& b) { return le(a, b); }
inline Tensor operator>(const Tensor& a, const Tensor& b) { return gt(a, b); }
inline Tensor operator>(const Tensor& a, const Scalar& b) { return gt(a, b); }
inline Tensor operator>=(const Tensor& a, const Tensor& b) { return ge(a, b); }

}  // namespace tilescope::host
