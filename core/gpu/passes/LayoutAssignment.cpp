#include "core/gpu/passes/LayoutAssignment.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/ir/IRMutator.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::gpu::passes {

using namespace ir;

namespace {

bool is16BitFloat(DType t) { return t == DType::FP16 || t == DType::BF16; }

void flatten(const Stmt& s, std::vector<Stmt>& out) {
  if (!s) return;
  if (const auto* seq = s.as<Seq>()) {
    for (const Stmt& c : seq->stmts) flatten(c, out);
    return;
  }
  out.push_back(s);
}

class LetTable : public IRVisitor {
public:
  std::map<int, const Let*> lets;

protected:
  void visitLet(const Let& n) override {
    lets[n.var->id] = &n;
    IRVisitor::visitLet(n);
  }
};

// The decisions for one candidate loop; `ok` false as soon as something is outside what the
// register-resident emission supports.
class LoopLayouts {
public:
  LoopLayouts(const Kernel& kernel, const For& loop, const std::map<int, const Let*>& allLets)
      : kernel_(kernel), loop_(loop), allLets_(allLets), rows_(16 * int64_t{kernel.options.numWarps}) {}

  std::map<int, TileLayout> run() {
    if (!analyse()) return {};
    return layouts_;
  }

private:
  const Kernel& kernel_;
  const For& loop_;
  const std::map<int, const Let*>& allLets_;
  const int64_t rows_;
  std::map<int, const Let*> bodyLets_;
  std::map<int, TileLayout> layouts_;
  std::set<const Dot*> dots_;

  TileLayout make(LayoutKind kind) const {
    TileLayout l;
    l.kind = kind;
    l.warpsM = kernel_.options.numWarps;
    return l;
  }
  bool has(int id, LayoutKind kind) const {
    auto it = layouts_.find(id);
    return it != layouts_.end() && it->second.kind == kind;
  }

  // Values every thread can compute at any element (aranges, splats of scalars, arithmetic on
  // them, immutable vars bound to such values): they need no layout at all.
  bool indexPure(const Expr& e, bool allowBodyScalars = true) const {
    if (!e.defined()) return true;
    using K = ExprKind;
    switch (e.kind()) {
      case K::IntImm:
      case K::FloatImm:
      case K::ParamRef:
      case K::ProgramId:
      case K::NumPrograms:
      case K::Arange: return true;
      case K::VarRef: {
        const VarPtr& v = e.as<VarRef>()->var;
        if (layouts_.count(v->id)) return false;
        const bool inBody = bodyLets_.count(v->id) > 0;
        if (v->type.isScalar()) return allowBodyScalars || !inBody;
        if (v->isMutable) return false;
        auto it = allLets_.find(v->id);
        return it != allLets_.end() && indexPure(it->second->value, allowBodyScalars);
      }
      case K::Splat: return indexPure(e.as<Splat>()->value, allowBodyScalars);
      case K::Broadcast: return indexPure(e.as<Broadcast>()->value, allowBodyScalars);
      case K::ExpandDims: return indexPure(e.as<ExpandDims>()->value, allowBodyScalars);
      case K::Cast: return !e.as<Cast>()->bitcast && indexPure(e.as<Cast>()->value, allowBodyScalars);
      case K::Unary: return indexPure(e.as<Unary>()->value, allowBodyScalars);
      case K::Binary:
        return indexPure(e.as<Binary>()->a, allowBodyScalars) && indexPure(e.as<Binary>()->b, allowBodyScalars);
      case K::Select: {
        const auto* n = e.as<Select>();
        return indexPure(n->cond, allowBodyScalars) && indexPure(n->a, allowBodyScalars) &&
               indexPure(n->b, allowBodyScalars);
      }
      default: return false;
    }
  }

  bool isRowShape(const Type& t) const { return t.rank() == 1 && t.shape()[0] == rows_; }
  bool isMmaShape(const Type& t) const { return t.rank() == 2 && t.shape()[0] == rows_ && t.shape()[1] % 16 == 0; }

  // e, of an Mma-shaped type, computed elementwise in the accumulator layout.
  bool mmaValue(const Expr& e) const {
    if (!isMmaShape(e.type()) || e.type().isPointer()) return false;
    if (indexPure(e)) return true;
    using K = ExprKind;
    switch (e.kind()) {
      case K::VarRef: return has(e.as<VarRef>()->var->id, LayoutKind::Mma);
      case K::Dot: return dots_.count(e.as<Dot>()) && (!e.as<Dot>()->acc.defined() || mmaValue(e.as<Dot>()->acc));
      case K::Broadcast: {
        const Expr& v = e.as<Broadcast>()->value;
        const auto* x = v.as<ExpandDims>();
        return x && x->axis == 1 && v.type().shape()[1] == 1 && rowValue(x->value);
      }
      case K::Cast: return !e.as<Cast>()->bitcast && mmaValue(e.as<Cast>()->value);
      case K::Unary: return mmaValue(e.as<Unary>()->value);
      case K::Binary: return mmaValue(e.as<Binary>()->a) && mmaValue(e.as<Binary>()->b);
      case K::Select: {
        const auto* n = e.as<Select>();
        return mmaValue(n->cond) && mmaValue(n->a) && mmaValue(n->b);
      }
      case K::MathCall: {
        for (const Expr& a : e.as<MathCall>()->args)
          if (!mmaValue(a)) return false;
        return true;
      }
      default: return false;
    }
  }

  // e, of a row-vector type, computed in the accumulator's row slice.
  bool rowValue(const Expr& e) const {
    if (!isRowShape(e.type()) || e.type().isPointer()) return false;
    if (indexPure(e)) return true;
    using K = ExprKind;
    switch (e.kind()) {
      case K::VarRef: return has(e.as<VarRef>()->var->id, LayoutKind::RowSlice);
      case K::Reduce: {
        const auto* n = e.as<Reduce>();
        return (n->op == ReduceOp::Max || n->op == ReduceOp::Sum) && n->axis == 1 && !n->keepDims &&
               n->value.type().dtype() == DType::FP32 && mmaValue(n->value);
      }
      case K::Cast: return !e.as<Cast>()->bitcast && rowValue(e.as<Cast>()->value);
      case K::Unary: return rowValue(e.as<Unary>()->value);
      case K::Binary: return rowValue(e.as<Binary>()->a) && rowValue(e.as<Binary>()->b);
      case K::Select: {
        const auto* n = e.as<Select>();
        return rowValue(n->cond) && rowValue(n->a) && rowValue(n->b);
      }
      case K::MathCall: {
        for (const Expr& a : e.as<MathCall>()->args)
          if (!rowValue(a)) return false;
        return true;
      }
      default: return false;
    }
  }

  // B: a Let of the body loading a tile, read only here, maybe through tl.trans.
  bool sharedOperand(const Expr& b, std::map<int, int>& reads) {
    bool transposed = false;
    Expr e = b;
    if (const auto* p = e.as<Permute>()) {
      if (p->order != std::vector<int>{1, 0}) return false;
      transposed = true;
      e = p->value;
    }
    const auto* ref = e.as<VarRef>();
    if (!ref) return false;
    auto it = bodyLets_.find(ref->var->id);
    if (it == bodyLets_.end() || reads[ref->var->id] != 1) return false;
    const auto* load = it->second->value.as<Load>();
    // Its pointers are computed one iteration ahead: from the induction variable, values defined
    // before the loop and index-pure tiles of the body, never a scalar the body computes.
    if (!load || load->isVolatile || !indexPure(load->ptr, false) || !indexPure(load->mask, false) ||
        !indexPure(load->other, false))
      return false;
    TileLayout l = make(LayoutKind::SharedOperand);
    l.transposed = transposed;
    layouts_[ref->var->id] = l;
    return true;
  }

  bool analyse() {
    const auto* step = loop_.step.as<IntImm>();
    if (!step || step->value <= 0 || kernel_.options.numWarps < 1) return false;
    std::vector<Stmt> stmts;
    flatten(loop_.body, stmts);
    std::vector<const Assign*> assigns;
    for (const Stmt& s : stmts) {
      if (const auto* let = s.as<Let>()) bodyLets_[let->var->id] = let;
      else if (const auto* a = s.as<Assign>()) assigns.push_back(a);
      else return false;
    }
    const std::vector<const Dot*> dots = dotsInOrder(loop_.body);
    if (dots.size() != 2) return false;
    std::map<int, int> reads;
    class Reads : public IRVisitor {
    public:
      std::map<int, int>& r;
      explicit Reads(std::map<int, int>& x) : r(x) {}
      void visitVarRef(const VarRef& n) override { ++r[n.var->id]; }
    } counter(reads);
    counter.visitStmt(loop_.body);

    // The dots and their operands.
    for (const Dot* d : dots) {
      const Type& a = d->a.type();
      const Type& b = d->b.type();
      if (d->type.dtype() != DType::FP32 || !isMmaShape(d->type) || d->maxNumImpreciseAcc != 0) return false;
      if (!is16BitFloat(a.dtype()) || a.dtype() != b.dtype() || a.shape()[1] % 16 != 0) return false;
      if (!sharedOperand(d->b, reads)) return false;
      dots_.insert(d);
    }
    // Loop-carried values: their layout is that of their shape.
    for (const Assign* a : assigns) {
      const Type& t = a->var->type;
      // Carried values cross the loop's ends through fp32 shared memory.
      if (t.isScalar() || t.isPointer() || t.dtype() != DType::FP32) return false;
      if (isMmaShape(t)) layouts_[a->var->id] = make(LayoutKind::Mma);
      else if (isRowShape(t)) layouts_[a->var->id] = make(LayoutKind::RowSlice);
      else return false;
    }
    // The body's values, in order: each either needs no layout or gets the one of its shape.
    std::vector<const Let*> regionLets;
    for (const Stmt& s : stmts) {
      const auto* let = s.as<Let>();
      if (!let || layouts_.count(let->var->id)) continue;
      const Type& t = let->var->type;
      if (t.isScalar()) {
        if (!indexPure(let->value)) return false;  // (a dot is not index-pure)
        continue;
      }
      if (!let->value.hasEffects() && indexPure(let->value)) continue;
      if (let->value.hasEffects() || t.isPointer()) return false;
      if (isMmaShape(t)) layouts_[let->var->id] = make(LayoutKind::Mma);
      else if (isRowShape(t)) layouts_[let->var->id] = make(LayoutKind::RowSlice);
      else return false;
      regionLets.push_back(let);
    }
    for (const Let* let : regionLets)
      if (has(let->var->id, LayoutKind::Mma) ? !mmaValue(let->value) : !rowValue(let->value)) return false;
    for (const Assign* a : assigns)
      if (has(a->var->id, LayoutKind::Mma) ? !mmaValue(a->value) : !rowValue(a->value)) return false;
    // A operands: a value of the loop in registers, or a tile defined before it converted on entry;
    // at least one dot must take its A from the other's registers (else the emitter's resident
    // accumulator and wgmma paths serve the loop better).
    bool chained = false;
    for (const Dot* d : dots_) {
      if (const auto* ref = d->a.as<VarRef>(); ref && !bodyLets_.count(ref->var->id) && !layouts_.count(ref->var->id)) {
        if (ref->var->isMutable || d->a.type().shape()[0] != rows_) return false;
        TileLayout l = make(LayoutKind::DotOperandA);
        l.convertedOnEntry = true;
        layouts_[ref->var->id] = l;
        continue;
      }
      if (!mmaValue(d->a) || indexPure(d->a)) return false;
      chained = true;
    }
    // Shared memory: two stages of the B tiles (rows padded by 16 bytes), and the conversions at
    // the loop's ends, within what one program can have on sm_80+.
    int64_t stage = 0, ends = 0;
    for (const auto& [id, l] : layouts_) {
      if (l.kind != LayoutKind::SharedOperand) continue;
      const Type& t = bodyLets_.at(id)->var->type;
      stage += t.shape()[0] * (t.shape()[1] + 8) * 2;
    }
    for (const Assign* a : assigns) ends = std::max(ends, a->var->type.numel() * 4);
    for (const Dot* d : dots_) ends = std::max(ends, rows_ * (d->a.type().shape()[1] + 8) * 2);
    constexpr int64_t kSharedLimit = 160 * 1024;
    return chained && 2 * stage <= kSharedLimit && ends <= kSharedLimit;
  }
};

// On Hopper (sm_90a) the loop's dots become warpgroup MMAs when each warpgroup of 4 warps owns 64
// rows (16 per warp, as in mma.sync's layout), every B tile's contiguous rows are whole 128-byte
// panels (64 16-bit columns) of whole 8-row swizzle groups, and each dot's N fits one m64nNk16; the
// ring is then num_stages deep (at most 3) where shared memory allows, since wgmma keeps the tensor
// cores busy enough for the copies to be the wait.
void useWarpgroupMma(const Kernel& kernel, const For& loop, const std::map<int, const Let*>& lets,
                     std::map<int, TileLayout>& layouts, const GpuTarget& target) {
  if (target.smArch != 90 || !target.archSpecific || kernel.options.numWarps % 4 != 0) return;
  for (const Dot* d : dotsInOrder(loop.body)) {
    const int64_t n = d->type.shape()[1];
    if (n % 8 != 0 || n > 256) return;
  }
  int64_t stage = 0;
  for (const auto& [id, l] : layouts) {
    if (l.kind == LayoutKind::DotOperandA && l.convertedOnEntry) {
      // Staged once in shared memory in the same swizzle, read by wgmma through descriptors.
      auto it = lets.find(id);
      if (it == lets.end() || it->second->var->type.shape()[1] % 64 != 0) return;
    }
    if (l.kind != LayoutKind::SharedOperand) continue;
    const Type& t = lets.at(id)->var->type;
    if (t.shape()[1] % 64 != 0 || t.shape()[0] % 16 != 0) return;
    stage += t.numel() * 2;
  }
  constexpr int64_t kSharedLimit = 160 * 1024;
  int stages = std::clamp(kernel.options.numStages, 2, 3);
  int64_t entry = 0;
  for (const auto& [id, l] : layouts)
    if (l.kind == LayoutKind::DotOperandA && l.convertedOnEntry) entry += lets.at(id)->var->type.numel() * 2;
  while (stages > 2 && stages * stage + entry + 1024 > kSharedLimit) --stages;
  if (stages * stage + entry + 1024 > kSharedLimit) return;
  for (auto& [id, l] : layouts) {
    l.warpgroup = true;
    if (l.kind == LayoutKind::SharedOperand) l.stages = stages;
  }
}

// The loop's body with its conversions explicit: reads of an A operand converted on entry read the
// converted var, and every other A operand (p.to(fp16), in #mma registers) is converted to
// #dot_op<a> where the dot reads it.
class LoopBodyConversions : public IRMutator {
public:
  LoopBodyConversions(const std::map<int, VarPtr>& converted, TileLayout operandA) : converted_(converted), operandA_(operandA) {}

protected:
  Expr mutateVarRef(const VarRef& n, const Expr& self) override {
    auto it = converted_.find(n.var->id);
    return it == converted_.end() ? self : VarRef::make(it->second, n.range);
  }
  Expr mutateDot(const Dot& n, const Expr& self) override {
    const auto* ref = n.a.as<VarRef>();
    const bool onEntry = ref && converted_.count(ref->var->id);
    Expr a = mutateExpr(n.a), b = mutateExpr(n.b), acc = mutateExpr(n.acc);
    if (!onEntry) a = ConvertLayout::make(a, operandA_, n.a.range());
    if (a.sameAs(n.a) && b.sameAs(n.b) && acc.sameAs(n.acc)) return self;
    return Dot::make(a, b, acc, n.type.dtype(), n.precision, n.range, n.maxNumImpreciseAcc);
  }

private:
  const std::map<int, VarPtr>& converted_;
  TileLayout operandA_;
};

// Puts `entry`, the rewritten loop and `exit` where the loop was (spliced into its Seq).
class LoopReplacer : public IRMutator {
public:
  LoopReplacer(const For* loop, std::vector<Stmt> entry, Stmt loopOut, std::vector<Stmt> exit)
      : loop_(loop), entry_(std::move(entry)), loopOut_(std::move(loopOut)), exit_(std::move(exit)) {}

protected:
  Stmt mutateSeq(const Seq& n, const Stmt& self) override {
    bool same = true;
    std::vector<Stmt> stmts;
    for (const Stmt& c : n.stmts) {
      if (c.get() == loop_) {
        stmts.insert(stmts.end(), entry_.begin(), entry_.end());
        stmts.push_back(loopOut_);
        stmts.insert(stmts.end(), exit_.begin(), exit_.end());
        same = false;
        continue;
      }
      stmts.push_back(mutateStmt(c));
      same = same && stmts.back().sameAs(c);
    }
    return same ? self : Seq::make(std::move(stmts), n.range);
  }
  Stmt mutateFor(const For& n, const Stmt& self) override {
    if (&n != loop_) return IRMutator::mutateFor(n, self);
    std::vector<Stmt> stmts = entry_;
    stmts.push_back(loopOut_);
    stmts.insert(stmts.end(), exit_.begin(), exit_.end());
    return Seq::make(std::move(stmts), n.range);
  }

private:
  const For* loop_;
  std::vector<Stmt> entry_;
  Stmt loopOut_;
  std::vector<Stmt> exit_;
};

// Inserts the ConvertLayout nodes the loop's layouts need, where a value's layout differs from its
// user's: before the loop each A operand defined there (q) into #dot_op<a> once (a new var the loop
// reads; the layout table moves to it, q itself stays blocked) and each carried value into its
// layout; in the loop each other A operand into #dot_op<a>; after it each carried value back to
// blocked. Entry conversions come in var order, A operands first (the order the emitter prints).
void insertConversions(Kernel& out, const For& loop) {
  class Reads : public IRVisitor {
  public:
    std::map<int, VarPtr> vars;
    std::map<int, VarPtr> assigned;

  protected:
    void visitVarRef(const VarRef& n) override { vars.emplace(n.var->id, n.var); }
    void visitAssign(const Assign& n) override {
      assigned.emplace(n.var->id, n.var);
      IRVisitor::visitAssign(n);
    }
  } reads;
  reads.visitStmt(loop.body);
  TileLayout operandA, blocked;
  operandA.kind = LayoutKind::DotOperandA;
  blocked.kind = LayoutKind::Blocked;
  blocked.warpsM = operandA.warpsM = out.options.numWarps;
  std::vector<Stmt> entry, exit;
  std::map<int, VarPtr> converted;
  for (const auto& [id, l] : out.layouts) operandA.warpgroup = operandA.warpgroup || l.warpgroup;
  for (const auto& [id, l] : std::map<int, TileLayout>(out.layouts)) {
    if (l.kind != LayoutKind::DotOperandA || !l.convertedOnEntry || !reads.vars.count(id)) continue;
    const VarPtr& var = reads.vars.at(id);
    VarPtr cvt = Var::make(var->name, out.varCount++, var->type, var->range);
    entry.push_back(Let::make(cvt, ConvertLayout::make(VarRef::make(var, loop.range), l, loop.range), loop.range));
    converted[id] = cvt;
    out.layouts.erase(id);
    out.layouts[cvt->id] = l;
  }
  for (const auto& [id, var] : reads.assigned) {
    entry.push_back(Assign::make(var, ConvertLayout::make(VarRef::make(var, loop.range), out.layouts.at(id), loop.range), loop.range));
    exit.push_back(Assign::make(var, ConvertLayout::make(VarRef::make(var, loop.range), blocked, loop.range), loop.range));
  }
  Stmt body = LoopBodyConversions(converted, operandA).mutateStmt(loop.body);
  Stmt loopOut = For::make(loop.iv, loop.start, loop.end, loop.step, body, loop.loopKind, loop.hints, loop.range);
  out.body = LoopReplacer(&loop, std::move(entry), std::move(loopOut), std::move(exit)).mutateStmt(out.body);
}

class LoopFinder : public IRVisitor {
public:
  std::vector<const For*> loops;

protected:
  void visitFor(const For& n) override { loops.push_back(&n); }  // outermost loops only
};

}  // namespace

Kernel assignLayouts(const Kernel& kernel, const GpuTarget& target) {
  if (target.smArch < 80) return kernel;
  LetTable table;
  table.visitKernel(kernel);
  LoopFinder finder;
  finder.visitKernel(kernel);
  Kernel out = kernel;
  for (const For* loop : finder.loops) {
    std::map<int, TileLayout> layouts = LoopLayouts(kernel, *loop, table.lets).run();
    if (layouts.empty()) continue;
    useWarpgroupMma(kernel, *loop, table.lets, layouts, target);
    // One loop per kernel: the emitter's shared-memory plan holds one.
    out.registerLoops.insert(loop->iv->id);
    out.layouts.insert(layouts.begin(), layouts.end());
    insertConversions(out, *loop);
    break;
  }
  return out;
}

}  // namespace tilescope::gpu::passes
