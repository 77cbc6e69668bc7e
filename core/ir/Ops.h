#pragma once
// Operator and attribute enums of the tile IR, with their printed names. Semantics of each value
// are documented here once; the simulator implements them and codegen translates them.
#include <cstdint>
#include <optional>
#include <string_view>

namespace tilescope::ir {

enum class UnaryOp : uint8_t {
  Neg,     // -x; integers wrap (two's complement); floats flip the sign (so -0.0 exists)
  Invert,  // ~x, all bits flipped; on i1 this is logical not (`not mask`)
};

enum class BinaryOp : uint8_t {
  Add,  // also pointer + integer offset (see Binary in Expr.h): advances by offset elements
  Sub,  // also pointer - integer offset
  Mul,
  TrueDiv,  // floats only (the checker casts int / int to fp32 first, like Triton); IEEE division
  Div,      // integers only: C division, truncates toward zero (Triton's `//` on tensors)
  Mod,      // integers: C remainder (sign of the dividend); floats: fmod (Triton's `%` on tensors)
  And,      // bitwise; integers only (i1 included)
  Or,
  Xor,
  Shl,  // shift amounts >= the width give 0 (LLVM would give poison; we pick a value)
  Shr,  // arithmetic shift for signed dtypes, logical for unsigned, like Triton
  Min,  // see Binary::propagateNan for floats
  Max,
  Eq,  // comparisons give i1; floats compare ordered (NaN != everything) except Ne, which is true
  Ne,  // for NaN, like Triton's fcmp UNE
  Lt,
  Le,
  Gt,
  Ge,
  LogicalAnd,  // i1 only (`and` on tensors; both sides are always evaluated, as in Triton)
  LogicalOr,
};

bool isComparison(BinaryOp op);

enum class MathFn : uint8_t {
  Exp,      // fp32/fp64 (the checker enforces Triton's dtype lists)
  Exp2,
  Log,
  Log2,
  Sqrt,     // "fast" square root (approximate on GPU; the simulator computes sqrt)
  SqrtRn,   // IEEE round-to-nearest square root, fp32
  Rsqrt,
  Abs,      // any numeric dtype; unsigned is a no-op
  Sin,
  Cos,
  Tanh,
  Sigmoid,  // 1 / (1 + exp(-x))
  Floor,
  Ceil,
  Erf,
  Fma,     // 3 args: a * b + c with one rounding
  FDiv,    // fast (approximate) float division; 2 args
  DivRn,   // IEEE round-to-nearest division; fp32
  Umulhi,  // high 32/64 bits of the unsigned product of two 32/64-bit integers
  // CUDA libdevice's elementwise math (libdevice.acos, ...): fp32/fp64, C's <math.h> semantics.
  Acos,
  Acosh,
  Asin,
  Asinh,
  Atan,
  Atanh,
  Cbrt,
  Cosh,
  Sinh,
  Tan,
  Erfc,
  Exp10,
  Expm1,
  Log10,
  Log1p,
  Trunc,
  Round,
  Rint,
  Nearbyint,
  Lgamma,
  Tgamma,
  Logb,     // the unbiased exponent, as a float
  Rcbrt,    // 1 / cbrt(x)
  Sinpi,    // sin(pi * x), with x reduced exactly
  Cospi,
  J0,       // Bessel functions of the first and second kind, orders 0 and 1
  J1,
  Y0,
  Y1,
  Normcdf,  // the standard normal distribution function
  // ... and its two-argument functions.
  Atan2,
  Pow,
  Hypot,
  Fmod,
  Copysign,
  Fdim,
  Remainder,
  Nextafter,
  Rhypot,  // 1 / hypot(x, y)
};

// A libdevice function that Triton's tl namespace does not have (named "libdevice.<name>").
bool isLibdeviceMath(MathFn fn);

int mathFnArity(MathFn fn);

enum class RoundingMode : uint8_t { None, RTNE, RTZ };  // fp down-casts; None means RTNE

enum class CacheModifier : uint8_t { None, CA, CG, CV, WB, CS, WT };  // ".ca", ".cg", ...
enum class EvictionPolicy : uint8_t { Normal, EvictFirst, EvictLast };

enum class AtomicOp : uint8_t { Add, Max, Min, Xchg, And, Or, Xor };
enum class MemSemantic : uint8_t { AcqRel, Acquire, Release, Relaxed };
enum class MemScope : uint8_t { Gpu, Cta, Sys };

enum class ReduceOp : uint8_t {
  Sum,
  Max,     // floats: NaN-ignoring (maxnum), as tl.max does
  Min,
  ArgMax,  // i32 index of the max; ties go to the lowest index when tieBreakLeft
  ArgMin,
  XorSum,
};
enum class ScanOp : uint8_t { CumSum, CumProd };
// A float scan's order of evaluation (the simulator's and the GPU's): the axis, in walk order, is cut
// into runs of kScanRun elements, each scanned left to right; the last element of run c then becomes
// last(c - 1) op last(c), run after run, and every other element of run c, last(c - 1) op itself.
// Within one run that is the plain left-to-right scan; the runs can be scanned in parallel.
inline constexpr int64_t kScanRun = 32;

enum class InputPrecision : uint8_t { IEEE, TF32, TF32x3 };

enum class RandKind : uint8_t {
  Int,      // tl.randint: first Philox output, u32 (u64 when offsets are 64-bit)
  Int4x,    // one of tl.randint4x's four outputs (Rand::component)
  Uniform,  // tl.rand: fp32 in [0, 1)
  Normal,   // tl.randn: fp32 standard normal (Box-Muller over Philox outputs 0 and 1)
};

enum class HintKind : uint8_t { MultipleOf, MaxContiguous, MaxConstancy };

enum class LoopKind : uint8_t {
  Range,    // Python range(...)
  TlRange,  // tl.range(...), which can carry pipelining hints
};
// tl.static_range loops never reach the IR: the checker unrolls them.

std::string_view unaryOpName(UnaryOp op);
std::string_view binaryOpName(BinaryOp op);
std::string_view mathFnName(MathFn fn);
std::string_view roundingModeName(RoundingMode m);
std::string_view cacheModifierName(CacheModifier c);  // ".ca" etc; "" for None
std::string_view evictionPolicyName(EvictionPolicy e);  // "evict_first" etc; "" for Normal
std::string_view atomicOpName(AtomicOp op);
std::string_view memSemanticName(MemSemantic s);
std::string_view memScopeName(MemScope s);
std::string_view reduceOpName(ReduceOp op);
std::string_view scanOpName(ScanOp op);
std::string_view inputPrecisionName(InputPrecision p);
std::string_view randKindName(RandKind k);
std::string_view hintKindName(HintKind k);
std::string_view loopKindName(LoopKind k);

// Parsers for the strings users pass to tl.load/tl.store/atomics/tl.dot; nullopt if unknown.
std::optional<CacheModifier> parseLoadCacheModifier(std::string_view s);
std::optional<CacheModifier> parseStoreCacheModifier(std::string_view s);
std::optional<EvictionPolicy> parseEvictionPolicy(std::string_view s);
std::optional<MemSemantic> parseMemSemantic(std::string_view s);
std::optional<MemScope> parseMemScope(std::string_view s);
std::optional<InputPrecision> parseInputPrecision(std::string_view s);
std::optional<RoundingMode> parseRoundingMode(std::string_view s);

}  // namespace tilescope::ir
