#include "core/tensor/TensorOps.h"

#include <cmath>
#include <type_traits>
#include <vector>

#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/StridedLoop.h"
#include "core/tensor/TensorConvert.h"
#include "core/tensor/TensorError.h"
#include "core/tensor/TensorFactory.h"
#include "core/base/FloorDivMod.h"

namespace tilescope::host {

namespace {

// ---------------------------------------------------------------------------------------------------
// Kernels: one strided loop per op, specialised for the contiguous and scalar-broadcast inner runs so
// that float32 on contiguous data compiles to a vectorised loop with no per-element dispatch.

template <class TOut, class TA, class TB, class Op>
void binaryKernel(const Tensor& out, const Tensor& a, const Tensor& b, Op op) {
  const StridedLoop<3> loop(out.shape(), {broadcastByteStrides(out, out.shape()), broadcastByteStrides(a, out.shape()),
                                          broadcastByteStrides(b, out.shape())});
  loop.run({reinterpret_cast<char*>(out.rawData()), reinterpret_cast<char*>(a.rawData()),
            reinterpret_cast<char*>(b.rawData())},
           [&](std::array<char*, 3> p, const std::array<int64_t, 3>& s, int64_t n) {
             TOut* o = reinterpret_cast<TOut*>(p[0]);
             const TA* x = reinterpret_cast<const TA*>(p[1]);
             const TB* y = reinterpret_cast<const TB*>(p[2]);
             if (s[0] == sizeof(TOut)) {
               if (s[1] == sizeof(TA) && s[2] == sizeof(TB)) {
                 for (int64_t i = 0; i < n; ++i) o[i] = fromCompute<TOut>(op(toCompute(x[i]), toCompute(y[i])));
                 return;
               }
               if (s[1] == sizeof(TA) && s[2] == 0) {
                 const auto yv = toCompute(*y);
                 for (int64_t i = 0; i < n; ++i) o[i] = fromCompute<TOut>(op(toCompute(x[i]), yv));
                 return;
               }
               if (s[1] == 0 && s[2] == sizeof(TB)) {
                 const auto xv = toCompute(*x);
                 for (int64_t i = 0; i < n; ++i) o[i] = fromCompute<TOut>(op(xv, toCompute(y[i])));
                 return;
               }
             }
             for (int64_t i = 0; i < n; ++i) {
               const TA xa = *reinterpret_cast<const TA*>(p[1] + i * s[1]);
               const TB yb = *reinterpret_cast<const TB*>(p[2] + i * s[2]);
               *reinterpret_cast<TOut*>(p[0] + i * s[0]) = fromCompute<TOut>(op(toCompute(xa), toCompute(yb)));
             }
           });
}

template <class TOut, class TIn, class Op>
void unaryKernel(const Tensor& out, const Tensor& x, Op op) {
  const StridedLoop<2> loop(out.shape(), {broadcastByteStrides(out, out.shape()), broadcastByteStrides(x, out.shape())});
  loop.run({reinterpret_cast<char*>(out.rawData()), reinterpret_cast<char*>(x.rawData())},
           [&](std::array<char*, 2> p, const std::array<int64_t, 2>& s, int64_t n) {
             if (s[0] == sizeof(TOut) && s[1] == sizeof(TIn)) {
               TOut* o = reinterpret_cast<TOut*>(p[0]);
               const TIn* in = reinterpret_cast<const TIn*>(p[1]);
               for (int64_t i = 0; i < n; ++i) o[i] = fromCompute<TOut>(op(toCompute(in[i])));
               return;
             }
             for (int64_t i = 0; i < n; ++i) {
               const TIn v = *reinterpret_cast<const TIn*>(p[1] + i * s[1]);
               *reinterpret_cast<TOut*>(p[0] + i * s[0]) = fromCompute<TOut>(op(toCompute(v)));
             }
           });
}

// ---------------------------------------------------------------------------------------------------
// Scalar semantics (C is the compute type: float for half types).

template <class C>
inline constexpr bool kIsInteger = std::is_integral_v<C> && !std::is_same_v<C, bool>;

// Integer arithmetic wraps like torch's (two's complement) without C++ signed-overflow UB.
template <class C>
using Wide = std::conditional_t<(sizeof(C) < sizeof(unsigned)), unsigned, std::make_unsigned_t<C>>;

template <class C>
C wrapAdd(C a, C b) {
  if constexpr (kIsInteger<C>) return static_cast<C>(static_cast<Wide<C>>(a) + static_cast<Wide<C>>(b));
  else if constexpr (std::is_same_v<C, bool>) return a || b;
  else return a + b;
}
template <class C>
C wrapSub(C a, C b) {
  if constexpr (kIsInteger<C>) return static_cast<C>(static_cast<Wide<C>>(a) - static_cast<Wide<C>>(b));
  else return a - b;
}
template <class C>
C wrapMul(C a, C b) {
  if constexpr (kIsInteger<C>) return static_cast<C>(static_cast<Wide<C>>(a) * static_cast<Wide<C>>(b));
  else if constexpr (std::is_same_v<C, bool>) return a && b;
  else return a * b;
}

[[noreturn]] void zeroDivision() { throw TensorError("ZeroDivisionError"); }

// Python's // and % (util/FloorDivMod) as torch computes them: integer division by zero is an
// error, and a zero float remainder keeps fmod's sign (the dividend's: torch's -4.0 % 2.0 is -0.0,
// Python's 0.0).
template <class C>
util::FloorDivMod<C> torchDivMod(C a, C b) {
  if constexpr (!std::is_floating_point_v<C>) {
    if (b == C(0)) zeroDivision();
  }
  util::FloorDivMod<C> r = util::floorDivMod<C>(a, b);
  if constexpr (std::is_floating_point_v<C>) {
    if (r.remainder == 0) r.remainder = std::fmod(a, b);
  }
  return r;
}

template <class C>
C intPow(C base, C exp) {
  if constexpr (std::is_same_v<C, bool>) {
    return exp ? base : true;
  } else {
    if constexpr (std::is_signed_v<C>) {
      if (exp < 0) {
        if (base == 1) return 1;
        if (base == -1) return (exp % 2 == 0) ? C(1) : C(-1);
        return 0;
      }
    }
    C result = 1;
    while (exp) {
      if (exp & 1) result = wrapMul(result, base);
      base = wrapMul(base, base);
      exp = static_cast<C>(exp >> 1);
    }
    return result;
  }
}

template <class C>
C maxNan(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  }
  return a > b ? a : b;
}
template <class C>
C minNan(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  }
  return a < b ? a : b;
}

// ---------------------------------------------------------------------------------------------------
// Operand handling.

bool isComparison(BinaryOp op) {
  return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
         op == BinaryOp::Gt || op == BinaryOp::Ge;
}
bool isBitwise(BinaryOp op) { return op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor; }

PromotionOperand promotionOperand(const TensorOrScalar& v) {
  if (!v.isTensor()) return {v.scalar().naturalDType(), PromotionOperand::Priority::WrappedNumber};
  return {v.tensor().dtype(), v.tensor().dim() == 0 ? PromotionOperand::Priority::ZeroDim
                                                    : PromotionOperand::Priority::Dimensioned};
}

// The operand as a tensor of `dtype` (a Python number becomes a 0-dim tensor).
Tensor materialise(const TensorOrScalar& v, DType dtype, const Device& device) {
  if (v.isTensor()) return v.tensor().to(dtype);
  Tensor t = Tensor::allocate({}, dtype, device, true);
  fillInto(t, v.scalar());
  return t;
}

// torch lets 0-dim CPU tensors mix with tensors on any device; other mixes are an error.
Device commonDevice(std::initializer_list<const TensorOrScalar*> operands) {
  std::optional<Device> found;
  std::optional<Device> zeroDim;
  for (const TensorOrScalar* v : operands) {
    if (!v->isTensor()) continue;
    const Tensor& t = v->tensor();
    if (t.dim() == 0 && t.device().isCpu()) {
      if (!zeroDim) zeroDim = t.device();
      continue;
    }
    if (found && *found != t.device()) {
      throw TensorError("Expected all tensors to be on the same device, but found at least two devices, " +
                        found->str() + " and " + t.device().str() + "!");
    }
    if (!found) found = t.device();
  }
  return found ? *found : zeroDim.value_or(Device());
}

std::string opSymbolError(BinaryOp op, DType t) {
  const char* name = op == BinaryOp::BitAnd ? "bitwise_and_cpu" : op == BinaryOp::BitOr ? "bitwise_or_cpu" : "bitwise_xor_cpu";
  return "\"" + std::string(name) + "\" not implemented for '" + std::string(scalarTypeName(t)) + "'";
}

// The dtype the inputs are converted to before the kernel runs.
DType computeTypeFor(BinaryOp op, DType common) {
  if (op == BinaryOp::Div && isIntegralType(common, true)) return kDefaultFloat;
  return common;
}

template <class T>
void runBinary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b, bool scalarExponent, double exponent) {
  using C = ComputeType<T>;
  switch (op) {
    case BinaryOp::Add: return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return wrapAdd<C>(x, y); });
    case BinaryOp::Sub: return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return wrapSub<C>(x, y); });
    case BinaryOp::Mul: return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return wrapMul<C>(x, y); });
    case BinaryOp::Div:
      if constexpr (std::is_floating_point_v<C>) return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return x / y; });
      break;
    case BinaryOp::FloorDiv: return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return torchDivMod<C>(x, y).quotient; });
    case BinaryOp::Mod: return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return torchDivMod<C>(x, y).remainder; });
    case BinaryOp::Pow:
      if constexpr (std::is_floating_point_v<C>) {
        // torch's pow(tensor, scalar) kernel special-cases these exponents (a multiply is not powf).
        if (scalarExponent) {
          if (exponent == 2.0) return binaryKernel<T, T, T>(out, a, b, [](C x, C) { return x * x; });
          if (exponent == 3.0) return binaryKernel<T, T, T>(out, a, b, [](C x, C) { return x * x * x; });
          if (exponent == 0.5) return binaryKernel<T, T, T>(out, a, b, [](C x, C) { return std::sqrt(x); });
          if (exponent == -0.5) return binaryKernel<T, T, T>(out, a, b, [](C x, C) { return C(1) / std::sqrt(x); });
          if (exponent == -1.0) return binaryKernel<T, T, T>(out, a, b, [](C x, C) { return C(1) / x; });
          if (exponent == -2.0) return binaryKernel<T, T, T>(out, a, b, [](C x, C) { return C(1) / (x * x); });
        }
        return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return std::pow(x, y); });
      } else {
        return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return intPow<C>(x, y); });
      }
    case BinaryOp::Eq: return binaryKernel<bool, T, T>(out, a, b, [](C x, C y) { return x == y; });
    case BinaryOp::Ne: return binaryKernel<bool, T, T>(out, a, b, [](C x, C y) { return x != y; });
    case BinaryOp::Lt: return binaryKernel<bool, T, T>(out, a, b, [](C x, C y) { return x < y; });
    case BinaryOp::Le: return binaryKernel<bool, T, T>(out, a, b, [](C x, C y) { return x <= y; });
    case BinaryOp::Gt: return binaryKernel<bool, T, T>(out, a, b, [](C x, C y) { return x > y; });
    case BinaryOp::Ge: return binaryKernel<bool, T, T>(out, a, b, [](C x, C y) { return x >= y; });
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
      if constexpr (std::is_integral_v<C>) {
        if (op == BinaryOp::BitAnd) return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return static_cast<C>(x & y); });
        if (op == BinaryOp::BitOr) return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return static_cast<C>(x | y); });
        return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return static_cast<C>(x ^ y); });
      }
      break;
    case BinaryOp::Maximum: return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return maxNan<C>(x, y); });
    case BinaryOp::Minimum: return binaryKernel<T, T, T>(out, a, b, [](C x, C y) { return minNan<C>(x, y); });
    case BinaryOp::LogicalAnd: return binaryKernel<bool, T, T>(out, a, b, [](C x, C y) { return x != C(0) && y != C(0); });
    case BinaryOp::LogicalOr: return binaryKernel<bool, T, T>(out, a, b, [](C x, C y) { return x != C(0) || y != C(0); });
  }
  throw TensorError("unsupported binary operation for dtype " + torchDTypeName(dtypeOf<T>()));
}

}  // namespace

bool canCast(DType from, DType to) {
  if (isFloatingType(from) && isIntegralType(to, true)) return false;
  if (from != DType::I1 && to == DType::I1) return false;
  return true;
}

DType binaryResultType(BinaryOp op, const TensorOrScalar& a, const TensorOrScalar& b) {
  const PromotionOperand ops[2] = {promotionOperand(a), promotionOperand(b)};
  const DType common = resultType(ops);
  if (isComparison(op) || op == BinaryOp::LogicalAnd || op == BinaryOp::LogicalOr) return DType::I1;
  return computeTypeFor(op, common);
}

Tensor binary(BinaryOp op, const TensorOrScalar& a, const TensorOrScalar& b) {
  if (!a.isTensor() && !b.isTensor()) throw TensorError("binary tensor operation needs at least one tensor operand", TensorError::Kind::TypeError);
  const PromotionOperand ops[2] = {promotionOperand(a), promotionOperand(b)};
  const DType common = resultType(ops);
  const DType compute = computeTypeFor(op, common);

  if (op == BinaryOp::Sub && common == DType::I1) {
    throw TensorError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
  }
  if (isBitwise(op) && isFloatingType(compute)) throw TensorError(opSymbolError(op, compute));
  const bool scalarExponent = op == BinaryOp::Pow && !b.isTensor();
  if (scalarExponent && isIntegralType(compute, false) && b.scalar().isInt() && b.scalar().toInt() < 0) {
    throw TensorError("Integers to negative integer powers are not allowed.");
  }

  const Device device = commonDevice({&a, &b});
  const Tensor ta = materialise(a, compute, device);
  const Tensor tb = materialise(b, compute, device);
  const Shape shape = broadcastShapes(ta.shape(), tb.shape());
  const DType outType = (isComparison(op) || op == BinaryOp::LogicalAnd || op == BinaryOp::LogicalOr) ? DType::I1 : compute;
  Tensor out = Tensor::allocate(shape, outType, device, true);
  const double exponent = scalarExponent ? b.scalar().toDouble() : 0.0;
  dispatchDType(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    runBinary<T>(op, out, ta, tb, scalarExponent, exponent);
  });
  return out;
}

Tensor& binaryInPlace(BinaryOp op, Tensor& self, const TensorOrScalar& other) {
  Tensor result = binary(op, self, other);
  if (!canCast(result.dtype(), self.dtype())) {
    throw TensorError("result type " + std::string(scalarTypeName(result.dtype())) +
                      " can't be cast to the desired output type " + std::string(scalarTypeName(self.dtype())));
  }
  if (result.shape() != self.shape()) {
    throw TensorError("output with shape " + shapeRepr(self.shape()) + " doesn't match the broadcast shape " +
                      shapeRepr(result.shape()));
  }
  copyInto(self, result);
  return self;
}

Tensor unary(UnaryOp op, const Tensor& x) {
  const DType in = x.dtype();
  const bool floatingOp = op == UnaryOp::Exp || op == UnaryOp::Exp2 || op == UnaryOp::Log || op == UnaryOp::Log2 ||
                          op == UnaryOp::Sqrt || op == UnaryOp::Rsqrt || op == UnaryOp::Sin || op == UnaryOp::Cos ||
                          op == UnaryOp::Tanh || op == UnaryOp::Sigmoid || op == UnaryOp::Reciprocal;
  if (op == UnaryOp::Neg && in == DType::I1) {
    throw TensorError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  }
  if (op == UnaryOp::BitNot && isFloatingType(in)) {
    throw TensorError("\"bitwise_not_cpu\" not implemented for '" + std::string(scalarTypeName(in)) + "'");
  }
  // Integer inputs of floating functions compute (and return) the default float dtype.
  const DType compute = (floatingOp && isIntegralType(in, true)) ? kDefaultFloat : in;
  const DType outType = op == UnaryOp::LogicalNot ? DType::I1 : compute;
  const Tensor src = x.to(compute);
  Tensor out = Tensor::allocate(x.shape(), outType, x.device(), true);
  dispatchDType(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    if (op == UnaryOp::LogicalNot) return unaryKernel<bool, T>(out, src, [](C v) { return v == C(0); });
    if constexpr (std::is_floating_point_v<C>) {
      switch (op) {
        case UnaryOp::Neg: return unaryKernel<T, T>(out, src, [](C v) { return -v; });
        case UnaryOp::Abs: return unaryKernel<T, T>(out, src, [](C v) { return std::fabs(v); });
        case UnaryOp::Exp: return unaryKernel<T, T>(out, src, [](C v) { return std::exp(v); });
        case UnaryOp::Exp2: return unaryKernel<T, T>(out, src, [](C v) { return std::exp2(v); });
        case UnaryOp::Log: return unaryKernel<T, T>(out, src, [](C v) { return std::log(v); });
        case UnaryOp::Log2: return unaryKernel<T, T>(out, src, [](C v) { return std::log2(v); });
        case UnaryOp::Sqrt: return unaryKernel<T, T>(out, src, [](C v) { return std::sqrt(v); });
        case UnaryOp::Rsqrt: return unaryKernel<T, T>(out, src, [](C v) { return C(1) / std::sqrt(v); });
        case UnaryOp::Sin: return unaryKernel<T, T>(out, src, [](C v) { return std::sin(v); });
        case UnaryOp::Cos: return unaryKernel<T, T>(out, src, [](C v) { return std::cos(v); });
        case UnaryOp::Tanh: return unaryKernel<T, T>(out, src, [](C v) { return std::tanh(v); });
        case UnaryOp::Sigmoid: return unaryKernel<T, T>(out, src, [](C v) { return C(1) / (C(1) + std::exp(-v)); });
        case UnaryOp::Reciprocal: return unaryKernel<T, T>(out, src, [](C v) { return C(1) / v; });
        case UnaryOp::Floor: return unaryKernel<T, T>(out, src, [](C v) { return std::floor(v); });
        case UnaryOp::Ceil: return unaryKernel<T, T>(out, src, [](C v) { return std::ceil(v); });
        case UnaryOp::Round: return unaryKernel<T, T>(out, src, [](C v) { return std::nearbyint(v); });  // half to even
        case UnaryOp::Trunc: return unaryKernel<T, T>(out, src, [](C v) { return std::trunc(v); });
        default: break;
      }
    } else {
      switch (op) {
        case UnaryOp::Neg: return unaryKernel<T, T>(out, src, [](C v) { return wrapSub<C>(C(0), v); });
        case UnaryOp::Abs:
          if constexpr (std::is_signed_v<C>) return unaryKernel<T, T>(out, src, [](C v) { return v < C(0) ? wrapSub<C>(C(0), v) : v; });
          else return unaryKernel<T, T>(out, src, [](C v) { return v; });
        case UnaryOp::BitNot:
          if constexpr (std::is_same_v<C, bool>) return unaryKernel<T, T>(out, src, [](C v) { return !v; });
          else return unaryKernel<T, T>(out, src, [](C v) { return static_cast<C>(~v); });
        case UnaryOp::Floor:
        case UnaryOp::Ceil:
        case UnaryOp::Round:
        case UnaryOp::Trunc: return unaryKernel<T, T>(out, src, [](C v) { return v; });
        default: break;
      }
    }
    throw TensorError("unsupported unary operation for dtype " + torchDTypeName(compute));
  });
  return out;
}

Tensor where(const Tensor& condition, const TensorOrScalar& x, const TensorOrScalar& y) {
  if (condition.dtype() != DType::I1) {
    throw TensorError("where expected condition to be a boolean tensor, but got a tensor with dtype " +
                      std::string(scalarTypeName(condition.dtype())));
  }
  const PromotionOperand ops[2] = {promotionOperand(x), promotionOperand(y)};
  const DType dtype = resultType(ops);
  const TensorOrScalar condOperand(condition);
  const Device device = commonDevice({&condOperand, &x, &y});
  const Tensor tx = materialise(x, dtype, device);
  const Tensor ty = materialise(y, dtype, device);
  const Shape shape = broadcastShapes(broadcastShapes(condition.shape(), tx.shape()), ty.shape());
  Tensor out = Tensor::allocate(shape, dtype, device, true);
  dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const StridedLoop<4> loop(shape, {broadcastByteStrides(out, shape), broadcastByteStrides(condition, shape),
                                      broadcastByteStrides(tx, shape), broadcastByteStrides(ty, shape)});
    loop.run({reinterpret_cast<char*>(out.rawData()), reinterpret_cast<char*>(condition.rawData()),
              reinterpret_cast<char*>(tx.rawData()), reinterpret_cast<char*>(ty.rawData())},
             [](std::array<char*, 4> p, const std::array<int64_t, 4>& s, int64_t n) {
               for (int64_t i = 0; i < n; ++i) {
                 const bool c = *reinterpret_cast<const uint8_t*>(p[1] + i * s[1]) != 0;
                 *reinterpret_cast<T*>(p[0] + i * s[0]) =
                     c ? *reinterpret_cast<const T*>(p[2] + i * s[2]) : *reinterpret_cast<const T*>(p[3] + i * s[3]);
               }
             });
  });
  return out;
}

Tensor maskedFill(const Tensor& x, const Tensor& mask, const Scalar& value) {
  if (mask.dtype() != DType::I1)
    throw TensorError("masked_fill_ only supports boolean masks, but got mask with dtype " +
                      std::string(scalarTypeName(mask.dtype())));
  if (broadcastShapes(x.shape(), mask.shape()) != x.shape())
    throw TensorError("masked_fill: the mask's shape does not broadcast to the tensor's shape");
  Tensor filled = where(mask, TensorOrScalar(value), TensorOrScalar(x));
  return filled.dtype() == x.dtype() ? filled : filled.to(x.dtype());
}

Tensor triangle(const Tensor& x, int64_t diagonal, bool upper) {
  if (x.dim() < 2)
    throw TensorError(std::string(upper ? "triu" : "tril") + ": input tensor must have at least 2 dimensions");
  const int64_t rows = x.shape()[x.dim() - 2], cols = x.shape()[x.dim() - 1];
  const Tensor row = arange(Scalar(rows), TensorOptions(x.device())).view({rows, 1});
  const Tensor col = arange(Scalar(cols), TensorOptions(x.device())).view({1, cols});
  const Tensor offset = binary(BinaryOp::Sub, col, row);  // col - row
  const Tensor keep = binary(upper ? BinaryOp::Ge : BinaryOp::Le, offset, Scalar(diagonal));
  const Scalar zero = x.dtype() == DType::I1 ? Scalar(false) : Scalar(int64_t{0});
  return maskedFill(x, binary(BinaryOp::Eq, keep, Scalar(false)), zero);
}

Tensor clamp(const Tensor& x, std::optional<Scalar> min, std::optional<Scalar> max) {
  if (!min && !max) throw TensorError("torch.clamp: At least one of 'min' or 'max' must not be None");
  std::vector<PromotionOperand> ops = {promotionOperand(x)};
  if (min) ops.push_back(promotionOperand(*min));
  if (max) ops.push_back(promotionOperand(*max));
  const DType dtype = resultType(ops);
  const Tensor src = x.to(dtype);
  Tensor out = Tensor::allocate(x.shape(), dtype, x.device(), true);
  dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    // The bounds are converted to the result dtype first, as torch does.
    const C lo = min ? toCompute(min->isFloat() ? convertValue<T>(min->toDouble()) : convertValue<T>(min->toInt())) : C(0);
    const C hi = max ? toCompute(max->isFloat() ? convertValue<T>(max->toDouble()) : convertValue<T>(max->toInt())) : C(0);
    const bool hasLo = min.has_value(), hasHi = max.has_value();
    unaryKernel<T, T>(out, src, [=](C v) {
      if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(v)) return v;
      }
      if (hasLo) v = maxNan<C>(v, lo);
      if (hasHi) v = minNan<C>(v, hi);
      return v;
    });
  });
  return out;
}

}  // namespace tilescope::host
