#include "core/ir/Expr.h"

#include <algorithm>

#include "core/ir/TypeRules.h"
#include "core/base/Diagnostic.h"

namespace tilescope::ir {

namespace {

[[noreturn]] void fail(const char* node, const std::string& what) {
  throw lang::InternalError(std::string("ir::") + node + "::make: " + what);
}

// The message is only built when the check fails: make() runs for every node the checker emits.
#define require(ok, node, what) \
  do {                          \
    if (!(ok)) fail(node, what); \
  } while (0)

template <class T>
std::shared_ptr<T> node(Type type, SourceRange r) {
  auto n = std::make_shared<T>();
  n->type = std::move(type);
  n->range = r;
  return n;
}

void requireDefined(const Expr& e, const char* nodeName, const char* operand) {
  require(e.defined(), nodeName, std::string(operand) + " is undefined");
}

}  // namespace

std::string_view exprKindName(ExprKind k) {
  switch (k) {
    case ExprKind::IntImm: return "IntImm";
    case ExprKind::FloatImm: return "FloatImm";
    case ExprKind::ParamRef: return "ParamRef";
    case ExprKind::VarRef: return "VarRef";
    case ExprKind::ProgramId: return "ProgramId";
    case ExprKind::NumPrograms: return "NumPrograms";
    case ExprKind::Arange: return "Arange";
    case ExprKind::Splat: return "Splat";
    case ExprKind::Broadcast: return "Broadcast";
    case ExprKind::ExpandDims: return "ExpandDims";
    case ExprKind::Reshape: return "Reshape";
    case ExprKind::Permute: return "Permute";
    case ExprKind::Cast: return "Cast";
    case ExprKind::Unary: return "Unary";
    case ExprKind::Binary: return "Binary";
    case ExprKind::Select: return "Select";
    case ExprKind::MathCall: return "MathCall";
    case ExprKind::Load: return "Load";
    case ExprKind::AtomicRMW: return "AtomicRMW";
    case ExprKind::AtomicCAS: return "AtomicCAS";
    case ExprKind::Reduce: return "Reduce";
    case ExprKind::Scan: return "Scan";
    case ExprKind::Dot: return "Dot";
    case ExprKind::Rand: return "Rand";
    case ExprKind::Hint: return "Hint";
    case ExprKind::Combine: return "Combine";
    case ExprKind::InlineAsm: return "InlineAsm";
    case ExprKind::ConvertLayout: return "ConvertLayout";
  }
  return "?";
}

bool Expr::hasEffects() const {
  if (!node_) return false;
  return node_->kind == ExprKind::Load || node_->kind == ExprKind::AtomicRMW || node_->kind == ExprKind::AtomicCAS;
}

Expr IntImm::make(DType t, int64_t value, SourceRange r) {
  require(isInt(t), "IntImm", "dtype " + std::string(dtypeName(t)) + " is not an integer");
  auto n = node<IntImm>(Type::scalar(t), r);
  n->value = wrapToDType(t, value);
  return Expr(n);
}

Expr FloatImm::make(DType t, double value, SourceRange r) {
  require(isFloat(t), "FloatImm", "dtype " + std::string(dtypeName(t)) + " is not a float");
  auto n = node<FloatImm>(Type::scalar(t), r);
  n->value = value;
  return Expr(n);
}

Expr ParamRef::make(int index, std::string name, Type t, SourceRange r) {
  require(index >= 0, "ParamRef", "negative index");
  require(t.isScalar(), "ParamRef", "parameters are scalars or pointers, got " + t.str());
  auto n = node<ParamRef>(std::move(t), r);
  n->index = index;
  n->name = std::move(name);
  return Expr(n);
}

Expr VarRef::make(VarPtr v, SourceRange r) {
  require(v != nullptr, "VarRef", "null var");
  auto n = node<VarRef>(v->type, r);
  n->var = std::move(v);
  return Expr(n);
}

Expr ProgramId::make(int axis, SourceRange r) {
  require(axis >= 0 && axis < 3, "ProgramId", "axis out of range");
  auto n = node<ProgramId>(Type::scalar(DType::I32), r);
  n->axis = axis;
  return Expr(n);
}

Expr NumPrograms::make(int axis, SourceRange r) {
  require(axis >= 0 && axis < 3, "NumPrograms", "axis out of range");
  auto n = node<NumPrograms>(Type::scalar(DType::I32), r);
  n->axis = axis;
  return Expr(n);
}

Expr Arange::make(int64_t start, int64_t end, SourceRange r) {
  require(end > start, "Arange", "empty range");
  auto n = node<Arange>(Type::tile(DType::I32, {end - start}), r);
  n->start = start;
  n->end = end;
  return Expr(n);
}

Expr Splat::make(Expr value, Shape shape, SourceRange r) {
  requireDefined(value, "Splat", "value");
  require(value.type().isScalar(), "Splat", "value is not a scalar: " + value.type().str());
  require(!shape.empty(), "Splat", "empty shape");
  auto n = node<Splat>(value.type().withShape(std::move(shape)), r);
  n->value = std::move(value);
  return Expr(n);
}

Expr Broadcast::make(Expr value, Shape shape, SourceRange r) {
  requireDefined(value, "Broadcast", "value");
  const Shape& from = value.type().shape();
  require(from.size() == shape.size() && !shape.empty(), "Broadcast",
          "rank mismatch " + shapeString(from) + " -> " + shapeString(shape));
  for (size_t i = 0; i < shape.size(); ++i)
    require(from[i] == shape[i] || from[i] == 1, "Broadcast", shapeString(from) + " -> " + shapeString(shape));
  auto n = node<Broadcast>(value.type().withShape(std::move(shape)), r);
  n->value = std::move(value);
  return Expr(n);
}

Expr ExpandDims::make(Expr value, int axis, SourceRange r) {
  requireDefined(value, "ExpandDims", "value");
  Shape shape = value.type().shape();
  require(!shape.empty(), "ExpandDims", "value is a scalar (splat it instead)");
  require(axis >= 0 && axis <= static_cast<int>(shape.size()), "ExpandDims", "axis out of range");
  shape.insert(shape.begin() + axis, 1);
  auto n = node<ExpandDims>(value.type().withShape(std::move(shape)), r);
  n->value = std::move(value);
  n->axis = axis;
  return Expr(n);
}

Expr Reshape::make(Expr value, Shape shape, bool canReorder, SourceRange r) {
  requireDefined(value, "Reshape", "value");
  require(value.type().isTile() && !shape.empty(), "Reshape", "scalars cannot be reshaped");
  require(numElements(shape) == value.type().numel(), "Reshape",
          "element count changes: " + shapeString(value.type().shape()) + " -> " + shapeString(shape));
  auto n = node<Reshape>(value.type().withShape(std::move(shape)), r);
  n->value = std::move(value);
  n->canReorder = canReorder;
  return Expr(n);
}

Expr Permute::make(Expr value, std::vector<int> order, SourceRange r) {
  requireDefined(value, "Permute", "value");
  const Shape& from = value.type().shape();
  require(isPermutation(order, static_cast<int>(from.size())), "Permute", "order is not a permutation of the dims");
  Shape shape;
  for (int d : order) shape.push_back(from[d]);
  auto n = node<Permute>(value.type().withShape(std::move(shape)), r);
  n->value = std::move(value);
  n->order = std::move(order);
  return Expr(n);
}

Expr Cast::make(Expr value, DType dtype, bool pointer, bool bitcast, RoundingMode rounding, SourceRange r) {
  requireDefined(value, "Cast", "value");
  const Type& from = value.type();
  if (bitcast) {
    const bool ptrs = from.isPointer() || pointer;
    require(ptrs ? from.isPointer() == pointer : bitWidth(from.dtype()) == bitWidth(dtype), "Cast",
            "bitcast between different widths: " + from.str() + " -> " + std::string(dtypeName(dtype)));
  }
  if (from.isPointer() && !pointer) require(dtype == DType::I64 || dtype == DType::I1, "Cast", "pointers cast to i64 or i1 only");
  if (pointer && !from.isPointer()) require(isInt(from.dtype()), "Cast", "only integers become pointers");
  if (rounding != RoundingMode::None)
    require(isFloat(from.dtype()) && isFloat(dtype) && !from.isPointer() && bitWidth(dtype) < bitWidth(from.dtype()),
            "Cast", "a rounding mode needs a narrowing float cast");
  auto n = node<Cast>(from.withElement(dtype, pointer), r);
  n->value = std::move(value);
  n->bitcast = bitcast;
  n->rounding = rounding;
  return Expr(n);
}

Expr Unary::make(UnaryOp op, Expr value, SourceRange r) {
  requireDefined(value, "Unary", "value");
  const Type& t = value.type();
  require(!t.isPointer(), "Unary", "pointer operand");
  if (op == UnaryOp::Invert) require(t.isInt(), "Unary", "invert needs an integer, got " + t.str());
  auto n = node<Unary>(t, r);
  n->op = op;
  n->value = std::move(value);
  return Expr(n);
}

Expr Binary::make(BinaryOp op, Expr a, Expr b, SourceRange r, bool propagateNan) {
  requireDefined(a, "Binary", "a");
  requireDefined(b, "Binary", "b");
  const Type& ta = a.type();
  const Type& tb = b.type();
  auto what = [&] { return std::string(binaryOpName(op)) + " " + ta.str() + ", " + tb.str(); };
  Type result = ta;
  if (ta.isPointer()) {
    require(op == BinaryOp::Add || op == BinaryOp::Sub, "Binary", "pointer operand: " + what());
    require(tb.isInt() && tb.shape() == ta.shape() && !tb.isBool(), "Binary", "pointer offset must be an integer of the same shape: " + what());
  } else {
    require(ta == tb, "Binary", "operand types differ: " + what());
    switch (op) {
      case BinaryOp::Add:
      case BinaryOp::Sub:
      case BinaryOp::Mul:
      case BinaryOp::Mod:
      case BinaryOp::Min:
      case BinaryOp::Max: break;
      case BinaryOp::TrueDiv: require(ta.isFloat(), "Binary", "truediv needs floats: " + what()); break;
      case BinaryOp::Div:
      case BinaryOp::And:
      case BinaryOp::Or:
      case BinaryOp::Xor:
      case BinaryOp::Shl:
      case BinaryOp::Shr: require(ta.isInt(), "Binary", "needs integers: " + what()); break;
      case BinaryOp::LogicalAnd:
      case BinaryOp::LogicalOr: require(ta.isBool(), "Binary", "needs i1: " + what()); break;
      case BinaryOp::Eq:
      case BinaryOp::Ne:
      case BinaryOp::Lt:
      case BinaryOp::Le:
      case BinaryOp::Gt:
      case BinaryOp::Ge: result = ta.withDType(DType::I1); break;
    }
  }
  auto n = node<Binary>(std::move(result), r);
  n->op = op;
  n->a = std::move(a);
  n->b = std::move(b);
  n->propagateNan = propagateNan;
  return Expr(n);
}

Expr Select::make(Expr cond, Expr a, Expr b, SourceRange r) {
  requireDefined(cond, "Select", "cond");
  requireDefined(a, "Select", "a");
  requireDefined(b, "Select", "b");
  require(a.type() == b.type(), "Select", "branch types differ: " + a.type().str() + ", " + b.type().str());
  require(cond.type() == a.type().withDType(DType::I1), "Select", "cond must be i1 of the branches' shape, got " + cond.type().str());
  auto n = node<Select>(a.type(), r);
  n->cond = std::move(cond);
  n->a = std::move(a);
  n->b = std::move(b);
  return Expr(n);
}

Expr MathCall::make(MathFn fn, std::vector<Expr> args, SourceRange r) {
  require(static_cast<int>(args.size()) == mathFnArity(fn), "MathCall", "wrong argument count for " + std::string(mathFnName(fn)));
  for (const Expr& e : args) requireDefined(e, "MathCall", "argument");
  const Type& t = args[0].type();
  for (const Expr& e : args) require(e.type() == t, "MathCall", "argument types differ");
  require(!t.isPointer(), "MathCall", "pointer argument");
  if (fn == MathFn::Umulhi) {
    require(t.isInt() && bitWidth(t.dtype()) >= 32, "MathCall", "umulhi needs 32/64-bit integers");
  } else if (fn != MathFn::Abs) {
    require(t.isFloat(), "MathCall", std::string(mathFnName(fn)) + " needs floats, got " + t.str());
  }
  auto n = node<MathCall>(t, r);
  n->fn = fn;
  n->args = std::move(args);
  return Expr(n);
}

Expr Load::make(Expr ptr, Expr mask, Expr other, SourceRange r, CacheModifier cache, EvictionPolicy eviction,
                bool isVolatile, std::shared_ptr<const TensorBox> box) {
  requireDefined(ptr, "Load", "ptr");
  const Type& pt = ptr.type();
  require(pt.isPointer(), "Load", "not a pointer: " + pt.str());
  if (mask) require(mask.type() == pt.withDType(DType::I1), "Load", "mask type " + mask.type().str() + " for pointer " + pt.str());
  if (other) {
    require(mask.defined(), "Load", "other without mask");
    require(other.type() == pt.pointee(), "Load", "other type " + other.type().str() + " for pointer " + pt.str());
  }
  if (box) {
    const size_t rank = box->block.size();
    require(box->block == pt.shape(), "Load", "a box of " + shapeString(box->block) + " for pointer " + pt.str());
    require(box->base.defined() && box->base.type().isScalar() && box->base.type().isPointer() &&
                box->base.type().dtype() == pt.dtype(),
            "Load", "a box's base must be a scalar pointer to the loaded dtype");
    require(box->shape.size() == rank && box->strides.size() == rank && box->offsets.size() == rank, "Load",
            "a box needs a shape, stride and offset per dim");
    for (const auto* list : {&box->shape, &box->strides, &box->offsets})
      for (const Expr& e : *list)
        require(e.defined() && e.type().isScalar() && e.type().dtype() == DType::I64, "Load", "a box's shape, strides and offsets are i64 scalars");
  }
  auto n = node<Load>(pt.pointee(), r);
  n->box = std::move(box);
  n->ptr = std::move(ptr);
  n->mask = std::move(mask);
  n->other = std::move(other);
  n->cache = cache;
  n->eviction = eviction;
  n->isVolatile = isVolatile;
  return Expr(n);
}

Expr AtomicRMW::make(AtomicOp op, Expr ptr, Expr val, Expr mask, SourceRange r, MemSemantic sem, MemScope scope) {
  requireDefined(ptr, "AtomicRMW", "ptr");
  requireDefined(val, "AtomicRMW", "val");
  const Type& pt = ptr.type();
  require(pt.isPointer(), "AtomicRMW", "not a pointer: " + pt.str());
  require(val.type() == pt.pointee(), "AtomicRMW", "val type " + val.type().str() + " for pointer " + pt.str());
  if (mask) require(mask.type() == pt.withDType(DType::I1), "AtomicRMW", "mask type " + mask.type().str());
  auto n = node<AtomicRMW>(pt.pointee(), r);
  n->op = op;
  n->ptr = std::move(ptr);
  n->val = std::move(val);
  n->mask = std::move(mask);
  n->sem = sem;
  n->scope = scope;
  return Expr(n);
}

Expr AtomicCAS::make(Expr ptr, Expr cmp, Expr val, SourceRange r, MemSemantic sem, MemScope scope) {
  requireDefined(ptr, "AtomicCAS", "ptr");
  requireDefined(cmp, "AtomicCAS", "cmp");
  requireDefined(val, "AtomicCAS", "val");
  const Type& pt = ptr.type();
  require(pt.isPointer(), "AtomicCAS", "not a pointer: " + pt.str());
  require(cmp.type() == pt.pointee() && val.type() == pt.pointee(), "AtomicCAS", "cmp/val type mismatch");
  auto n = node<AtomicCAS>(pt.pointee(), r);
  n->ptr = std::move(ptr);
  n->cmp = std::move(cmp);
  n->val = std::move(val);
  n->sem = sem;
  n->scope = scope;
  return Expr(n);
}

Expr Reduce::make(ReduceOp op, Expr value, std::optional<int> axis, bool keepDims, SourceRange r, bool tieBreakLeft) {
  requireDefined(value, "Reduce", "value");
  const Type& t = value.type();
  require(t.isTile() && !t.isPointer(), "Reduce", "needs a value tile, got " + t.str());
  if (axis) require(*axis >= 0 && *axis < t.rank(), "Reduce", "axis out of range");
  if (op == ReduceOp::XorSum) require(t.isInt(), "Reduce", "xor_sum needs integers");
  const DType out = (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) ? DType::I32 : t.dtype();
  auto n = node<Reduce>(Type::tile(out, reducedShape(t.shape(), axis, keepDims)), r);
  n->op = op;
  n->value = std::move(value);
  n->axis = axis;
  n->keepDims = keepDims;
  n->tieBreakLeft = tieBreakLeft;
  return Expr(n);
}

Expr Scan::make(ScanOp op, Expr value, int axis, bool reverse, SourceRange r) {
  requireDefined(value, "Scan", "value");
  const Type& t = value.type();
  require(t.isTile() && !t.isPointer(), "Scan", "needs a value tile, got " + t.str());
  require(axis >= 0 && axis < t.rank(), "Scan", "axis out of range");
  auto n = node<Scan>(t, r);
  n->op = op;
  n->value = std::move(value);
  n->axis = axis;
  n->reverse = reverse;
  return Expr(n);
}

Expr Dot::make(Expr a, Expr b, Expr acc, DType outDType, InputPrecision precision, SourceRange r, int maxNumImpreciseAcc) {
  requireDefined(a, "Dot", "a");
  requireDefined(b, "Dot", "b");
  const Type& ta = a.type();
  const Type& tb = b.type();
  // Two fp8 formats may meet (e4m3 @ e5m2), as Triton's type rules allow; other dtypes must match.
  require(!ta.isPointer() && !tb.isPointer() && (ta.dtype() == tb.dtype() || (isFp8(ta.dtype()) && isFp8(tb.dtype()))), "Dot",
          "operand dtypes differ");
  const int rank = ta.rank();
  require((rank == 2 || rank == 3) && tb.rank() == rank, "Dot", "operands must both be 2-D or 3-D");
  require(ta.shape()[rank - 1] == tb.shape()[rank - 2], "Dot", "K mismatch");
  if (rank == 3) require(ta.shape()[0] == tb.shape()[0], "Dot", "batch mismatch");
  Shape shape = ta.shape();
  shape[rank - 1] = tb.shape()[rank - 1];
  Type result = Type::tile(outDType, std::move(shape));
  if (acc) require(acc.type() == result, "Dot", "acc type " + acc.type().str() + " != result " + result.str());
  auto n = node<Dot>(std::move(result), r);
  n->a = std::move(a);
  n->b = std::move(b);
  n->acc = std::move(acc);
  n->precision = precision;
  n->maxNumImpreciseAcc = maxNumImpreciseAcc;
  return Expr(n);
}

Expr Rand::make(RandKind kind, Expr seed, Expr offset, int nRounds, int component, SourceRange r) {
  requireDefined(seed, "Rand", "seed");
  requireDefined(offset, "Rand", "offset");
  require(seed.type().isScalar() && seed.type().isInt(), "Rand", "seed must be an integer scalar");
  require(offset.type().isInt() && !offset.type().isBool(), "Rand", "offset must be integers");
  require(component >= 0 && component < 4, "Rand", "component out of range");
  DType out = DType::FP32;
  if (kind == RandKind::Int || kind == RandKind::Int4x)
    out = bitWidth(offset.type().dtype()) > 32 ? DType::U64 : DType::U32;
  auto n = node<Rand>(offset.type().withDType(out), r);
  n->kind = kind;
  n->seed = std::move(seed);
  n->offset = std::move(offset);
  n->nRounds = nRounds;
  n->component = component;
  return Expr(n);
}

Expr Hint::make(HintKind hint, Expr value, std::vector<int64_t> values, SourceRange r) {
  requireDefined(value, "Hint", "value");
  require(static_cast<int>(values.size()) == std::max(1, value.type().rank()), "Hint", "one value per dim");
  auto n = node<Hint>(value.type(), r);
  n->hint = hint;
  n->value = std::move(value);
  n->values = std::move(values);
  return Expr(n);
}

Expr Combine::make(std::vector<Expr> inputs, std::vector<VarPtr> params, std::vector<Expr> results, int output, bool scan,
                   std::optional<int> axis, bool keepDims, bool reverse, SourceRange r) {
  const size_t n = inputs.size();
  require(n >= 1, "Combine", "needs at least one input");
  require(params.size() == 2 * n && results.size() == n, "Combine", "needs 2N params and N results for N inputs");
  require(output >= 0 && output < static_cast<int>(n), "Combine", "output out of range");
  for (const Expr& in : inputs) requireDefined(in, "Combine", "input");
  const Type& t0 = inputs[0].type();
  require(t0.isTile(), "Combine", "needs tiles, got " + t0.str());
  for (size_t i = 0; i < n; ++i) {
    const Type& t = inputs[i].type();
    require(t.isTile() && !t.isPointer() && t.shape() == t0.shape(), "Combine", "inputs must be value tiles of one shape");
    requireDefined(results[i], "Combine", "result");
    const Type scalar = Type::scalar(t.dtype());
    require(results[i].type() == scalar, "Combine", "result " + std::to_string(i) + " must be " + scalar.str());
    require(params[i] && params[n + i] && params[i]->type == scalar && params[n + i]->type == scalar, "Combine",
            "params must be scalars of the inputs' dtypes");
  }
  if (scan) require(axis.has_value(), "Combine", "a scan needs an axis");
  if (axis) require(*axis >= 0 && *axis < t0.rank(), "Combine", "axis out of range");
  const Type& out = inputs[static_cast<size_t>(output)].type();
  Type type = scan ? out : Type::tile(out.dtype(), reducedShape(out.shape(), axis, keepDims));
  auto node_ = node<Combine>(std::move(type), r);
  node_->inputs = std::move(inputs);
  node_->params = std::move(params);
  node_->results = std::move(results);
  node_->output = output;
  node_->scan = scan;
  node_->axis = axis;
  node_->keepDims = keepDims;
  node_->reverse = reverse;
  return Expr(node_);
}

int InlineAsm::registersFor(DType t, int pack) {
  const int bits = std::max(8, bitWidth(t));
  if (bits >= 32) return pack;
  const int perRegister = 32 / bits;
  return (pack + perRegister - 1) / perRegister;
}

Expr InlineAsm::make(std::string asmText, std::string constraints, std::vector<Expr> args, std::vector<DType> resultDTypes,
                     int output, bool isPure, int pack, Shape shape, SourceRange r) {
  require(!resultDTypes.empty(), "InlineAsm", "needs at least one result dtype");
  require(output >= 0 && output < static_cast<int>(resultDTypes.size()), "InlineAsm", "output out of range");
  require(pack >= 1, "InlineAsm", "pack must be positive");
  for (const Expr& a : args) {
    requireDefined(a, "InlineAsm", "arg");
    require(a.type().shape() == shape && !a.type().isPointer(), "InlineAsm", "args must be values of the result's shape");
  }
  auto n = node<InlineAsm>(Type::tile(resultDTypes[static_cast<size_t>(output)], std::move(shape)), r);
  n->asmText = std::move(asmText);
  n->constraints = std::move(constraints);
  n->args = std::move(args);
  n->resultDTypes = std::move(resultDTypes);
  n->output = output;
  n->isPure = isPure;
  n->pack = pack;
  return Expr(n);
}

Expr ConvertLayout::make(Expr value, TileLayout layout, SourceRange r) {
  requireDefined(value, "ConvertLayout", "value");
  const Type& t = value.type();
  require(t.isTile(), "ConvertLayout", "layouts are of tiles, got " + t.str());
  require(layout.warpsM >= 1, "ConvertLayout", "warps along the rows must be at least 1");
  switch (layout.kind) {
    case LayoutKind::Blocked: break;
    case LayoutKind::Mma:
    case LayoutKind::DotOperandA:
    case LayoutKind::SharedOperand:
      require(t.rank() == 2, "ConvertLayout", layout.str() + " is a layout of 2-D tiles, not of " + t.str());
      break;
    case LayoutKind::RowSlice:
      require(t.rank() == 1, "ConvertLayout", layout.str() + " is a layout of 1-D tiles, not of " + t.str());
      break;
    default: fail("ConvertLayout", "unknown layout kind " + std::to_string(static_cast<int>(layout.kind)));
  }
  if (layout.kind != LayoutKind::Blocked) require(!t.isPointer(), "ConvertLayout", layout.str() + " holds no pointers");
  if (layout.kind == LayoutKind::DotOperandA || layout.kind == LayoutKind::SharedOperand)
    require(t.dtype() == DType::FP16 || t.dtype() == DType::BF16, "ConvertLayout",
            layout.str() + " holds 16-bit floats, not " + t.str());
  if (layout.kind == LayoutKind::SharedOperand) require(layout.stages >= 2, "ConvertLayout", "a shared ring has at least 2 stages");
  auto n = node<ConvertLayout>(t, r);
  n->value = std::move(value);
  n->layout = std::move(layout);
  return Expr(n);
}

}  // namespace tilescope::ir
