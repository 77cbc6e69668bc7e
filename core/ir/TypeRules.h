#pragma once
// Triton's typing rules, as pure functions over dtypes and shapes. The checker asks these and turns
// a failure's message into a Diagnostic at the offending node; messages are written for users.
//
// Sources: triton-lang.org "Triton Semantics" (type promotion, broadcasting) and
// python/triton/language/{semantic,core,standard,math}.py. We follow semantic.py's
// computation_type_impl, except that fp16 with bf16 promotes to fp32 as the current documentation
// says ("supremum"; older code picked fp16). So bf16 with any other non-bf16 dtype below fp64
// computes in fp32, and fp16 with an integer tensor stays fp16.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/ir/Ops.h"
#include "core/ir/Type.h"

namespace tilescope::ir {

// A value or the message saying why not.
template <class T>
class RuleResult {
public:
  RuleResult(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
  static RuleResult failure(std::string message) {
    RuleResult r;
    r.error_ = std::move(message);
    return r;
  }
  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const T& value() const { return *value_; }
  const T& operator*() const { return *value_; }
  const T* operator->() const { return &*value_; }
  const std::string& error() const { return error_; }

private:
  RuleResult() = default;
  std::optional<T> value_;
  std::string error_;
};

// --- literals and integers --------------------------------------------------------------------

// The dtype Triton gives a Python int when it must become a tensor (to_tensor): i32 if it fits,
// else u32, else i64.
DType literalIntDType(int64_t v);
// fp32 when representable as a normal fp32 (or 0, inf, nan), else fp64.
DType literalFloatDType(double v);
// Truncates/extends v to t's width with t's signedness (two's complement); i1 keeps bit 0.
int64_t wrapToDType(DType t, int64_t v);
bool fitsInDType(DType t, int64_t v);

bool isPowerOf2(int64_t v);
int64_t nextPowerOf2(int64_t v);  // smallest power of two >= v (1 for v <= 1)

// --- binary operators -------------------------------------------------------------------------

// One operand as the promotion rules see it: a tensor (tile or 0-d "scalar tensor") of a dtype, or a
// Python number (literal or constexpr), which is weakly typed: it does not take part in the
// promotion unless it is of a higher kind (bool < int < float) than the tensor.
struct Operand {
  DType dtype = DType::I32;
  bool isPointer = false;
  bool isLiteral = false;
  // The literal's value, for range checks: exactly one of these is meaningful per literal kind.
  int64_t intValue = 0;
  double floatValue = 0;

  static Operand tensor(DType t, bool pointer = false);
  static Operand literalBool(bool v);
  static Operand literalInt(int64_t v);
  static Operand literalFloat(double v);
  std::string str() const;  // "i32", "ptr<fp16>", "int literal 3"
};

struct BinaryTyping {
  // Non-pointer operands are cast (literals: materialized) to this dtype before the op.
  DType operandDType = DType::I32;
  DType resultDType = DType::I32;  // i1 for comparisons
  // Pointer arithmetic: the pointer operand keeps its type, the integer operand is cast to
  // `offsetDType`, and the IR puts the pointer first (Binary Add/Sub).
  bool pointerArith = false;
  bool pointerOnRight = false;  // `offset + ptr`
  DType offsetDType = DType::I32;
};

// Operator spelling used in messages: "+", "//", "<", ...
std::string_view binaryOpSymbol(BinaryOp op);

// Triton's computation_type_impl for two non-pointer operands. divOrMod selects the rules of
// `/`, `//` and `%` (fp16/bf16 compute in fp32; mixed signedness is rejected).
RuleResult<DType> computationDType(const Operand& a, const Operand& b, bool divOrMod);

// Full typing of `a op b` (Python operator semantics on Triton tensors). TrueDiv is `/`, Div is
// `//`; Min/Max are tl.minimum/tl.maximum. LogicalAnd/LogicalOr type both sides as i1.
RuleResult<BinaryTyping> binaryTyping(BinaryOp op, const Operand& a, const Operand& b);

// --- shapes -----------------------------------------------------------------------------------

// NumPy-style broadcast of two shapes (the shorter is padded with leading 1s).
// Fails with "cannot broadcast shapes [64] and [32]".
RuleResult<Shape> broadcastShapes(const Shape& a, const Shape& b);

// Triton's TRITON_MAX_TENSOR_NUMEL: no tile may hold more elements.
inline constexpr int64_t kMaxTileNumel = int64_t{1} << 20;

// Triton requires every tile dim to be a power of two and at most 2^20 elements in total.
// Returns an error message, or "" when the shape is fine. `what` names the operation.
std::string tileShapeError(const Shape& shape, std::string_view what);
// Only the element limit (for shapes made by broadcasting, dots, ... whose dims are powers of two
// already): an error message, or "".
std::string tileSizeError(const Shape& shape, std::string_view what);

// Maps axis in [-rank, rank) to [0, rank); fails with a message naming the valid range.
RuleResult<int> normalizeAxis(int64_t axis, int rank, std::string_view what);
// Result shape of reducing `shape` along axis (nullopt: all axes).
Shape reducedShape(const Shape& shape, std::optional<int> axis, bool keepDims);
bool isPermutation(const std::vector<int>& order, int rank);

// --- reductions and scans -----------------------------------------------------------------------

// The dtype Triton converts the input to before reducing (e.g. sum of i8 -> i32, max of fp16 ->
// fp32); nullopt when the op does not accept the dtype (xor_sum of floats).
std::optional<DType> reductionInputDType(ReduceOp op, DType t);
std::optional<DType> scanInputDType(ScanOp op, DType t);

// --- tl.dot -------------------------------------------------------------------------------------

struct DotTyping {
  DType resultDType;
  Shape resultShape;
};

// a @ b with optional accumulator type and out_dtype (Triton's default out_dtype is fp32).
RuleResult<DotTyping> dotTyping(const Type& a, const Type& b, const std::optional<Type>& acc,
                                std::optional<DType> outDType);

// --- casts ------------------------------------------------------------------------------------

// "" when `from` can be converted to (dtype, pointer) (bitcast: bits reinterpreted), else why not.
std::string castError(const Type& from, DType dtype, bool pointer, bool bitcast);

// Triton's libdevice-style dtype lists for math functions ("Expected dtype ['fp32', 'fp64']").
// Returns "" when `t` is accepted by fn.
std::string mathDTypeError(MathFn fn, DType t);

}  // namespace tilescope::ir
