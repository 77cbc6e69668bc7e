// Shape manipulation: tl.reshape / view / ravel, trans / permute, expand_dims, broadcast_to,
// broadcast.
#include <algorithm>

#include "core/kernel/BuiltinRegistry.h"

namespace tilescope::lang {

namespace {

using builtin::tensorArg;
using builtin::tileArg;

// The dims of `*dims`: either separate ints or one tuple, as Triton accepts both.
std::vector<int64_t> variadicInts(ExprChecker& ec, const BoundArgs& a, const std::string& what) {
  ValueList items = a.rest();
  std::vector<SourceRange> ranges = a.restRanges();
  if (items.size() == 1 && items[0].isTuple()) {
    ValueList inner = items[0].elements;
    ranges.assign(inner.size(), ranges[0]);
    items = std::move(inner);
  }
  std::vector<int64_t> out;
  for (size_t i = 0; i < items.size(); ++i) out.push_back(ec.requireConstInt(items[i], ranges[i], a.name() + " " + what));
  return out;
}

Value permute(ExprChecker& ec, const BoundArgs& a, std::vector<int64_t> dims) {
  ir::Expr x = tileArg(ec, a, "input");
  const int rank = x.type().rank();
  std::vector<int> order;
  for (int64_t d : dims) order.push_back(static_cast<int>(d < 0 ? d + rank : d));
  if (!ir::isPermutation(order, rank)) {
    std::string list;
    for (size_t i = 0; i < dims.size(); ++i) list += (i ? ", " : "") + std::to_string(dims[i]);
    ec.error(a.callRange(), a.name() + " dims (" + list + ") are not a permutation of the " + std::to_string(rank) +
                                " dimensions of " + x.type().str());
  }
  return Value::ofTensor(ir::Permute::make(x, std::move(order), a.callRange()));
}

Value reshape(ExprChecker& ec, const BoundArgs& a, bool canReorder) {
  ir::Expr x = tensorArg(ec, a, "input");
  ir::Shape shape;
  for (int64_t d : variadicInts(ec, a, "shape")) shape.push_back(d);
  if (shape.empty()) ec.error(a.callRange(), a.name() + " needs a target shape");
  if (std::string err = ir::tileShapeError(shape, a.name()); !err.empty()) ec.error(a.callRange(), err);
  if (ir::numElements(shape) != x.type().numel())
    ec.error(a.callRange(), a.name() + " cannot change the number of elements: " + ir::shapeString(x.type().shape()) +
                                " has " + std::to_string(x.type().numel()) + ", " + ir::shapeString(shape) + " has " +
                                std::to_string(ir::numElements(shape)));
  if (a.given("can_reorder")) canReorder = ec.requireConstBool(a.get("can_reorder"), a.range("can_reorder"), "can_reorder");
  if (x.type().isScalar()) return Value::ofTensor(ir::Splat::make(x, shape, a.callRange()));
  if (shape == x.type().shape()) return Value::ofTensor(x);
  return Value::ofTensor(ir::Reshape::make(x, shape, canReorder, a.callRange()));
}

// x with a new minor dimension of size 1 (a scalar becomes [1]).
ir::Expr expandLast(const ir::Expr& x, SourceRange range) {
  if (x.type().isScalar()) return ir::Splat::make(x, {1}, range);
  return ir::ExpandDims::make(x, x.type().rank(), range);
}

// tl.join(a, b): a new minor dimension of size 2 holding a then b.
Value join(ExprChecker& ec, const BoundArgs& a) {
  return Value::ofTensor(builtin::joinTiles(ec, tensorArg(ec, a, "a"), tensorArg(ec, a, "b"), a.callRange()));
}

Value split(ExprChecker& ec, const BoundArgs& a) {
  const ir::Expr x = tileArg(ec, a, "a");
  if (x.type().shape().back() != 2)
    ec.error(a.callRange(), "tl.split needs a tensor whose last dimension is 2, got " + x.type().str() +
                                "; reshape it first, e.g. x.reshape(M, N // 2, 2)");
  if (x.type().isPointer()) ec.error(a.callRange(), "tl.split of pointer tensors is not supported by tilescope yet");
  auto [first, second] = builtin::splitTile(ec, x, a.callRange());
  return Value::ofTuple({Value::ofTensor(first), Value::ofTensor(second)});
}

// One half of a split: the elements at `which` (0 or 1) of the minor dimension, bit for bit. The
// other half is zeroed and the minor dimension xor-reduced: exact for every dtype (floats go through
// integers of their width, so -0.0 and NaN payloads survive).
ir::Expr half(ExprChecker& ec, const ir::Expr& x, int which, SourceRange range) {
  const ir::DType dt = x.type().dtype();
  const ir::Expr bits = builtin::asBits(x, range);
  const Value index = Value::ofTensor(Emitter::broadcastTo(ir::Arange::make(0, 2, range), x.type().shape(), range));
  const Value keep = ec.binary(ir::BinaryOp::Eq, index, Value::ofConst(ConstValue::integer(which)), range);
  const Value zero = Value::ofTensor(ir::Splat::make(ir::IntImm::make(bits.type().dtype(), 0, range), bits.type().shape(), range));
  const ir::Expr kept = ec.select(keep, Value::ofTensor(bits), zero, range).expr;
  return builtin::fromBits(ir::Reduce::make(ir::ReduceOp::XorSum, kept, kept.type().rank() - 1, false, range), dt, range);
}

}  // namespace

namespace builtin {

// Built from ops the simulator and the GPU already have: both operands broadcast along the new
// dimension, and `where(index == 0, a, b)`.
ir::Expr joinTiles(ExprChecker& ec, const ir::Expr& a, const ir::Expr& b, SourceRange range) {
  auto [x, y] = ec.broadcastPair(a, b, range);
  if (x.type().dtype() != y.type().dtype() || x.type().isPointer() != y.type().isPointer())
    ec.error(range, "tl.join needs two tensors of one dtype, got " + x.type().elementString() + " and " +
                        y.type().elementString() + "; cast one with .to()");
  ir::Shape shape = x.type().shape();
  shape.push_back(2);
  if (std::string err = ir::tileShapeError(shape, "tl.join"); !err.empty()) ec.error(range, err);
  const ir::Expr first = Emitter::broadcastTo(expandLast(x, range), shape, range);
  const ir::Expr second = Emitter::broadcastTo(expandLast(y, range), shape, range);
  const Value index = Value::ofTensor(Emitter::broadcastTo(ir::Arange::make(0, 2, range), shape, range));
  const Value isFirst = ec.binary(ir::BinaryOp::Eq, index, Value::ofConst(ConstValue::integer(0)), range);
  return ec.select(isFirst, Value::ofTensor(first), Value::ofTensor(second), range).expr;
}

ir::Expr asBits(const ir::Expr& x, SourceRange range) {
  const ir::DType dt = x.type().dtype();
  if (dt == ir::DType::I1) return ir::Cast::make(x, ir::DType::I8, false, false, ir::RoundingMode::None, range);
  if (ir::isFloat(dt)) return ir::Cast::make(x, *ir::intDType(ir::bitWidth(dt), true), false, true, ir::RoundingMode::None, range);
  return x;
}

ir::Expr fromBits(const ir::Expr& bits, ir::DType dt, SourceRange range) {
  if (dt == ir::DType::I1) return ir::Cast::make(bits, ir::DType::I1, false, false, ir::RoundingMode::None, range);
  if (ir::isFloat(dt)) return ir::Cast::make(bits, dt, false, true, ir::RoundingMode::None, range);
  return bits;
}

std::pair<ir::Expr, ir::Expr> splitTile(ExprChecker& ec, const ir::Expr& x, SourceRange range) {
  return {half(ec, x, 0, range), half(ec, x, 1, range)};
}

}  // namespace builtin

void registerShapeBuiltins(BuiltinRegistry& r) {
  r.add("tl.join", "a, b", join);
  r.add("tl.split", "a", split);
  r.add("tl.interleave", "a, b", [](ExprChecker& ec, const BoundArgs& a) {
    // join, then the minor dimension folded into the last one: a0 b0 a1 b1 ...
    const ir::Expr joined = join(ec, a).expr;
    ir::Shape shape = joined.type().shape();
    shape.pop_back();
    if (shape.empty()) shape.push_back(1);
    shape.back() *= 2;
    return Value::ofTensor(ir::Reshape::make(joined, shape, false, a.callRange()));
  });
  r.add("tl.reshape", "input, *shape, can_reorder=False",
        [](ExprChecker& ec, const BoundArgs& a) { return reshape(ec, a, false); });
  r.add("tl.view", "input, *shape", [](ExprChecker& ec, const BoundArgs& a) { return reshape(ec, a, true); });
  r.add("tl.ravel", "input, can_reorder=False", [](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr x = tileArg(ec, a, "input");
    const bool reorder = a.given("can_reorder") && ec.requireConstBool(a.get("can_reorder"), a.range("can_reorder"), "can_reorder");
    if (x.type().rank() == 1) return Value::ofTensor(x);
    return Value::ofTensor(ir::Reshape::make(x, {x.type().numel()}, reorder, a.callRange()));
  });
  r.add("tl.trans", "input, *dims", [](ExprChecker& ec, const BoundArgs& a) {
    std::vector<int64_t> dims = variadicInts(ec, a, "dims");
    if (dims.empty()) {
      ir::Expr x = tileArg(ec, a, "input");
      if (x.type().rank() != 2)
        ec.error(a.callRange(), "tl.trans without dims needs a 2-D tensor, got " + x.type().str() + "; pass the dims to permute");
      dims = {1, 0};
    }
    return permute(ec, a, dims);
  });
  r.add("tl.permute", "input, *dims", [](ExprChecker& ec, const BoundArgs& a) {
    return permute(ec, a, variadicInts(ec, a, "dims"));
  });
  r.add("tl.expand_dims", "input, axis", [](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr x = tensorArg(ec, a, "input");
    std::vector<int64_t> axes;
    const Value& av = a.get("axis");
    if (av.isTuple()) {
      for (const Value& v : av.elements) axes.push_back(ec.requireConstInt(v, a.range("axis"), "tl.expand_dims axis"));
    } else {
      axes.push_back(ec.requireConstInt(av, a.range("axis"), "tl.expand_dims axis"));
    }
    const int newRank = x.type().rank() + static_cast<int>(axes.size());
    std::vector<int> normalized;
    for (int64_t ax : axes) {
      auto n = ir::normalizeAxis(ax, newRank, "tl.expand_dims");
      if (!n) ec.error(a.range("axis"), n.error());
      normalized.push_back(*n);
    }
    std::sort(normalized.begin(), normalized.end());
    for (int ax : normalized) {
      if (x.type().isScalar()) x = ir::Splat::make(x, {1}, a.callRange());
      else x = ir::ExpandDims::make(x, ax, a.callRange());
    }
    return Value::ofTensor(x);
  });
  r.add("tl.broadcast_to", "input, *shape", [](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr x = tensorArg(ec, a, "input");
    ir::Shape shape;
    for (int64_t d : variadicInts(ec, a, "shape")) shape.push_back(d);
    if (std::string err = ir::tileShapeError(shape, "tl.broadcast_to"); !err.empty()) ec.error(a.callRange(), err);
    auto common = ir::broadcastShapes(x.type().shape(), shape);
    if (!common || *common != shape)
      ec.error(a.callRange(), "tl.broadcast_to cannot broadcast shape " + ir::shapeString(x.type().shape()) + " to " + ir::shapeString(shape));
    return Value::ofTensor(Emitter::broadcastTo(x, shape, a.callRange()));
  });
  r.add("tl.broadcast", "input, other", [](ExprChecker& ec, const BoundArgs& a) {
    auto [x, y] = ec.broadcastPair(tensorArg(ec, a, "input"), tensorArg(ec, a, "other"), a.callRange());
    return Value::ofTuple({Value::ofTensor(x), Value::ofTensor(y)});
  });
}

}  // namespace tilescope::lang
