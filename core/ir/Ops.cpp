#include "core/ir/Ops.h"

namespace tilescope::ir {

bool isComparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::Eq:
    case BinaryOp::Ne:
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge: return true;
    default: return false;
  }
}

int mathFnArity(MathFn fn) {
  switch (fn) {
    case MathFn::Fma: return 3;
    case MathFn::FDiv:
    case MathFn::DivRn:
    case MathFn::Umulhi:
    case MathFn::Atan2:
    case MathFn::Pow:
    case MathFn::Hypot:
    case MathFn::Fmod:
    case MathFn::Copysign:
    case MathFn::Fdim:
    case MathFn::Remainder:
    case MathFn::Rhypot:
    case MathFn::Nextafter:
      return 2;
    default: return 1;
  }
}

bool isLibdeviceMath(MathFn fn) { return fn >= MathFn::Acos; }

std::string_view unaryOpName(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "neg";
    case UnaryOp::Invert: return "invert";
  }
  return "?";
}

std::string_view binaryOpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "add";
    case BinaryOp::Sub: return "sub";
    case BinaryOp::Mul: return "mul";
    case BinaryOp::TrueDiv: return "truediv";
    case BinaryOp::Div: return "div";
    case BinaryOp::Mod: return "mod";
    case BinaryOp::And: return "and";
    case BinaryOp::Or: return "or";
    case BinaryOp::Xor: return "xor";
    case BinaryOp::Shl: return "shl";
    case BinaryOp::Shr: return "shr";
    case BinaryOp::Min: return "min";
    case BinaryOp::Max: return "max";
    case BinaryOp::Eq: return "eq";
    case BinaryOp::Ne: return "ne";
    case BinaryOp::Lt: return "lt";
    case BinaryOp::Le: return "le";
    case BinaryOp::Gt: return "gt";
    case BinaryOp::Ge: return "ge";
    case BinaryOp::LogicalAnd: return "logical_and";
    case BinaryOp::LogicalOr: return "logical_or";
  }
  return "?";
}

std::string_view mathFnName(MathFn fn) {
  switch (fn) {
    case MathFn::Exp: return "exp";
    case MathFn::Exp2: return "exp2";
    case MathFn::Log: return "log";
    case MathFn::Log2: return "log2";
    case MathFn::Sqrt: return "sqrt";
    case MathFn::SqrtRn: return "sqrt_rn";
    case MathFn::Rsqrt: return "rsqrt";
    case MathFn::Abs: return "abs";
    case MathFn::Sin: return "sin";
    case MathFn::Cos: return "cos";
    case MathFn::Tanh: return "tanh";
    case MathFn::Sigmoid: return "sigmoid";
    case MathFn::Floor: return "floor";
    case MathFn::Ceil: return "ceil";
    case MathFn::Erf: return "erf";
    case MathFn::Fma: return "fma";
    case MathFn::FDiv: return "fdiv";
    case MathFn::DivRn: return "div_rn";
    case MathFn::Umulhi: return "umulhi";
    case MathFn::Acos: return "acos";
    case MathFn::Acosh: return "acosh";
    case MathFn::Asin: return "asin";
    case MathFn::Asinh: return "asinh";
    case MathFn::Atan: return "atan";
    case MathFn::Atanh: return "atanh";
    case MathFn::Cbrt: return "cbrt";
    case MathFn::Cosh: return "cosh";
    case MathFn::Sinh: return "sinh";
    case MathFn::Tan: return "tan";
    case MathFn::Erfc: return "erfc";
    case MathFn::Exp10: return "exp10";
    case MathFn::Expm1: return "expm1";
    case MathFn::Log10: return "log10";
    case MathFn::Log1p: return "log1p";
    case MathFn::Trunc: return "trunc";
    case MathFn::Round: return "round";
    case MathFn::Rint: return "rint";
    case MathFn::Nearbyint: return "nearbyint";
    case MathFn::Lgamma: return "lgamma";
    case MathFn::Tgamma: return "tgamma";
    case MathFn::Atan2: return "atan2";
    case MathFn::Pow: return "pow";
    case MathFn::Hypot: return "hypot";
    case MathFn::Fmod: return "fmod";
    case MathFn::Copysign: return "copysign";
    case MathFn::Fdim: return "fdim";
    case MathFn::Remainder: return "remainder";
    case MathFn::Nextafter: return "nextafter";
    case MathFn::Logb: return "logb";
    case MathFn::Rcbrt: return "rcbrt";
    case MathFn::Sinpi: return "sinpi";
    case MathFn::Cospi: return "cospi";
    case MathFn::J0: return "j0";
    case MathFn::J1: return "j1";
    case MathFn::Y0: return "y0";
    case MathFn::Y1: return "y1";
    case MathFn::Normcdf: return "normcdf";
    case MathFn::Rhypot: return "rhypot";
  }
  return "?";
}

std::string_view roundingModeName(RoundingMode m) {
  switch (m) {
    case RoundingMode::None: return "";
    case RoundingMode::RTNE: return "rtne";
    case RoundingMode::RTZ: return "rtz";
  }
  return "?";
}

std::string_view cacheModifierName(CacheModifier c) {
  switch (c) {
    case CacheModifier::None: return "";
    case CacheModifier::CA: return ".ca";
    case CacheModifier::CG: return ".cg";
    case CacheModifier::CV: return ".cv";
    case CacheModifier::WB: return ".wb";
    case CacheModifier::CS: return ".cs";
    case CacheModifier::WT: return ".wt";
  }
  return "?";
}

std::string_view evictionPolicyName(EvictionPolicy e) {
  switch (e) {
    case EvictionPolicy::Normal: return "";
    case EvictionPolicy::EvictFirst: return "evict_first";
    case EvictionPolicy::EvictLast: return "evict_last";
  }
  return "?";
}

std::string_view atomicOpName(AtomicOp op) {
  switch (op) {
    case AtomicOp::Add: return "add";
    case AtomicOp::Max: return "max";
    case AtomicOp::Min: return "min";
    case AtomicOp::Xchg: return "xchg";
    case AtomicOp::And: return "and";
    case AtomicOp::Or: return "or";
    case AtomicOp::Xor: return "xor";
  }
  return "?";
}

std::string_view memSemanticName(MemSemantic s) {
  switch (s) {
    case MemSemantic::AcqRel: return "acq_rel";
    case MemSemantic::Acquire: return "acquire";
    case MemSemantic::Release: return "release";
    case MemSemantic::Relaxed: return "relaxed";
  }
  return "?";
}

std::string_view memScopeName(MemScope s) {
  switch (s) {
    case MemScope::Gpu: return "gpu";
    case MemScope::Cta: return "cta";
    case MemScope::Sys: return "sys";
  }
  return "?";
}

std::string_view reduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Max: return "max";
    case ReduceOp::Min: return "min";
    case ReduceOp::ArgMax: return "argmax";
    case ReduceOp::ArgMin: return "argmin";
    case ReduceOp::XorSum: return "xor_sum";
  }
  return "?";
}

std::string_view scanOpName(ScanOp op) {
  switch (op) {
    case ScanOp::CumSum: return "cumsum";
    case ScanOp::CumProd: return "cumprod";
  }
  return "?";
}

std::string_view inputPrecisionName(InputPrecision p) {
  switch (p) {
    case InputPrecision::IEEE: return "ieee";
    case InputPrecision::TF32: return "tf32";
    case InputPrecision::TF32x3: return "tf32x3";
  }
  return "?";
}

std::string_view randKindName(RandKind k) {
  switch (k) {
    case RandKind::Int: return "randint";
    case RandKind::Int4x: return "randint4x";
    case RandKind::Uniform: return "rand";
    case RandKind::Normal: return "randn";
  }
  return "?";
}

std::string_view hintKindName(HintKind k) {
  switch (k) {
    case HintKind::MultipleOf: return "multiple_of";
    case HintKind::MaxContiguous: return "max_contiguous";
    case HintKind::MaxConstancy: return "max_constancy";
  }
  return "?";
}

std::string_view loopKindName(LoopKind k) {
  switch (k) {
    case LoopKind::Range: return "range";
    case LoopKind::TlRange: return "tl.range";
  }
  return "?";
}

std::optional<CacheModifier> parseLoadCacheModifier(std::string_view s) {
  if (s.empty()) return CacheModifier::None;
  if (s == ".ca") return CacheModifier::CA;
  if (s == ".cg") return CacheModifier::CG;
  if (s == ".cv") return CacheModifier::CV;
  return std::nullopt;
}

std::optional<CacheModifier> parseStoreCacheModifier(std::string_view s) {
  if (s.empty()) return CacheModifier::None;
  if (s == ".wb") return CacheModifier::WB;
  if (s == ".cg") return CacheModifier::CG;
  if (s == ".cs") return CacheModifier::CS;
  if (s == ".wt") return CacheModifier::WT;
  return std::nullopt;
}

std::optional<EvictionPolicy> parseEvictionPolicy(std::string_view s) {
  if (s.empty()) return EvictionPolicy::Normal;
  if (s == "evict_first") return EvictionPolicy::EvictFirst;
  if (s == "evict_last") return EvictionPolicy::EvictLast;
  return std::nullopt;
}

std::optional<MemSemantic> parseMemSemantic(std::string_view s) {
  if (s.empty() || s == "acq_rel") return MemSemantic::AcqRel;
  if (s == "acquire") return MemSemantic::Acquire;
  if (s == "release") return MemSemantic::Release;
  if (s == "relaxed") return MemSemantic::Relaxed;
  return std::nullopt;
}

std::optional<MemScope> parseMemScope(std::string_view s) {
  if (s.empty() || s == "gpu") return MemScope::Gpu;
  if (s == "cta") return MemScope::Cta;
  if (s == "sys") return MemScope::Sys;
  return std::nullopt;
}

std::optional<InputPrecision> parseInputPrecision(std::string_view s) {
  if (s == "ieee") return InputPrecision::IEEE;
  if (s == "tf32") return InputPrecision::TF32;
  if (s == "tf32x3") return InputPrecision::TF32x3;
  return std::nullopt;
}

std::optional<RoundingMode> parseRoundingMode(std::string_view s) {
  if (s.empty()) return RoundingMode::None;
  if (s == "rtne") return RoundingMode::RTNE;
  if (s == "rtz") return RoundingMode::RTZ;
  return std::nullopt;
}

}  // namespace tilescope::ir
