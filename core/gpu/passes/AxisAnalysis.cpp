#include "core/gpu/passes/AxisAnalysis.h"

#include <algorithm>

#include "core/gpu/passes/VarCensus.h"

namespace tilescope::gpu::passes {

namespace {

using ir::DType;
constexpr int64_t kUnbounded = AxisInfo::kUnbounded;

// The largest power of two dividing v (0 is divisible by everything).
int64_t powerOfTwoDividing(int64_t v) {
  if (v == 0) return kUnbounded;
  const uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return std::min<int64_t>(static_cast<int64_t>(u & (~u + 1)), kUnbounded);
}

// Whether e reads var `id` (directly).
bool readsVar(const ir::Expr& e, int id) {
  struct Finder : ir::IRVisitor {
    int id = -1;
    bool found = false;
    void visitVarRef(const ir::VarRef& n) override { found |= n.var->id == id; }
  } finder;
  finder.id = id;
  finder.visitExpr(e);
  return finder.found;
}

int64_t floorPowerOfTwo(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v && p < kUnbounded) p *= 2;
  return v < 1 ? 1 : p;
}

// A (splat of a) literal integer, if e is one.
const ir::IntImm* literal(const ir::Expr& e) {
  if (const auto* s = e.as<ir::Splat>()) return literal(s->value);
  return e.as<ir::IntImm>();
}

// A (splat of a) run-time integer parameter, if e is one.
const ir::ParamRef* intParam(const ir::Expr& e) {
  if (const auto* s = e.as<ir::Splat>()) return intParam(s->value);
  const auto* p = e.as<ir::ParamRef>();
  return p && !e.type().isPointer() && ir::isInt(e.type().dtype()) ? p : nullptr;
}

// The facts of a value of `type`: scalars are constant; runs tile a tile's last dim evenly.
AxisInfo clampTo(const ir::Type& type, AxisInfo r) {
  if (type.isScalar()) return AxisInfo{1, kUnbounded, r.divisibility};
  const int64_t last = powerOfTwoDividing(std::max<int64_t>(1, type.shape().back()));
  r.contiguity = std::clamp<int64_t>(r.contiguity, 1, last);
  r.constancy = std::clamp<int64_t>(r.constancy, 1, last);
  return r;
}

// Value-preserving integer casts only: a run -2, -1, 0, 1 cast to unsigned is not a run.
bool valuePreserving(const ir::Cast& n, const ir::Type& type) {
  const ir::Type& from = n.value.type();
  const DType to = type.dtype(), fromType = from.dtype();
  const bool sameSign = ir::isSignedInt(to) == ir::isSignedInt(fromType);
  return !type.isPointer() && !from.isPointer() && ir::isInt(to) && ir::isInt(fromType) && !n.bitcast && to != DType::I1 &&
         fromType != DType::I1 &&
         (sameSign ? ir::bitWidth(to) >= ir::bitWidth(fromType)
                   : ir::isUnsignedInt(fromType) && ir::bitWidth(to) > ir::bitWidth(fromType));
}

std::map<int, ir::Expr> immutableLetValues(const VarCensus& census) {
  std::map<int, ir::Expr> values;
  for (const auto& [id, let] : census.lets)
    if (!let->var->isMutable) values[id] = let->value;
  return values;
}

}  // namespace

// analyse-axes: each var's facts from its definition, computed once, on demand (a definition may
// read vars declared later, such as a loop-carried scalar's step), into the table.
class AxisFactsBuilder {
public:
  explicit AxisFactsBuilder(const ir::Kernel& kernel) : analysis_(kernel, this) {
    census_.visitKernel(kernel);
    letValues_ = immutableLetValues(census_);
    inductionTiles_ = kernel.inductionTiles;
    findScalarInductions();
  }

  std::map<int, ir::VarAxisInfo> run() {
    for (const auto& [id, loop] : census_.loops) facts(id);
    for (const auto& [id, let] : census_.lets) facts(id);
    return std::move(table_);
  }

  const ir::VarAxisInfo& facts(int id) {
    if (auto it = table_.find(id); it != table_.end()) return it->second;
    static const ir::VarAxisInfo none;
    const auto loop = census_.loops.find(id);
    const auto let = census_.lets.find(id);
    if (loop == census_.loops.end() && let == census_.lets.end()) return none;  // declared by no Let or For
    if (!inProgress_.insert(id).second) return none;  // a cycle through carried values: nothing known
    ir::VarAxisInfo entry;
    std::set<int>& unit = entry.unitParams;
    auto sub = [&](const ir::Expr& x) { return analysis_.visit(x, unit, 1); };
    AxisInfo r;
    const ir::Type& type = loop != census_.loops.end() ? loop->second->iv->type : let->second->var->type;
    if (loop != census_.loops.end()) {
      r.divisibility = std::min(sub(loop->second->start).divisibility, sub(loop->second->step).divisibility);
    } else {
      if (auto ind = inductionTiles_.find(id); ind != inductionTiles_.end()) {
        r = sub(ind->second.init);
        if (ind->second.steps.empty()) r.divisibility = 1;
        for (const auto& [stepLet, step] : ind->second.steps) r.divisibility = std::min(r.divisibility, sub(step).divisibility);
      } else if (auto value = letValues_.find(id); value != letValues_.end()) {
        r = sub(value->second);
      } else if (auto si = scalarInductions_.find(id); si != scalarInductions_.end()) {
        r.divisibility = std::min(sub(si->second.first).divisibility, sub(si->second.second).divisibility);
        entry.inductionStep = si->second.second;
      }
    }
    entry.info = clampTo(type, r);
    inProgress_.erase(id);
    return table_[id] = std::move(entry);
  }

private:
  void findScalarInductions() {
    for (const auto& [id, let] : census_.lets) {
      const ir::VarPtr& v = let->var;
      if (!v->isMutable || !v->type.isScalar() || !ir::isInt(v->type.dtype()) || census_.assignCount(id) != 1) continue;
      // v = v + step, directly or through an immutable Let (a pinned tl.advance).
      ir::Expr value = census_.assigns.at(id).front()->value;
      if (const auto* ref = value.as<ir::VarRef>(); ref && letValues_.count(ref->var->id)) value = letValues_.at(ref->var->id);
      // v = v: an advance by 0 (tl.advance(bp, (0, BK))'s first offset) once fold-constants has
      // removed its `+ 0`; a step of 0.
      if (const auto* self = value.as<ir::VarRef>(); self && self->var->id == id && !readsVar(let->value, id)) {
        scalarInductions_[id] = {let->value, ir::IntImm::make(v->type.dtype(), 0)};
        continue;
      }
      const auto* add = value.as<ir::Binary>();
      if (!add || add->op != ir::BinaryOp::Add) continue;
      const int self = id;  // clang before 16 cannot capture structured bindings
      auto isSelf = [self](const ir::Expr& x) {
        const auto* r = x.as<ir::VarRef>();
        return r && r->var->id == self;
      };
      const ir::Expr step = isSelf(add->a) ? add->b : isSelf(add->b) ? add->a : ir::Expr();
      if (!step.defined() || readsVar(step, id) || readsVar(let->value, id)) continue;
      scalarInductions_[id] = {let->value, step};
    }
  }

  AxisAnalysis analysis_;  // its var references come back here
  VarCensus census_;
  std::map<int, ir::Expr> letValues_;
  std::map<int, ir::InductionTile> inductionTiles_;  // the find-induction-tiles table
  std::map<int, std::pair<ir::Expr, ir::Expr>> scalarInductions_;  // var id -> (initial value, step)
  std::map<int, ir::VarAxisInfo> table_;
  std::set<int> inProgress_;
};

ir::Kernel analyseAxes(const ir::Kernel& kernel) {
  ir::Kernel out = kernel;
  out.axes = AxisFactsBuilder(kernel).run();
  return out;
}

AxisAnalysis::AxisAnalysis(const ir::Kernel& kernel) : kernel_(kernel) {
  VarCensus census;
  census.visitKernel(kernel);
  letValues_ = immutableLetValues(census);
}

AxisAnalysis::AxisAnalysis(const ir::Kernel& kernel, AxisFactsBuilder* builder) : kernel_(kernel), builder_(builder) {}

AxisInfo AxisAnalysis::varFacts(const ir::VarRef& ref, std::set<int>& unitParams) const {
  const ir::VarAxisInfo* entry = nullptr;
  if (builder_) {
    entry = &builder_->facts(ref.var->id);
  } else if (auto it = kernel_.axes.find(ref.var->id); it != kernel_.axes.end()) {
    entry = &it->second;
  }
  if (!entry) return AxisInfo{};
  unitParams.insert(entry->unitParams.begin(), entry->unitParams.end());
  return entry->info;
}

std::optional<ir::Expr> AxisAnalysis::scalarInductionStep(int varId) const {
  auto it = kernel_.axes.find(varId);
  if (it == kernel_.axes.end() || !it->second.inductionStep.defined()) return std::nullopt;
  return it->second.inductionStep;
}

AxisInfo AxisAnalysis::of(const ir::Expr& e, std::set<int>& unitParams) const { return visit(e, unitParams, 0); }

bool AxisAnalysis::intervalOverRuns(const ir::Expr& mask, int64_t run, std::set<int>& unitParams) const {
  using K = ir::ExprKind;
  if (visit(mask, unitParams, 0).constancy >= run) return true;
  switch (mask.kind()) {
    case K::VarRef: {
      auto let = letValues_.find(mask.as<ir::VarRef>()->var->id);
      return let != letValues_.end() && intervalOverRuns(let->second, run, unitParams);
    }
    case K::Broadcast: {
      // Repeated along other dims only: each run is a run of the source.
      const auto* n = mask.as<ir::Broadcast>();
      return !n->value.type().isScalar() && n->value.type().shape().back() == mask.type().shape().back() &&
             intervalOverRuns(n->value, run, unitParams);
    }
    case K::ExpandDims: {
      const auto* n = mask.as<ir::ExpandDims>();
      return n->axis != n->value.type().rank() && intervalOverRuns(n->value, run, unitParams);
    }
    case K::Binary: {
      const auto* n = mask.as<ir::Binary>();
      using Op = ir::BinaryOp;
      if (n->op == Op::And && n->type.dtype() == DType::I1)
        return intervalOverRuns(n->a, run, unitParams) && intervalOverRuns(n->b, run, unitParams);
      if (n->op != Op::Lt && n->op != Op::Le && n->op != Op::Gt && n->op != Op::Ge) return false;
      // A monotone side against a side constant over the run: true on a prefix or a suffix of it.
      const AxisInfo a = visit(n->a, unitParams, 0), b = visit(n->b, unitParams, 0);
      return (a.contiguity >= run && b.constancy >= run) || (b.contiguity >= run && a.constancy >= run);
    }
    default: return false;
  }
}

AxisInfo AxisAnalysis::visit(const ir::Expr& e, std::set<int>& unitParams, int depth) const {
  using K = ir::ExprKind;
  const ir::Type& type = e.type();
  AxisInfo r;
  if (type.isScalar()) r.constancy = kUnbounded;
  if (depth > 64) return r;
  auto sub = [&](const ir::Expr& x) { return visit(x, unitParams, depth + 1); };
  switch (e.kind()) {
    case K::IntImm: r.divisibility = powerOfTwoDividing(e.as<ir::IntImm>()->value); break;
    case K::ParamRef: {
      const ir::KernelParam& p = kernel_.params.at(static_cast<size_t>(e.as<ir::ParamRef>()->index));
      if (p.divisibleBy16) {
        const int64_t bytes = std::max<int64_t>(1, ir::bitWidth(type.dtype()) / 8);
        r.divisibility = type.isPointer() ? std::max<int64_t>(1, 16 / bytes) : 16;
      }
      break;
    }
    case K::VarRef: r = varFacts(*e.as<ir::VarRef>(), unitParams); break;
    case K::Arange: {
      const auto* n = e.as<ir::Arange>();
      r.contiguity = floorPowerOfTwo(n->end - n->start);
      r.divisibility = powerOfTwoDividing(n->start);
      break;
    }
    case K::Splat:
      r.constancy = kUnbounded;
      r.divisibility = sub(e.as<ir::Splat>()->value).divisibility;
      break;
    case K::Broadcast: {
      const auto* n = e.as<ir::Broadcast>();
      const AxisInfo s = sub(n->value);
      if (n->value.type().shape().back() == type.shape().back()) r = s;
      else r = AxisInfo{1, kUnbounded, s.divisibility};  // the source's last dim is 1: one element repeated
      break;
    }
    case K::ExpandDims: {
      const auto* n = e.as<ir::ExpandDims>();
      const AxisInfo s = sub(n->value);
      if (n->axis == n->value.type().rank()) r = AxisInfo{1, 1, s.divisibilityAt(1)};  // each element its own row
      else r = s;
      break;
    }
    case K::Reshape: {
      const auto* n = e.as<ir::Reshape>();
      if (!n->value.type().isScalar() && n->value.type().shape().back() == type.shape().back()) r = sub(n->value);
      break;
    }
    case K::Permute: {
      const auto* n = e.as<ir::Permute>();
      if (n->order.back() == static_cast<int>(n->order.size()) - 1) r = sub(n->value);
      break;
    }
    case K::Cast: {
      const auto* n = e.as<ir::Cast>();
      const AxisInfo s = sub(n->value);
      r = valuePreserving(*n, type) ? s : AxisInfo{1, s.constancy, 1};
      break;
    }
    case K::Unary: {
      const auto* n = e.as<ir::Unary>();
      const AxisInfo s = sub(n->value);
      r.constancy = s.constancy;
      if (n->op == ir::UnaryOp::Neg) r.divisibility = s.divisibilityAt(1);
      break;
    }
    case K::Binary: r = binary(*e.as<ir::Binary>(), unitParams, depth); break;
    case K::Select: {
      const auto* n = e.as<ir::Select>();
      r.constancy = std::min({sub(n->cond).constancy, sub(n->a).constancy, sub(n->b).constancy});
      break;
    }
    case K::Hint: {
      const auto* n = e.as<ir::Hint>();
      r = sub(n->value);
      const int64_t v = floorPowerOfTwo(n->values.empty() ? 1 : n->values.back());
      if (n->hint == ir::HintKind::MultipleOf) r.divisibility = std::max(r.divisibility, v);
      if (n->hint == ir::HintKind::MaxContiguous) r.contiguity = std::max(r.contiguity, v);
      if (n->hint == ir::HintKind::MaxConstancy) r.constancy = std::max(r.constancy, v);
      break;
    }
    case K::ConvertLayout: r = sub(e.as<ir::ConvertLayout>()->value); break;  // the same values, elsewhere
    default: break;
  }
  return clampTo(type, r);
}

namespace {

// A binary node's facts from its operands' (along one dim).
AxisInfo combineBinary(const ir::Binary& n, const AxisInfo& a, const AxisInfo& b, std::set<int>& unitParams) {
  using Op = ir::BinaryOp;
  AxisInfo r;
  r.constancy = std::min(a.constancy, b.constancy);  // any elementwise op keeps runs of equal inputs
  const bool integral = n.type.isPointer() || ir::isInt(n.type.dtype());
  switch (n.op) {
    case Op::Add:
    case Op::Sub: {
      if (!integral) break;
      r.contiguity = std::min(a.contiguity, b.constancy);
      if (n.op == Op::Add) r.contiguity = std::max(r.contiguity, std::min(a.constancy, b.contiguity));
      r.divisibility = std::min(a.divisibilityAt(r.contiguity), b.divisibilityAt(r.contiguity));
      break;
    }
    case Op::Mul: {
      if (!integral) break;
      for (int side = 0; side < 2; ++side) {
        const AxisInfo& x = side == 0 ? a : b;
        const ir::Expr& y = side == 0 ? n.b : n.a;
        if (const ir::IntImm* zero = literal(y); zero && zero->value == 0) return AxisInfo{1, kUnbounded, kUnbounded};
        if (x.contiguity <= 1) continue;
        if (const ir::IntImm* one = literal(y); one && one->value == 1) return x;
        if (const ir::ParamRef* p = intParam(y)) {
          unitParams.insert(p->index);  // a stride: contiguous when it is 1, checked at run time
          return x;
        }
      }
      r.divisibility = std::min(kUnbounded, a.divisibilityAt(1) * b.divisibilityAt(1));
      break;
    }
    case Op::Mod: {
      if (!integral || n.type.isPointer()) break;
      if (a.contiguity > 1) {
        // A run of a starting at a multiple of L stays inside one period of b when b is a multiple of L.
        r.contiguity = std::min({a.contiguity, a.divisibility, b.divisibility, b.constancy});
        r.divisibility = std::min(a.divisibilityAt(r.contiguity), b.divisibility);
      } else {
        r.divisibility = std::min(a.divisibility, b.divisibility);
      }
      break;
    }
    case Op::Lt:
    case Op::Ge:
    case Op::Gt:
    case Op::Le: {
      // x < y (or x >= y) with x in runs of +1 starting at multiples of L and y a multiple of L
      // constant over the run: the whole run compares alike.
      const bool leftRuns = n.op == Op::Lt || n.op == Op::Ge;
      const AxisInfo& x = leftRuns ? a : b;
      const AxisInfo& y = leftRuns ? b : a;
      r.constancy = std::max(r.constancy, std::min({x.contiguity, x.divisibility, y.constancy, y.divisibility}));
      break;
    }
    default: break;
  }
  return r;
}

}  // namespace

AxisInfo AxisAnalysis::binary(const ir::Binary& n, std::set<int>& unitParams, int depth) const {
  return combineBinary(n, visit(n.a, unitParams, depth + 1), visit(n.b, unitParams, depth + 1), unitParams);
}

int64_t AxisAnalysis::everyElementDivisibility(const ir::Expr& e, int depth) const {
  // Along its last dim, without the strides assumed 1 there (they are not along the dim asked for).
  std::set<int> assumed;
  const AxisInfo info = visit(e, assumed, depth);
  return assumed.empty() ? info.divisibilityAt(1) : 1;
}

AxisInfo AxisAnalysis::ofDim(const ir::Expr& e, int dim, std::set<int>& unitParams) const {
  return visitAlong(e, dim, unitParams, 0);
}

AxisInfo AxisAnalysis::visitAlong(const ir::Expr& e, int dim, std::set<int>& unitParams, int depth) const {
  using K = ir::ExprKind;
  const ir::Type& type = e.type();
  // Scalars are the same along every dim; the last dim is what `visit` (and the table) knows.
  if (type.isScalar() || dim < 0 || dim >= type.rank() - 1) return visit(e, unitParams, depth);
  AxisInfo r;
  if (depth > 64) return r;
  auto sub = [&](const ir::Expr& x, int d) { return visitAlong(x, d, unitParams, depth + 1); };
  // An operand of an elementwise node: the same dim of the same shape, or a scalar.
  auto same = [&](const ir::Expr& x) {
    if (!x.type().isScalar() && x.type().rank() != type.rank()) return AxisInfo{};
    return sub(x, dim);
  };
  switch (e.kind()) {
    case K::VarRef: {
      const int id = e.as<ir::VarRef>()->var->id;
      if (auto let = letValues_.find(id); let != letValues_.end()) {
        r = sub(let->second, dim);
      } else if (auto ind = kernel_.inductionTiles.find(id); ind != kernel_.inductionTiles.end()) {
        // Its initial value plus a scalar offset that every power of two dividing all steps divides.
        r = sub(ind->second.init, dim);
        if (ind->second.steps.empty()) r.divisibility = 1;
        for (const auto& [stepLet, step] : ind->second.steps)
          r.divisibility = std::min(r.divisibility, visit(step, unitParams, depth + 1).divisibility);
      }
      break;
    }
    case K::Splat:
      r.constancy = kUnbounded;
      r.divisibility = visit(e.as<ir::Splat>()->value, unitParams, depth + 1).divisibility;
      break;
    case K::Broadcast: {
      const auto* n = e.as<ir::Broadcast>();
      const ir::Type& from = n->value.type();
      if (!from.isScalar() && from.rank() == type.rank() && from.shape()[static_cast<size_t>(dim)] == type.shape()[static_cast<size_t>(dim)])
        r = sub(n->value, dim);
      else if (!from.isScalar() && from.rank() == type.rank())  // size 1 along dim: repeated
        r = AxisInfo{1, kUnbounded, sub(n->value, dim).divisibilityAt(1)};
      break;
    }
    case K::ExpandDims: {
      const auto* n = e.as<ir::ExpandDims>();
      if (n->axis == dim) r = AxisInfo{1, 1, everyElementDivisibility(n->value, depth + 1)};  // the new size-1 dim
      else r = sub(n->value, dim < n->axis ? dim : dim - 1);
      break;
    }
    case K::Permute: {
      const auto* n = e.as<ir::Permute>();
      r = sub(n->value, n->order.at(static_cast<size_t>(dim)));
      break;
    }
    case K::Cast: {
      const auto* n = e.as<ir::Cast>();
      const AxisInfo s = same(n->value);
      r = valuePreserving(*n, type) ? s : AxisInfo{1, s.constancy, 1};
      break;
    }
    case K::Unary: {
      const auto* n = e.as<ir::Unary>();
      const AxisInfo s = same(n->value);
      r.constancy = s.constancy;
      if (n->op == ir::UnaryOp::Neg) r.divisibility = s.divisibilityAt(1);
      break;
    }
    case K::Binary: {
      const auto* n = e.as<ir::Binary>();
      r = combineBinary(*n, same(n->a), same(n->b), unitParams);
      break;
    }
    case K::Select: {
      const auto* n = e.as<ir::Select>();
      r.constancy = std::min({same(n->cond).constancy, same(n->a).constancy, same(n->b).constancy});
      break;
    }
    case K::Hint: {
      const auto* n = e.as<ir::Hint>();
      r = same(n->value);
      if (n->values.size() == static_cast<size_t>(type.rank())) {
        const int64_t v = floorPowerOfTwo(n->values[static_cast<size_t>(dim)]);
        if (n->hint == ir::HintKind::MultipleOf) r.divisibility = std::max(r.divisibility, v);
        if (n->hint == ir::HintKind::MaxContiguous) r.contiguity = std::max(r.contiguity, v);
        if (n->hint == ir::HintKind::MaxConstancy) r.constancy = std::max(r.constancy, v);
      }
      break;
    }
    case K::ConvertLayout: r = same(e.as<ir::ConvertLayout>()->value); break;
    default: break;
  }
  const int64_t extent = powerOfTwoDividing(std::max<int64_t>(1, type.shape()[static_cast<size_t>(dim)]));
  r.contiguity = std::clamp<int64_t>(r.contiguity, 1, extent);
  r.constancy = std::clamp<int64_t>(r.constancy, 1, extent);
  return r;
}
}  // namespace tilescope::gpu::passes
