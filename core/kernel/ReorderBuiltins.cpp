// tl.flip, tl.cat, tl.sort, tl.topk, tl.gather and tl.histogram, built from ops the simulator and the GPU
// already have. flip and sort view a power-of-two dimension of 2^s elements as s binary axes, and
// each step works on one of them with the exact tl.split / tl.join (its halves are the elements
// whose index differs in one bit); gather and histogram compare every index with every position.
#include <numeric>

#include "core/kernel/BuiltinRegistry.h"

namespace tilescope::lang {

namespace {

int log2Exact(int64_t n) {
  int s = 0;
  while ((int64_t{1} << s) < n) ++s;
  return s;
}

// The axis (of a tile of `rank`) moved to the end, and back.
std::vector<int> axisLast(int rank, int axis) {
  std::vector<int> order;
  for (int d = 0; d < rank; ++d)
    if (d != axis) order.push_back(d);
  order.push_back(axis);
  return order;
}
std::vector<int> inverse(const std::vector<int>& order) {
  std::vector<int> inv(order.size());
  for (size_t i = 0; i < order.size(); ++i) inv[static_cast<size_t>(order[i])] = static_cast<int>(i);
  return inv;
}

ir::Expr permuted(const ir::Expr& x, const std::vector<int>& order, SourceRange range) {
  std::vector<int> identity(order.size());
  std::iota(identity.begin(), identity.end(), 0);
  return order == identity ? x : ir::Permute::make(x, order, range);
}

ir::Expr reshaped(const ir::Expr& x, const ir::Shape& shape, SourceRange range) {
  return shape == x.type().shape() ? x : ir::Reshape::make(x, shape, false, range);
}

// x with dim `dim` (2^s elements) split into s binary axes, most significant bit first.
ir::Expr binaryAxes(const ir::Expr& x, int dim, int s, SourceRange range) {
  const ir::Shape& shape = x.type().shape();
  ir::Shape out(shape.begin(), shape.begin() + dim);
  out.insert(out.end(), static_cast<size_t>(s), 2);
  out.insert(out.end(), shape.begin() + dim + 1, shape.end());
  return reshaped(x, out, range);
}

// Applies step(lo, hi) -> (lo', hi') to the two halves along binary axis `axis` of y.
// Every intermediate is bound by a Let: each step reads the previous one twice (both halves), so
// unbound expressions would grow as 2^steps trees.
template <class Step>
ir::Expr alongAxis(ExprChecker& ec, const ir::Expr& y, int axis, SourceRange range, Step step) {
  Emitter& em = ec.emitter();
  const std::vector<int> order = axisLast(y.type().rank(), axis);
  auto [lo, hi] = builtin::splitTile(ec, em.let("halves", permuted(y, order, range), range), range);
  auto [newLo, newHi] = step(em.let("lo", lo, range), em.let("hi", hi, range), order);
  return em.let("pairs", permuted(builtin::joinTiles(ec, newLo, newHi, range), inverse(order), range), range);
}

int dimArg(ExprChecker& ec, const BoundArgs& a, const ir::Expr& x, const std::string& param) {
  const int rank = x.type().rank();
  if (!a.given(param)) return rank - 1;
  int64_t d = ec.requireConstInt(a.get(param), a.range(param), a.name() + " " + param);
  if (d < 0) d += rank;
  if (d < 0 || d >= rank)
    ec.error(a.range(param), a.name() + " " + param + " is out of range for " + x.type().str());
  return static_cast<int>(d);
}

Value flip(ExprChecker& ec, const BoundArgs& a) {
  const ir::Expr x = builtin::tileArg(ec, a, "x");
  const SourceRange range = a.callRange();
  const int dim = dimArg(ec, a, x, "dim");
  const int s = log2Exact(x.type().shape()[static_cast<size_t>(dim)]);
  // Reversing an index flips every one of its bits: swap the halves along each binary axis.
  ir::Expr y = binaryAxes(x, dim, s, range);
  for (int axis = dim; axis < dim + s; ++axis)
    y = alongAxis(ec, y, axis, range, [](const ir::Expr& lo, const ir::Expr& hi, const std::vector<int>&) {
      return std::pair{hi, lo};
    });
  return Value::ofTensor(reshaped(y, x.type().shape(), range));
}

Value cat(ExprChecker& ec, const BoundArgs& a) {
  const ir::Expr x = builtin::tileArg(ec, a, "input"), y = builtin::tileArg(ec, a, "other");
  const SourceRange range = a.callRange();
  if (x.type().shape() != y.type().shape())
    ec.error(range, "tl.cat needs two tensors of one shape, got " + x.type().str() + " and " + y.type().str());
  // Triton may reorder the elements (can_reorder); here the result is always input then other
  // along dim 0: join puts them on a new minor axis, which moves to the front and folds into dim 0.
  if (a.given("can_reorder")) ec.requireConstBool(a.get("can_reorder"), a.range("can_reorder"), "tl.cat can_reorder");
  const ir::Expr joined = builtin::joinTiles(ec, x, y, range);
  const int rank = joined.type().rank();
  std::vector<int> order{rank - 1};
  for (int d = 0; d < rank - 1; ++d) order.push_back(d);
  ir::Shape shape = x.type().shape();
  shape[0] *= 2;
  if (std::string err = ir::tileShapeError(shape, "tl.cat"); !err.empty()) ec.error(range, err);
  return Value::ofTensor(reshaped(permuted(joined, order, range), shape, range));
}

// Bitonic sort along the last dim: for block sizes 2^k (k = 1..s) and distances 2^j (j = k-1..0),
// element i and its partner i ^ 2^j swap when out of order, ascending where bit k of i is 0.
ir::Expr sortLastDim(ExprChecker& ec, const ir::Expr& x, bool descending, SourceRange range) {
  const int dim = x.type().rank() - 1;
  const int s = log2Exact(x.type().shape().back());
  ir::Expr y = binaryAxes(x, dim, s, range);
  auto axisOfBit = [&](int bit) { return dim + (s - 1 - bit); };
  for (int k = 1; k <= s; ++k) {
    for (int j = k - 1; j >= 0; --j) {
      y = alongAxis(ec, y, axisOfBit(j), range, [&](const ir::Expr& lo, const ir::Expr& hi, const std::vector<int>& order) {
        // The halves' axes are y's in `order` without the last; bit k's axis among them gives the
        // direction of each pair's block (all ascending for the last merge).
        Value downward = Value::ofConst(ConstValue::boolean(descending));
        if (k < s) {
          const int at = static_cast<int>(std::find(order.begin(), order.end(), axisOfBit(k)) - order.begin());
          ir::Expr bit = ir::Arange::make(0, 2, range);
          for (int d = 0; d < at; ++d) bit = ir::ExpandDims::make(bit, 0, range);
          for (int d = at + 1; d < lo.type().rank(); ++d) bit = ir::ExpandDims::make(bit, d, range);
          const Value set = ec.compare(ir::BinaryOp::Eq, Value::ofTensor(bit), Value::ofConst(ConstValue::integer(descending ? 0 : 1)), range);
          downward = Value::ofTensor(Emitter::broadcastTo(set.expr, lo.type().shape(), range));
        }
        const Value l = Value::ofTensor(lo), h = Value::ofTensor(hi);
        const Value swap = Value::ofTensor(ec.emitter().let(
            "swap", ec.select(downward, ec.compare(ir::BinaryOp::Lt, l, h, range), ec.compare(ir::BinaryOp::Gt, l, h, range), range).expr,
            range));
        return std::pair{ec.select(swap, h, l, range).expr, ec.select(swap, l, h, range).expr};
      });
    }
  }
  return reshaped(y, x.type().shape(), range);
}

// Along `axis` of `values`, the one element where `keep` holds (keep broadcasts to values' shape),
// exactly: the others zeroed as integers of the same width and xor-reduced, so -0.0 and NaN
// payloads come through unchanged.
ir::Expr pickByBits(ExprChecker& ec, const ir::Expr& values, const ir::Expr& keep, int axis, const std::string& name,
                    SourceRange range) {
  const ir::Expr bits = builtin::asBits(values, range);
  const ir::Shape& shape = bits.type().shape();
  const Value zero = Value::ofTensor(ir::Splat::make(ir::IntImm::make(bits.type().dtype(), 0, range), shape, range));
  const ir::Expr kept =
      ec.select(Value::ofTensor(Emitter::broadcastTo(keep, shape, range)), Value::ofTensor(bits), zero, range).expr;
  const ir::Expr picked = ir::Reduce::make(ir::ReduceOp::XorSum, ec.emitter().let(name, kept, range), axis, false, range);
  return builtin::fromBits(picked, values.type().dtype(), range);
}

// The tensor argument of tl.sort / tl.topk, which work on the last dim only.
ir::Expr sortableArg(ExprChecker& ec, const BoundArgs& a, const std::string& what) {
  const ir::Expr x = builtin::tileArg(ec, a, "x");
  if (dimArg(ec, a, x, "dim") != x.type().rank() - 1)
    ec.error(a.range("dim"), what + " works along the last dimension only (as Triton); permute the tensor first");
  if (x.type().isPointer() || x.type().dtype() == ir::DType::I1) ec.error(a.callRange(), what + " needs numbers, not " + x.type().str());
  return x;
}

Value sort(ExprChecker& ec, const BoundArgs& a) {
  const ir::Expr x = sortableArg(ec, a, "tl.sort");
  const bool descending = a.given("descending") && ec.requireConstBool(a.get("descending"), a.range("descending"), "tl.sort descending");
  return Value::ofTensor(sortLastDim(ec, x, descending, a.callRange()));
}

// tl.topk(x, k): the k largest along the last dim, largest first. The descending sort viewed as
// [n / k, k] has them in its first row, picked by bits.
Value topk(ExprChecker& ec, const BoundArgs& a) {
  const ir::Expr x = sortableArg(ec, a, "tl.topk");
  const SourceRange range = a.callRange();
  const int64_t n = x.type().shape().back();
  const int64_t k = ec.requireConstInt(a.get("k"), a.range("k"), "tl.topk k");
  if (k < 1 || k > n || (k & (k - 1)) != 0)
    ec.error(a.range("k"), "tl.topk k must be a power of two from 1 to the last dimension's " + std::to_string(n) + ", got " +
                               std::to_string(k));
  const ir::Expr sorted = ec.emitter().let("sorted", sortLastDim(ec, x, true, range), range);
  if (k == n) return Value::ofTensor(sorted);
  const int rank = x.type().rank();
  ir::Shape view(x.type().shape().begin(), x.type().shape().end() - 1);
  view.push_back(n / k);
  view.push_back(k);
  ir::Expr row = ir::Arange::make(0, n / k, range);
  for (int d = 0; d < rank - 1; ++d) row = ir::ExpandDims::make(row, 0, range);
  row = ir::ExpandDims::make(row, rank, range);
  const Value first = ec.compare(ir::BinaryOp::Eq, Value::ofTensor(row), Value::ofConst(ConstValue::integer(0)), range);
  return Value::ofTensor(pickByBits(ec, reshaped(sorted, view, range), first.expr, rank - 1, "top", range));
}

// out[..., i, ...] = src[..., index[..., i, ...], ...] along axis: every index compared with every
// position of src's axis (a new minor dim), the match kept and the rest zeroed, xor-reduced.
Value gather(ExprChecker& ec, const BoundArgs& a) {
  const ir::Expr src = builtin::tileArg(ec, a, "src"), index = builtin::tileArg(ec, a, "index");
  const SourceRange range = a.callRange();
  const int rank = src.type().rank();
  if (index.type().rank() != rank)
    ec.error(range, "tl.gather needs src and index of the same rank, got " + src.type().str() + " and " + index.type().str());
  if (!ir::isInt(index.type().dtype()) || index.type().isPointer())
    ec.error(a.range("index"), "tl.gather index must be an integer tensor, not " + index.type().str());
  if (src.type().isPointer()) ec.error(a.range("src"), "tl.gather of pointer tensors is not supported by tilescope yet");
  int64_t axis = ec.requireConstInt(a.get("axis"), a.range("axis"), "tl.gather axis");
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) ec.error(a.range("axis"), "tl.gather axis is out of range for " + src.type().str());
  const int d = static_cast<int>(axis);
  for (int j = 0; j < rank; ++j)
    if (j != d && src.type().shape()[static_cast<size_t>(j)] != index.type().shape()[static_cast<size_t>(j)])
      ec.error(range, "tl.gather needs src and index to match in every dimension but axis " + std::to_string(d) + ", got " +
                          src.type().str() + " and " + index.type().str());
  const int64_t extent = src.type().shape()[static_cast<size_t>(d)];
  ir::Shape shape = index.type().shape();
  shape.push_back(extent);
  if (std::string err = ir::tileShapeError(shape, "tl.gather"); !err.empty()) ec.error(range, err);
  // position == index, on index's shape plus the minor dim of src's axis positions
  ir::Expr positions = ir::Arange::make(0, extent, range);
  for (int j = 0; j < rank; ++j) positions = ir::ExpandDims::make(positions, 0, range);
  const Value match = ec.compare(ir::BinaryOp::Eq, Value::ofTensor(ir::ExpandDims::make(index, rank, range)),
                                 Value::ofTensor(positions), range);
  // src's axis moved to the minor dim, a dim of 1 in its place, broadcast to the compared shape
  ir::Expr values = ir::ExpandDims::make(permuted(src, axisLast(rank, d), range), d, range);
  values = Emitter::broadcastTo(values, shape, range);
  return Value::ofTensor(pickByBits(ec, values, match.expr, rank, "gathered", range));
}

// tl.histogram(x, num_bins): counts of the values 0 .. num_bins - 1 (bins of width 1 from 0), as
// int32; values outside are not counted, nor masked-off elements.
Value histogram(ExprChecker& ec, const BoundArgs& a) {
  ir::Expr x = builtin::tileArg(ec, a, "input");
  const SourceRange range = a.callRange();
  if (!ir::isInt(x.type().dtype()) || x.type().isPointer())
    ec.error(a.range("input"), "tl.histogram counts integers, not " + x.type().str() + "; convert with .to(tl.int32)");
  const int64_t bins = ec.requireConstInt(a.get("num_bins"), a.range("num_bins"), "tl.histogram num_bins");
  if (x.type().rank() != 1) x = ir::Reshape::make(x, {x.type().numel()}, true, range);
  const ir::Shape shape{x.type().numel(), bins};
  if (std::string err = ir::tileShapeError(shape, "tl.histogram"); !err.empty()) ec.error(a.range("num_bins"), err);
  Value hit = ec.compare(ir::BinaryOp::Eq, Value::ofTensor(ir::ExpandDims::make(x, 1, range)),
                         Value::ofTensor(ir::ExpandDims::make(ir::Arange::make(0, bins, range), 0, range)), range);
  if (a.given("mask")) {
    ir::Expr mask = ec.tensorOf(a.get("mask"), a.range("mask"), "tl.histogram mask");
    if (mask.type().rank() != 1) mask = ir::Reshape::make(mask, {mask.type().numel()}, true, range);
    hit = ec.binary(ir::BinaryOp::And, hit, Value::ofTensor(ir::ExpandDims::make(mask, 1, range)), range);
  }
  const ir::Expr counts = Emitter::cast(Emitter::broadcastTo(hit.expr, shape, range), ir::DType::I32, range);
  return Value::ofTensor(ir::Reduce::make(ir::ReduceOp::Sum, ec.emitter().let("hits", counts, range), 0, false, range));
}

}  // namespace

void registerReorderBuiltins(BuiltinRegistry& r) {
  r.add("tl.gather", "src, index, axis", gather);
  r.add("tl.histogram", "input, num_bins, mask=None", histogram);
  r.add("tl.flip", "x, dim=None", flip);
  r.add("tl.cat", "input, other, can_reorder=False", cat);
  r.add("tl.sort", "x, dim=None, descending=False", sort);
  r.add("tl.topk", "x, k, dim=None", topk);
}

}  // namespace tilescope::lang
