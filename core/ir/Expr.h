#pragma once
// Expressions of the typed tile IR (Halide-style): immutable nodes shared through
// std::shared_ptr<const ExprNode>, wrapped in the small handle `Expr`. Every node has a Type and
// the SourceRange of the Python code it came from.
//
// Invariants (IRVerifier checks all of them; the make() functions check the local ones and throw
// InternalError when the checker asks for an ill-typed node):
//  * Nothing is implicit. Broadcasts, splats and dtype promotions are explicit nodes, so the
//    operands of Binary/Select/MathCall have identical types. The single exception is pointer
//    arithmetic: Binary Add/Sub with a pointer (tile) on the left and a signed integer of the same
//    shape on the right; the result has the pointer's type.
//  * Tiles never mix with scalars inside one node: a scalar is Splat to a tile first.
//  * Expressions with memory effects (Load, AtomicRMW, AtomicCAS) appear only as the whole value of
//    a Let statement, so the statement order is the memory-access order.
//  * Masks are i1 with exactly the pointer's shape; `other` has the pointee type and that shape.
//
// Semantics: integer arithmetic wraps (two's complement) at the dtype's width; floating arithmetic
// is IEEE at the dtype's precision (fp16/bf16/fp8 operations round to that dtype after each op).
#include <memory>
#include <optional>
#include <vector>

#include "core/ir/Layout.h"
#include "core/ir/Ops.h"
#include "core/ir/Type.h"
#include "core/ir/Var.h"
#include "core/base/SourceFile.h"

namespace tilescope::ir {

using lang::SourceRange;

enum class ExprKind : uint8_t {
  IntImm,
  FloatImm,
  ParamRef,
  VarRef,
  ProgramId,
  NumPrograms,
  Arange,
  Splat,
  Broadcast,
  ExpandDims,
  Reshape,
  Permute,
  Cast,
  Unary,
  Binary,
  Select,
  MathCall,
  Load,
  AtomicRMW,
  AtomicCAS,
  Reduce,
  Scan,
  Dot,
  Rand,
  Hint,
  Combine,
  InlineAsm,
  ConvertLayout,
};

std::string_view exprKindName(ExprKind k);

struct ExprNode {
  explicit ExprNode(ExprKind k) : kind(k) {}
  virtual ~ExprNode() = default;
  ExprNode(const ExprNode&) = delete;
  ExprNode& operator=(const ExprNode&) = delete;

  const ExprKind kind;
  Type type;
  SourceRange range;
};

template <ExprKind K>
struct ExprNodeBase : ExprNode {
  static constexpr ExprKind kKind = K;
  ExprNodeBase() : ExprNode(K) {}
};

// Handle to an immutable expression node; may be undefined (optional operands such as a mask).
class Expr {
public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const ExprNode> node) : node_(std::move(node)) {}

  bool defined() const { return node_ != nullptr; }
  explicit operator bool() const { return defined(); }
  const ExprNode* get() const { return node_.get(); }
  const ExprNode* operator->() const { return node_.get(); }
  const std::shared_ptr<const ExprNode>& ptr() const { return node_; }

  ExprKind kind() const { return node_->kind; }
  const Type& type() const { return node_->type; }
  const SourceRange& range() const { return node_->range; }

  template <class T>
  const T* as() const {
    return node_ && node_->kind == T::kKind ? static_cast<const T*>(node_.get()) : nullptr;
  }
  // Identity, not structural equality.
  bool sameAs(const Expr& other) const { return node_ == other.node_; }
  // True for Load, AtomicRMW and AtomicCAS.
  bool hasEffects() const;

private:
  std::shared_ptr<const ExprNode> node_;
};

// --- leaves ----------------------------------------------------------------------------------

// Integer (or i1) scalar constant. `value` is the two's-complement bit pattern in an int64
// (so a u64 above INT64_MAX reads negative); make() truncates/extends it to the dtype's width.
struct IntImm : ExprNodeBase<ExprKind::IntImm> {
  int64_t value = 0;
  static Expr make(DType t, int64_t value, SourceRange r = {});
};

// Floating scalar constant. `value` is the Python float; it is rounded to the dtype where used.
struct FloatImm : ExprNodeBase<ExprKind::FloatImm> {
  double value = 0;
  static Expr make(DType t, double value, SourceRange r = {});
};

// A runtime kernel parameter (scalar or pointer). Constexpr parameters are folded by the checker
// and never referenced. `index` is the position in Kernel::params.
struct ParamRef : ExprNodeBase<ExprKind::ParamRef> {
  int index = 0;
  std::string name;
  static Expr make(int index, std::string name, Type t, SourceRange r = {});
};

// Reads the current value of a Var (the value bound by the latest executed Let/Assign).
struct VarRef : ExprNodeBase<ExprKind::VarRef> {
  VarPtr var;
  static Expr make(VarPtr v, SourceRange r = {});
};

// tl.program_id(axis) / tl.num_programs(axis), axis in 0..2; i32.
struct ProgramId : ExprNodeBase<ExprKind::ProgramId> {
  int axis = 0;
  static Expr make(int axis, SourceRange r = {});
};
struct NumPrograms : ExprNodeBase<ExprKind::NumPrograms> {
  int axis = 0;
  static Expr make(int axis, SourceRange r = {});
};

// tl.arange(start, end): tensor<(end-start) x i32> holding start, start+1, ..., end-1.
struct Arange : ExprNodeBase<ExprKind::Arange> {
  int64_t start = 0;
  int64_t end = 0;
  static Expr make(int64_t start, int64_t end, SourceRange r = {});
};

// --- shape ops -------------------------------------------------------------------------------

// Scalar -> tile of `shape` with every element equal to the scalar (pointers too).
struct Splat : ExprNodeBase<ExprKind::Splat> {
  Expr value;
  static Expr make(Expr value, Shape shape, SourceRange r = {});
};

// Tile -> tile of the same rank; every source dim equals the target dim or is 1 (then repeated).
struct Broadcast : ExprNodeBase<ExprKind::Broadcast> {
  Expr value;
  static Expr make(Expr value, Shape shape, SourceRange r = {});
};

// Tile -> tile with a new size-1 dim inserted at `axis` (0 <= axis <= rank). `x[:, None]` is
// ExpandDims(x, 1). Scalars are Splat to shape [1] instead.
struct ExpandDims : ExprNodeBase<ExprKind::ExpandDims> {
  Expr value;
  int axis = 0;
  static Expr make(Expr value, int axis, SourceRange r = {});
};

// Row-major reshape to a shape with the same element count. canReorder lets codegen permute
// elements (tl.reshape(can_reorder=True)); the simulator always keeps row-major order.
struct Reshape : ExprNodeBase<ExprKind::Reshape> {
  Expr value;
  bool canReorder = false;
  static Expr make(Expr value, Shape shape, bool canReorder = false, SourceRange r = {});
};

// Result dim i is source dim order[i] (tl.permute; tl.trans / .T on 2-D is order {1, 0}).
struct Permute : ExprNodeBase<ExprKind::Permute> {
  Expr value;
  std::vector<int> order;
  static Expr make(Expr value, std::vector<int> order, SourceRange r = {});
};

// --- elementwise -----------------------------------------------------------------------------

// Elementwise conversion to `type` (same shape as the value). Value casts follow Triton:
//   int -> int      truncate or extend (sign-extend from signed sources; i1 zero-extends)
//   any -> i1       x != 0
//   float -> int    round toward zero (out-of-range values are undefined; the simulator saturates)
//   int -> float    round to nearest even (unsigned sources, i1 included, read as unsigned)
//   float -> float  exact when widening; narrowing uses `rounding` (None = round to nearest even)
//   ptr <-> ptr     reinterpret (element dtype changes, address does not)
//   ptr -> i64      the address; int -> ptr: the integer as address
// With bitcast = true the bits are reinterpreted; source and target widths must match.
struct Cast : ExprNodeBase<ExprKind::Cast> {
  Expr value;
  bool bitcast = false;
  RoundingMode rounding = RoundingMode::None;
  // `dtype` and `pointer` give the new element; the shape stays the value's.
  static Expr make(Expr value, DType dtype, bool pointer = false, bool bitcast = false,
                   RoundingMode rounding = RoundingMode::None, SourceRange r = {});
};

struct Unary : ExprNodeBase<ExprKind::Unary> {
  UnaryOp op = UnaryOp::Neg;
  Expr value;
  static Expr make(UnaryOp op, Expr value, SourceRange r = {});
};

struct Binary : ExprNodeBase<ExprKind::Binary> {
  BinaryOp op = BinaryOp::Add;
  Expr a;
  Expr b;
  // Min/Max on floats: true -> NaN if either is NaN (tl.PropagateNan.ALL); false -> the other
  // operand (maxnum/minnum, Triton's default).
  bool propagateNan = false;
  static Expr make(BinaryOp op, Expr a, Expr b, SourceRange r = {}, bool propagateNan = false);
};

// tl.where(cond, a, b): cond is i1 with a's shape; a and b have identical types (pointers allowed).
struct Select : ExprNodeBase<ExprKind::Select> {
  Expr cond;
  Expr a;
  Expr b;
  static Expr make(Expr cond, Expr a, Expr b, SourceRange r = {});
};

// Math functions; all arguments have identical types and the result has that type.
struct MathCall : ExprNodeBase<ExprKind::MathCall> {
  MathFn fn = MathFn::Exp;
  std::vector<Expr> args;
  static Expr make(MathFn fn, std::vector<Expr> args, SourceRange r = {});
};

// --- memory (only as the value of a Let) ------------------------------------------------------

// The box of a tensor descriptor that a Load reads (`tl.make_tensor_descriptor(...).load(offsets)`):
// the very elements the Load's ptr, mask and other give, described as the GPU's tensor memory
// accelerator (TMA) takes them, so that the CUDA generator may copy the box with one bulk tensor
// copy. The simulator reads ptr/mask/other and never this.
struct TensorBox {
  Expr base;                                  // scalar pointer to the tensor's first element
  std::vector<Expr> shape, strides, offsets;  // i64 scalars, one per dim, in elements
  Shape block;                                // the box; the Load's shape
  bool padNan = false;                        // out-of-bounds elements read NaN (else zero)
};

// Reads *ptr elementwise. Masked-off lanes do not touch memory and yield `other` (or an unspecified
// value when `other` is undefined; the simulator uses zero and flags reads of them).
struct Load : ExprNodeBase<ExprKind::Load> {
  Expr ptr;
  Expr mask;   // optional; i1, ptr's shape
  Expr other;  // optional; pointee type, ptr's shape; only with a mask
  CacheModifier cache = CacheModifier::None;
  EvictionPolicy eviction = EvictionPolicy::Normal;
  bool isVolatile = false;
  std::shared_ptr<const TensorBox> box;  // optional: the descriptor box these elements are
  static Expr make(Expr ptr, Expr mask = {}, Expr other = {}, SourceRange r = {},
                   CacheModifier cache = CacheModifier::None, EvictionPolicy eviction = EvictionPolicy::Normal,
                   bool isVolatile = false, std::shared_ptr<const TensorBox> box = nullptr);
};

// Atomic read-modify-write; yields the old values. Masked-off lanes do nothing and yield an
// unspecified value. Float Max/Min are true IEEE max/min of the stored value and `val`.
struct AtomicRMW : ExprNodeBase<ExprKind::AtomicRMW> {
  AtomicOp op = AtomicOp::Add;
  Expr ptr;
  Expr val;   // pointee type, ptr's shape
  Expr mask;  // optional
  MemSemantic sem = MemSemantic::AcqRel;
  MemScope scope = MemScope::Gpu;
  static Expr make(AtomicOp op, Expr ptr, Expr val, Expr mask = {}, SourceRange r = {},
                   MemSemantic sem = MemSemantic::AcqRel, MemScope scope = MemScope::Gpu);
};

// Atomic compare-and-swap: stores val where *ptr == cmp; yields the old values.
struct AtomicCAS : ExprNodeBase<ExprKind::AtomicCAS> {
  Expr ptr;
  Expr cmp;  // pointee type, ptr's shape
  Expr val;
  MemSemantic sem = MemSemantic::AcqRel;
  MemScope scope = MemScope::Gpu;
  static Expr make(Expr ptr, Expr cmp, Expr val, SourceRange r = {}, MemSemantic sem = MemSemantic::AcqRel,
                   MemScope scope = MemScope::Gpu);
};

// --- reductions, scans, dot -------------------------------------------------------------------

// Reduces a tile along `axis` (normalized, 0 <= axis < rank) or over all elements (nullopt).
// The result drops that dim (keeps it as 1 with keepDims); reducing everything without keepDims
// gives a scalar. The dtype is the input's (the checker inserts Triton's promotions first: sum of
// <32-bit ints to i32/u32, max/min of <32-bit values to fp32/i32), i32 for ArgMax/ArgMin.
struct Reduce : ExprNodeBase<ExprKind::Reduce> {
  ReduceOp op = ReduceOp::Sum;
  Expr value;
  std::optional<int> axis;
  bool keepDims = false;
  bool tieBreakLeft = true;  // ArgMax/ArgMin
  static Expr make(ReduceOp op, Expr value, std::optional<int> axis, bool keepDims = false, SourceRange r = {},
                   bool tieBreakLeft = true);
};

// Inclusive scan along `axis` (normalized); same type as the input.
struct Scan : ExprNodeBase<ExprKind::Scan> {
  ScanOp op = ScanOp::CumSum;
  Expr value;
  int axis = 0;
  bool reverse = false;
  static Expr make(ScanOp op, Expr value, int axis, bool reverse = false, SourceRange r = {});
};

// a @ b (+ acc): [M,K] x [K,N] -> [M,N], or batched [B,M,K] x [B,K,N] -> [B,M,N]. a and b have the
// same dtype; products are accumulated in the result dtype (`type.dtype()`), starting from acc
// (which has the result type) or zero.
struct Dot : ExprNodeBase<ExprKind::Dot> {
  Expr a;
  Expr b;
  Expr acc;  // optional
  // tf32/tf32x3 only affect fp32 inputs (tf32 rounds them to tf32 first); the checker records
  // IEEE for every other input dtype.
  InputPrecision precision = InputPrecision::IEEE;
  int maxNumImpreciseAcc = 0;
  static Expr make(Expr a, Expr b, Expr acc, DType outDType, InputPrecision precision = InputPrecision::IEEE,
                   SourceRange r = {}, int maxNumImpreciseAcc = 0);
};

// --- random numbers, hints ---------------------------------------------------------------------

// Philox-based random numbers, bit-compatible with triton.language.random: `seed` is an integer
// scalar, `offset` an integer scalar or tile (the result has its shape), nRounds Philox rounds.
struct Rand : ExprNodeBase<ExprKind::Rand> {
  RandKind kind = RandKind::Uniform;
  Expr seed;
  Expr offset;
  int nRounds = 10;
  int component = 0;  // Int4x: which of the four outputs (0..3)
  static Expr make(RandKind kind, Expr seed, Expr offset, int nRounds = 10, int component = 0, SourceRange r = {});
};

// tl.multiple_of / tl.max_contiguous / tl.max_constancy: the value unchanged plus a promise that
// codegen may rely on. The simulator ignores it (and may check the promise).
struct Hint : ExprNodeBase<ExprKind::Hint> {
  HintKind hint = HintKind::MultipleOf;
  Expr value;
  std::vector<int64_t> values;  // one per dim (one for scalars)
  static Expr make(HintKind hint, Expr value, std::vector<int64_t> values, SourceRange r = {});
};

// tl.reduce / tl.associative_scan with a general combine function (several operations, tuples of
// tensors): `inputs` are N tiles of one shape (values, not pointers); the combine function is
// `results` (N scalar expressions whose only variables are `params`: the accumulated values
// acc_0..acc_{N-1}, then the next elements x_0..x_{N-1}, scalars of the inputs' dtypes) and has no
// effects. Along the axis (over all elements in row-major order when axis is nullopt) the reduction
// folds from the first element: acc = combine(acc, x) for x = 1st, 2nd, ...; the inclusive scan
// yields acc at every position (with `reverse`, it folds from the last element down). That is the
// order of Triton's interpreter. A node yields result `output` (the reduced shape, as Reduce, or the
// input's shape for a scan); a tuple of N results is N nodes sharing inputs, params and results.
struct Combine : ExprNodeBase<ExprKind::Combine> {
  std::vector<Expr> inputs;
  std::vector<VarPtr> params;  // 2N scalars
  std::vector<Expr> results;   // N scalars, result i of inputs[i]'s dtype
  int output = 0;
  bool scan = false;
  std::optional<int> axis;  // a scan always has one
  bool keepDims = false;    // reductions
  bool reverse = false;     // scans
  static Expr make(std::vector<Expr> inputs, std::vector<VarPtr> params, std::vector<Expr> results, int output, bool scan,
                   std::optional<int> axis, bool keepDims, bool reverse, SourceRange r = {});
};

// tl.inline_asm_elementwise: PTX text run on every `pack` consecutive elements (row-major) of the
// args, which have the result's shape. Operands are numbered as in Triton: first the results' (for
// each result dtype, one 32-bit register per 4-byte group of its `pack` elements: elements narrower
// than 4 bytes share a register, the first in the low bits), then the args' in the same way;
// `constraints` gives one LLVM-style constraint per operand ("=r,=r,r"). `$N` in the text names
// operand N. A node yields result `output`; N results are N nodes. An impure asm (isPure false) is
// never removed as dead code. The simulator cannot run PTX: only the GPU backend executes it.
struct InlineAsm : ExprNodeBase<ExprKind::InlineAsm> {
  std::string asmText;
  std::string constraints;
  std::vector<Expr> args;
  std::vector<DType> resultDTypes;
  int output = 0;
  bool isPure = true;
  int pack = 1;
  static Expr make(std::string asmText, std::string constraints, std::vector<Expr> args, std::vector<DType> resultDTypes,
                   int output, bool isPure, int pack, Shape shape, SourceRange r = {});
  // How many asm operands `pack` elements of t take: 32-bit registers holding 32 / bits elements
  // each when t is narrower than 32 bits, else one register per element.
  static int registersFor(DType t, int pack);
};

// --- layouts ---------------------------------------------------------------------------------

// The value unchanged, moved into `layout` (core/ir/Layout.h): its elements end up in the threads
// and registers (or shared memory) that layout names. Only the GPU pipeline's passes make it: the
// layout pass where a value's layout differs from the one its user needs (a loop's ends, a dot's
// operand), and remove-layout-conversions drops those that are not needed. The simulator and every
// backend without layouts read it as the value itself.
//  * The value is a tile (layouts are of tiles), and the type is the value's.
//  * The layout is one of LayoutKind's, with warpsM >= 1; it fits the value: Mma, DotOperandA and
//    SharedOperand are of 2-D tiles, RowSlice of 1-D ones; DotOperandA and SharedOperand hold 16-bit
//    floats; only Blocked holds pointers; a SharedOperand ring has at least 2 stages.
struct ConvertLayout : ExprNodeBase<ExprKind::ConvertLayout> {
  Expr value;
  TileLayout layout;
  static Expr make(Expr value, TileLayout layout, SourceRange r = {});
};

}  // namespace tilescope::ir
