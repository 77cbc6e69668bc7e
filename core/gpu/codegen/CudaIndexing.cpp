// Element-index expressions of the CUDA generator (private to core/gpu): which tile values are
// recomputed where they are used instead of stored (index-pure values, induction tiles), and how a
// broadcast or permute maps an element index to its source's.
#include <map>
#include <vector>

#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/passes/VarCensus.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::gpu {

namespace {

std::vector<int64_t> rowMajorStrides(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

// Coordinate d of element `index` of a row-major tile of `shape`.
std::string coordinate(const ir::Shape& shape, const std::vector<int64_t>& strides, size_t d, const std::string& index) {
  std::string x = strides[d] == 1 ? "(" + index + ")" : "((" + index + ") / " + std::to_string(strides[d]) + ")";
  if (d > 0) x = "(" + x + " % " + std::to_string(shape[d]) + ")";
  return x;
}

}  // namespace

// The element of a broadcast's source that element `index` of the result repeats.
std::string broadcastSourceIndex(const ir::Shape& src, const ir::Shape& dst, const std::string& index) {
  const auto ss = rowMajorStrides(src), ds = rowMajorStrides(dst);
  std::string out;
  for (size_t d = 0; d < dst.size(); ++d) {
    if (src[d] == 1 || dst[d] == 1) continue;
    out += (out.empty() ? "" : " + ") + coordinate(dst, ds, d, index) + (ss[d] == 1 ? "" : " * " + std::to_string(ss[d]));
  }
  return out.empty() ? "0" : "(" + out + ")";
}

// The element of a permute's source that element `index` of the result is.
std::string permuteSourceIndex(const ir::Shape& src, const ir::Shape& dst, const std::vector<int>& order,
                               const std::string& index) {
  const auto ss = rowMajorStrides(src), ds = rowMajorStrides(dst);
  std::string out;
  for (size_t d = 0; d < dst.size(); ++d) {
    if (dst[d] == 1) continue;
    const int64_t st = ss[static_cast<size_t>(order[d])];
    out += (out.empty() ? "" : " + ") + coordinate(dst, ds, d, index) + (st == 1 ? "" : " * " + std::to_string(st));
  }
  return out.empty() ? "0" : "(" + out + ")";
}

bool CudaEmitter::inlinable(const ir::Expr& e) {
  using K = ir::ExprKind;
  switch (e.kind()) {
    case K::IntImm:
    case K::FloatImm:
    case K::ParamRef:
    case K::ProgramId:
    case K::NumPrograms:
    case K::Arange: return true;
    case K::VarRef: return !e.as<ir::VarRef>()->var->isMutable;
    case K::Splat: return inlinable(e.as<ir::Splat>()->value);
    case K::Broadcast: return inlinable(e.as<ir::Broadcast>()->value);
    case K::ExpandDims: return inlinable(e.as<ir::ExpandDims>()->value);
    case K::Reshape: return inlinable(e.as<ir::Reshape>()->value);
    case K::Permute: return inlinable(e.as<ir::Permute>()->value);
    case K::Cast: return inlinable(e.as<ir::Cast>()->value);
    case K::Unary: return inlinable(e.as<ir::Unary>()->value);
    case K::Binary: return inlinable(e.as<ir::Binary>()->a) && inlinable(e.as<ir::Binary>()->b);
    case K::Select: {
      const auto* n = e.as<ir::Select>();
      return inlinable(n->cond) && inlinable(n->a) && inlinable(n->b);
    }
    case K::Hint: return inlinable(e.as<ir::Hint>()->value);
    default: return false;  // math calls, random numbers, memory, reductions, scans, dots: computed once
  }
}

namespace {

// `x + splat(s)` or `splat(s) + x` with x a read of var `tile`: the scalar s, else an undefined Expr.
ir::Expr scalarStepOf(const ir::Expr& value, int tile) {
  const auto* add = value.as<ir::Binary>();
  if (!add || add->op != ir::BinaryOp::Add) return {};
  for (int side = 0; side < 2; ++side) {
    const ir::Expr& x = side == 0 ? add->a : add->b;
    const ir::Expr& y = side == 0 ? add->b : add->a;
    const auto* ref = x.as<ir::VarRef>();
    const auto* splat = y.as<ir::Splat>();
    if (ref && ref->var->id == tile && splat && splat->value.type().isScalar() && ir::isInt(splat->value.type().dtype()))
      return splat->value;
  }
  return {};
}

}  // namespace

void CudaEmitter::findInductionTiles() {
  VarCensus census;
  census.visitStmt(kernel_.body);
  for (const auto& [id, let] : census.lets) {
    const ir::VarPtr& var = let->var;
    const ir::Type& t = var->type;
    if (!var->isMutable || !t.isTile() || !(t.isPointer() || ir::isInt(t.dtype())) || !inlinable(let->value)) continue;
    auto assigned = census.assigns.find(id);
    if (assigned == census.assigns.end()) continue;
    std::map<int, InductionStep> steps;
    bool ok = true;
    for (const ir::Assign* a : assigned->second) {
      const auto* from = a->value.as<ir::VarRef>();
      auto stepLet = from ? census.lets.find(from->var->id) : census.lets.end();
      if (stepLet == census.lets.end() || census.readCount(from->var->id) != 1) {
        ok = false;
        break;
      }
      const ir::Expr step = scalarStepOf(stepLet->second->value, id);
      if (!step.defined() || !inlinable(step)) {
        ok = false;
        break;
      }
      steps[from->var->id] = InductionStep{id, step};
    }
    if (!ok) continue;
    induction_[id] = InductionTile{let->value, varName(var) + "_off"};
    inductionSteps_.insert(steps.begin(), steps.end());
  }
}

std::string CudaEmitter::withIndex(const std::string& index, const ir::Expr& e) {
  if (index.size() > 600) throw NotIndexable{};  // keep the generated text small
  const std::string saved = index_;
  index_ = index;
  try {
    std::string s = expr(e);
    index_ = saved;
    return s;
  } catch (...) {
    index_ = saved;
    throw;
  }
}

}  // namespace tilescope::gpu
