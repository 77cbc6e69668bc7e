#include "core/ir/TypeRules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tilescope::ir {

namespace {


std::string name(DType t) { return std::string(dtypeName(t)); }

// C's usual arithmetic conversions, as Triton's integer_promote_impl applies them (i1 counts as an
// unsigned 1-bit integer).
DType integerPromote(DType a, DType b) {
  const int ra = bitWidth(a), rb = bitWidth(b);
  const bool ua = isUnsignedInt(a), ub = isUnsignedInt(b);
  if (ua == ub) return ra > rb ? a : b;
  if (ua) return ra >= rb ? a : b;
  return rb >= ra ? b : a;
}

bool isDivOrMod(BinaryOp op) { return op == BinaryOp::TrueDiv || op == BinaryOp::Div || op == BinaryOp::Mod; }

bool isBitwise(BinaryOp op) {
  return op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor || op == BinaryOp::Shl || op == BinaryOp::Shr;
}

std::string literalText(const Operand& o) {
  if (kind(o.dtype) == DTypeKind::Floating) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", o.floatValue);
    return buf;
  }
  if (o.dtype == DType::I1) return o.intValue ? "True" : "False";
  return std::to_string(o.intValue);
}

}  // namespace

DType literalIntDType(int64_t v) {
  if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) return DType::I32;
  if (v >= 0 && v <= static_cast<int64_t>(std::numeric_limits<uint32_t>::max())) return DType::U32;
  return DType::I64;
}

DType literalFloatDType(double v) {
  const double a = std::fabs(v);
  const double minNormal = std::ldexp(1.0, -126);
  const double maxFloat = static_cast<double>(std::numeric_limits<float>::max());
  if (std::isinf(a) || a == 0.0 || std::isnan(v) || (a >= minNormal && a <= maxFloat)) return DType::FP32;
  return DType::FP64;
}

int64_t wrapToDType(DType t, int64_t v) {
  const int bits = bitWidth(t);
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (isSignedInt(t) && (u >> (bits - 1)) & 1) u |= ~mask;  // sign-extend
  return static_cast<int64_t>(u);
}

bool fitsInDType(DType t, int64_t v) {
  if (!isInt(t)) return true;
  if (v < intMin(t)) return false;
  if (v < 0) return true;
  return static_cast<uint64_t>(v) <= intMaxU(t);
}

bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int64_t nextPowerOf2(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

Operand Operand::tensor(DType t, bool pointer) {
  Operand o;
  o.dtype = t;
  o.isPointer = pointer;
  return o;
}

Operand Operand::literalBool(bool v) {
  Operand o;
  o.dtype = DType::I1;
  o.isLiteral = true;
  o.intValue = v ? 1 : 0;
  return o;
}

Operand Operand::literalInt(int64_t v) {
  Operand o;
  o.dtype = literalIntDType(v);
  o.isLiteral = true;
  o.intValue = v;
  return o;
}

Operand Operand::literalFloat(double v) {
  Operand o;
  o.dtype = literalFloatDType(v);
  o.isLiteral = true;
  o.floatValue = v;
  return o;
}

std::string Operand::str() const {
  if (isLiteral) {
    const char* k = dtype == DType::I1 ? "bool" : kind(dtype) == DTypeKind::Floating ? "float" : "int";
    return std::string(k) + " " + literalText(*this);
  }
  return isPointer ? "ptr<" + name(dtype) + ">" : name(dtype);
}

std::string_view binaryOpSymbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::TrueDiv: return "/";
    case BinaryOp::Div: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::And: return "&";
    case BinaryOp::Or: return "|";
    case BinaryOp::Xor: return "^";
    case BinaryOp::Shl: return "<<";
    case BinaryOp::Shr: return ">>";
    case BinaryOp::Min: return "minimum";
    case BinaryOp::Max: return "maximum";
    case BinaryOp::Eq: return "==";
    case BinaryOp::Ne: return "!=";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
    case BinaryOp::LogicalAnd: return "and";
    case BinaryOp::LogicalOr: return "or";
  }
  return "?";
}

RuleResult<DType> computationDType(const Operand& a, const Operand& b, bool divOrMod) {
  // A Python number of a lower or equal kind than the tensor does not take part in promotion.
  if (a.isLiteral != b.isLiteral) {
    const Operand& lit = a.isLiteral ? a : b;
    const Operand& ten = a.isLiteral ? b : a;
    if (kind(lit.dtype) <= kind(ten.dtype)) {
      if (divOrMod && (ten.dtype == DType::FP16 || ten.dtype == DType::BF16)) return DType::FP32;
      return ten.dtype;
    }
  }
  const DType x = a.dtype, y = b.dtype;
  auto either = [&](DType t) { return x == t || y == t; };
  if (either(DType::FP64)) return DType::FP64;
  if (either(DType::FP32)) return DType::FP32;
  if (either(DType::FP16) && either(DType::BF16)) return DType::FP32;
  if (either(DType::FP16)) return divOrMod ? DType::FP32 : DType::FP16;
  if (x == DType::BF16 && y == DType::BF16) return divOrMod ? DType::FP32 : DType::BF16;
  if (either(DType::BF16)) return DType::FP32;
  if (isFp8(x) && isFp8(y)) return x == y ? x : DType::FP16;
  if (!isInt(x) || !isInt(y))
    return RuleResult<DType>::failure("cannot combine " + a.str() + " and " + b.str() +
                                      " in arithmetic; convert the fp8 value to fp16 or fp32 first with .to()");
  if (divOrMod && isUnsignedInt(x) != isUnsignedInt(y))
    return RuleResult<DType>::failure("cannot use '/', '//' or '%' on " + a.str() + " and " + b.str() +
                                      " because they have different signedness; cast them to the same signedness");
  return integerPromote(x, y);
}

RuleResult<BinaryTyping> binaryTyping(BinaryOp op, const Operand& a, const Operand& b) {
  using R = RuleResult<BinaryTyping>;
  const std::string sym(binaryOpSymbol(op));
  BinaryTyping t;

  if (a.isPointer || b.isPointer) {
    if (op == BinaryOp::Sub && a.isPointer && b.isPointer)
      return R::failure("cannot subtract two pointers (" + a.str() + " - " + b.str() +
                        "); Triton has no pointer difference - subtract the integer offsets instead");
    const bool arith = op == BinaryOp::Add || (op == BinaryOp::Sub && a.isPointer);
    if (!arith)
      return R::failure("invalid operands of type " + a.str() + " and " + b.str() + " for '" + sym +
                        "'; pointers only support '+' and '-' with integer offsets");
    if (a.isPointer && b.isPointer)
      return R::failure("cannot add two pointers (" + a.str() + " + " + b.str() + "); add an integer offset to one of them");
    const Operand& ptr = a.isPointer ? a : b;
    const Operand& off = a.isPointer ? b : a;
    if (!isInt(off.dtype))
      return R::failure("pointer offsets must be integers; got " + off.str() + " in " + a.str() + " " + sym + " " + b.str());
    t.pointerArith = true;
    t.pointerOnRight = b.isPointer;
    // Triton zero-extends unsigned offsets narrower than 64 bits so they are never negative.
    t.offsetDType = isUnsignedInt(off.dtype) && bitWidth(off.dtype) < 64 ? DType::I64 : off.dtype;
    t.operandDType = off.dtype;
    t.resultDType = ptr.dtype;
    return t;
  }

  if (op == BinaryOp::LogicalAnd || op == BinaryOp::LogicalOr) {
    t.operandDType = DType::I1;
    t.resultDType = DType::I1;
    return t;
  }

  auto comp = computationDType(a, b, isDivOrMod(op));
  if (!comp) return R::failure(comp.error());
  const DType c = *comp;
  for (const Operand* o : {&a, &b}) {
    if (!o->isLiteral || !isInt(o->dtype)) continue;
    if (o->intValue < 0 && isUnsignedInt(c))
      return R::failure("cannot combine an unsigned " + name(c) + " tensor with the negative scalar " + literalText(*o) +
                        "; cast one of them explicitly");
    if (isInt(c) && !fitsInDType(c, o->intValue))
      return R::failure("scalar " + literalText(*o) + " is out of range for " + name(c) + " (the other operand's type)");
  }
  t.operandDType = c;
  t.resultDType = c;
  if (op == BinaryOp::TrueDiv) {
    t.operandDType = isFloat(c) ? c : DType::FP32;  // int / int is true division in fp32
    t.resultDType = t.operandDType;
  } else if (op == BinaryOp::Div) {
    if (!isInt(c))
      return R::failure("'//' needs integer operands (got " + a.str() + " and " + b.str() +
                        "); use '/' for floats, then tl.floor if you need to round down");
  } else if (isBitwise(op)) {
    if (!isInt(c))
      return R::failure("'" + sym + "' needs integer operands (got " + a.str() + " and " + b.str() + ")");
  } else if (isComparison(op)) {
    t.resultDType = DType::I1;
  }
  return t;
}

RuleResult<Shape> broadcastShapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape pa(rank - a.size(), 1), pb(rank - b.size(), 1);
  pa.insert(pa.end(), a.begin(), a.end());
  pb.insert(pb.end(), b.begin(), b.end());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (pa[i] == pb[i] || pb[i] == 1) {
      out[i] = pa[i];
    } else if (pa[i] == 1) {
      out[i] = pb[i];
    } else {
      return RuleResult<Shape>::failure("cannot broadcast shapes " + shapeString(a) + " and " + shapeString(b) +
                                        " (dimension " + std::to_string(i) + ": " + std::to_string(pa[i]) + " vs " +
                                        std::to_string(pb[i]) + ")");
    }
  }
  return out;
}

std::string tileShapeError(const Shape& shape, std::string_view what) {
  for (int64_t d : shape) {
    if (!isPowerOf2(d))
      return std::string(what) + " shape " + shapeString(shape) + " has a dimension that is not a power of 2 (" +
             std::to_string(d) + "); round it up with triton.next_power_of_2 and mask the extra lanes";
  }
  return tileSizeError(shape, what);
}

std::string tileSizeError(const Shape& shape, std::string_view what) {
  const int64_t n = numElements(shape);
  if (n <= kMaxTileNumel) return {};
  const std::string count = n == std::numeric_limits<int64_t>::max() ? "more than 2^63" : std::to_string(n);
  return std::string(what) + " shape " + shapeString(shape) + " has " + count +
         " elements; Triton allows at most 1048576 per tensor";
}

RuleResult<int> normalizeAxis(int64_t axis, int rank, std::string_view what) {
  if (axis < -rank || axis >= rank) {
    std::string msg = std::string(what) + " axis " + std::to_string(axis) + " is out of range for a " +
                      std::to_string(rank) + "-D tensor";
    msg += rank == 0 ? "" : " (valid: " + std::to_string(-rank) + " to " + std::to_string(rank - 1) + ")";
    return RuleResult<int>::failure(msg);
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

Shape reducedShape(const Shape& shape, std::optional<int> axis, bool keepDims) {
  if (!axis) return keepDims ? Shape(shape.size(), 1) : Shape{};
  Shape out;
  for (int i = 0; i < static_cast<int>(shape.size()); ++i) {
    if (i != *axis)
      out.push_back(shape[i]);
    else if (keepDims)
      out.push_back(1);
  }
  return out;
}

bool isPermutation(const std::vector<int>& order, int rank) {
  if (static_cast<int>(order.size()) != rank) return false;
  std::vector<bool> seen(rank, false);
  for (int d : order) {
    if (d < 0 || d >= rank || seen[d]) return false;
    seen[d] = true;
  }
  return true;
}

std::optional<DType> reductionInputDType(ReduceOp op, DType t) {
  switch (op) {
    case ReduceOp::Sum:
      if (isInt(t) && bitWidth(t) < 32) return isSignedInt(t) ? DType::I32 : DType::U32;
      return t;
    case ReduceOp::Max:
    case ReduceOp::Min:
      if (t == DType::BF16) return DType::FP32;
      if (bitWidth(t) < 32) return isFloat(t) ? DType::FP32 : DType::I32;
      return t;
    case ReduceOp::ArgMax:
    case ReduceOp::ArgMin: return t == DType::BF16 ? DType::FP32 : t;
    case ReduceOp::XorSum:
      if (!isInt(t)) return std::nullopt;
      return t;
  }
  return t;
}

std::optional<DType> scanInputDType(ScanOp op, DType t) {
  if (t == DType::BF16) t = DType::FP32;
  if (op == ScanOp::CumSum && isInt(t) && bitWidth(t) < 32) return isSignedInt(t) ? DType::I32 : DType::U32;
  return t;
}

RuleResult<DotTyping> dotTyping(const Type& a, const Type& b, const std::optional<Type>& acc,
                                std::optional<DType> outDType) {
  using R = RuleResult<DotTyping>;
  const std::string shapes = shapeString(a.shape()) + " @ " + shapeString(b.shape());
  if (a.isPointer() || b.isPointer()) return R::failure("tl.dot needs value tiles, not pointers");
  const int rank = a.rank();
  if (!((rank == 2 || rank == 3) && b.rank() == rank))
    return R::failure("tl.dot needs two 2-D (or two 3-D) operands; got " + shapes);
  const int64_t M = a.shape()[rank - 2], K = a.shape()[rank - 1];
  const int64_t K2 = b.shape()[rank - 2], N = b.shape()[rank - 1];
  if (K != K2) return R::failure("tl.dot needs 2-D operands with matching K: got " + shapes);
  if (rank == 3 && a.shape()[0] != b.shape()[0]) return R::failure("tl.dot batch dimensions differ: " + shapes);
  const DType da = a.dtype(), db = b.dtype();
  auto allowed = [](DType t) {
    return t == DType::I8 || t == DType::U8 || t == DType::FP16 || t == DType::BF16 || t == DType::FP32 ||
           t == DType::FP64 || isFp8(t);
  };
  if (!allowed(da) || !allowed(db))
    return R::failure("tl.dot does not support " + name(allowed(da) ? db : da) +
                      " operands; use fp16, bf16, fp32, fp64, fp8 or i8");
  if (da != db && !(isFp8(da) && isFp8(db)))
    return R::failure("tl.dot operands must have the same dtype (got " + name(da) + " and " + name(db) +
                      "); convert one with .to()");
  if (da == DType::U8) return R::failure("tl.dot supports i8 but not u8 integer operands");
  // NVIDIA's minimum MMA shape (Triton's min_dot_size): 16x16x16, K >= 32 for 8-bit inputs.
  const int64_t minK = bitWidth(da) == 8 ? 32 : 16;
  if (M < 16 || N < 16 || K < minK)
    return R::failure("tl.dot needs M >= 16, N >= 16 and K >= " + std::to_string(minK) + " (got M=" +
                      std::to_string(M) + ", N=" + std::to_string(N) + ", K=" + std::to_string(K) +
                      "); use larger blocks");
  DotTyping out;
  const DType want = outDType.value_or(DType::FP32);
  if (isInt(da)) {
    out.resultDType = DType::I32;
  } else if (want == DType::BF16) {
    return R::failure("tl.dot out_dtype=bfloat16 is unsupported; use float32 or float16 and convert with .to(tl.bfloat16)");
  } else if (da == DType::FP32 || da == DType::BF16) {
    out.resultDType = DType::FP32;
  } else if (da == DType::FP64) {
    out.resultDType = DType::FP64;
  } else {
    if (want != DType::FP16 && want != DType::FP32)
      return R::failure("tl.dot out_dtype must be float32 or float16, got " + name(want));
    out.resultDType = want;
  }
  out.resultShape = a.shape();
  out.resultShape[rank - 1] = N;
  if (acc) {
    if (acc->shape() != out.resultShape || acc->isPointer())
      return R::failure("tl.dot accumulator has shape " + shapeString(acc->shape()) + " but the product is " +
                        shapeString(out.resultShape));
    if (acc->dtype() != out.resultDType)
      return R::failure("tl.dot accumulator is " + name(acc->dtype()) + " but the product is " + name(out.resultDType) +
                        "; make the accumulator " + name(out.resultDType) + " (or pass out_dtype)");
  }
  return out;
}

std::string castError(const Type& from, DType dtype, bool pointer, bool bitcast) {
  const std::string to = pointer ? "ptr<" + name(dtype) + ">" : name(dtype);
  if (bitcast && !from.isPointer() && !pointer) {
    if (bitWidth(from.dtype()) != bitWidth(dtype))
      return "cannot bitcast " + from.elementString() + " (" + std::to_string(bitWidth(from.dtype())) + " bits) to " +
             to + " (" + std::to_string(bitWidth(dtype)) + " bits); a bitcast needs types of the same width";
    return {};
  }
  if (from.isPointer() && !pointer) {
    if (dtype == DType::I64 || dtype == DType::I1) return {};
    return "a pointer can only be converted to i64 (or i1), not " + to;
  }
  if (pointer && !from.isPointer()) {
    if (isInt(from.dtype())) return {};
    return "only integers can be converted to pointers, not " + from.elementString();
  }
  if (pointer) return {};  // pointer to pointer
  if ((isFp8(from.dtype()) && isInt(dtype)) || (isInt(from.dtype()) && isFp8(dtype)))
    return "cannot convert " + from.elementString() + " to " + to + " directly; go through fp32 (.to(tl.float32) first)";
  return {};
}

std::string mathDTypeError(MathFn fn, DType t) {
  std::vector<DType> ok;
  switch (fn) {
    case MathFn::Exp:
    case MathFn::Exp2:
    case MathFn::Log:
    case MathFn::Log2:
    case MathFn::Sqrt:
    case MathFn::Rsqrt:
    case MathFn::Sin:
    case MathFn::Cos:
    case MathFn::Tanh:
    case MathFn::Sigmoid:
    case MathFn::Floor:
    case MathFn::Ceil:
    case MathFn::Erf:
    case MathFn::Acos:
    case MathFn::Acosh:
    case MathFn::Asin:
    case MathFn::Asinh:
    case MathFn::Atan:
    case MathFn::Atanh:
    case MathFn::Cbrt:
    case MathFn::Cosh:
    case MathFn::Sinh:
    case MathFn::Tan:
    case MathFn::Erfc:
    case MathFn::Exp10:
    case MathFn::Expm1:
    case MathFn::Log10:
    case MathFn::Log1p:
    case MathFn::Trunc:
    case MathFn::Round:
    case MathFn::Rint:
    case MathFn::Nearbyint:
    case MathFn::Lgamma:
    case MathFn::Tgamma:
    case MathFn::Atan2:
    case MathFn::Pow:
    case MathFn::Hypot:
    case MathFn::Fmod:
    case MathFn::Copysign:
    case MathFn::Fdim:
    case MathFn::Remainder:
    case MathFn::Nextafter:
    case MathFn::Logb:
    case MathFn::Rcbrt:
    case MathFn::Sinpi:
    case MathFn::Cospi:
    case MathFn::J0:
    case MathFn::J1:
    case MathFn::Y0:
    case MathFn::Y1:
    case MathFn::Normcdf:
    case MathFn::Rhypot:
      ok = {DType::FP32, DType::FP64};
      break;
    case MathFn::SqrtRn:
    case MathFn::DivRn: ok = {DType::FP32}; break;
    case MathFn::Umulhi: ok = {DType::I32, DType::I64, DType::U32, DType::U64}; break;
    case MathFn::Abs: return {};
    case MathFn::Fma:
    case MathFn::FDiv:
      if (isFloat(t)) return {};
      return "tl." + std::string(mathFnName(fn)) + " needs floating-point operands, got " + name(t);
  }
  if (std::find(ok.begin(), ok.end(), t) != ok.end()) return {};
  std::string list;
  for (size_t i = 0; i < ok.size(); ++i) list += (i ? (i + 1 == ok.size() ? " or " : ", ") : "") + name(ok[i]);
  std::string msg = (isLibdeviceMath(fn) ? "libdevice." : "tl.") + std::string(mathFnName(fn)) + " expects " + list + " (got " + name(t) + ")";
  if (isFloat(t) || isInt(t)) msg += "; convert first, e.g. x.to(tl." + std::string(dtypePythonName(ok[0])) + ")";
  return msg;
}

}  // namespace tilescope::ir
