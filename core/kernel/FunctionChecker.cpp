#include "core/kernel/FunctionChecker.h"

#include <algorithm>

#include "core/kernel/BlockPointer.h"
#include "core/kernel/Builtins.h"
#include "core/kernel/BuiltinRegistry.h"
#include "core/base/Suggest.h"

namespace tilescope::lang {

namespace {

constexpr const char* kReturnSlot = "@return";
constexpr int kMaxHelperDepth = 48;
constexpr int64_t kMaxUnroll = 4096;

std::string lineOf(SourceRange r) { return std::to_string(r.start().line); }

bool isLeaf(const ir::Expr& e) {
  switch (e.kind()) {
    case ir::ExprKind::IntImm:
    case ir::ExprKind::FloatImm:
    case ir::ExprKind::ParamRef: return true;
    case ir::ExprKind::VarRef: return !e.as<ir::VarRef>()->var->isMutable;
    default: return false;
  }
}

bool isConstexprAnnotation(const Expr* annotation) {
  if (!annotation) return false;
  // String annotations ("tl.constexpr") count too, as Triton accepts them.
  if (const auto* s = annotation->as<StringLiteral>()) return s->value.size() >= 9 && s->value.substr(s->value.size() - 9) == "constexpr";
  if (const auto* a = annotation->as<Attribute>(); a && a->attr == "constexpr") return true;
  if (const auto* n = annotation->as<Name>(); n && n->id == "constexpr") return true;
  return false;
}

void collectTargetNames(const Expr& target, std::set<std::string>& out) {
  if (const auto* n = target.as<Name>()) out.insert(n->id);
  else if (const auto* t = target.as<Tuple>()) {
    for (const ExprPtr& e : t->elements) collectTargetNames(*e, out);
  } else if (const auto* l = target.as<List>()) {
    for (const ExprPtr& e : l->elements) collectTargetNames(*e, out);
  } else if (const auto* s = target.as<Starred>()) {
    collectTargetNames(*s->value, out);
  }
}

std::string unsupportedStatement(const Stmt& s) {
  switch (s.kind()) {
    case Node::Kind::Break:
      return "'break' is not supported in Triton kernels; loop with 'while' on a condition instead, or mask the "
             "remaining iterations";
    case Node::Kind::Continue:
      return "'continue' is not supported in Triton kernels; put the rest of the loop body under an 'if' instead";
    case Node::Kind::Raise: return "'raise' is not supported inside a @triton.jit function; use tl.device_assert or tl.static_assert";
    case Node::Kind::Try: return "'try' statements are not supported inside a @triton.jit function";
    case Node::Kind::With: return "'with' statements are not supported inside a @triton.jit function";
    case Node::Kind::ClassDef: return "class definitions are not supported inside a @triton.jit function";
    case Node::Kind::FunctionDef:
      return "nested function definitions are not supported inside a @triton.jit function; define a @triton.jit helper "
             "at module level";
    case Node::Kind::Import:
    case Node::Kind::ImportFrom: return "imports are not supported inside a @triton.jit function; import at module level";
    case Node::Kind::Global:
    case Node::Kind::Nonlocal: return "'global' and 'nonlocal' are not supported inside a @triton.jit function";
    case Node::Kind::Del: return "'del' is not supported inside a @triton.jit function";
    default: return std::string(s.kindName()) + " statements are not supported inside a @triton.jit function";
  }
}

// What type a branch value has for merging, or nullopt when it is not a tensor or number.
std::optional<ir::Type> mergeType(const Value& v, ExprChecker& ec, SourceRange r) {
  if (v.isTensor() || v.isNumber()) return ec.tensorOf(v, r, "a merged value").type();
  return std::nullopt;
}

}  // namespace

FunctionChecker::FunctionChecker(CheckContext& ctx, Mode mode, const FunctionDef& def)
    : ctx_(ctx), mode_(mode), def_(def), exprs_(ctx, *this) {
  ctx_.addSource(def.range.file);
}

Value FunctionChecker::run() {
  Flow f = block(def_.body);
  if (mode_ == Mode::Helper && f == Flow::Returned) {
    const Binding* b = scope_.find(kReturnSlot);
    if (b) return b->value;
  }
  return Value::ofConst(ConstValue::none());
}

ir::Expr FunctionChecker::zeroOf(const ir::Type& t, SourceRange range) {
  ir::Expr scalar;
  if (t.isPointer())
    scalar = ir::Cast::make(ir::IntImm::make(ir::DType::I64, 0, range), t.dtype(), true, false, ir::RoundingMode::None, range);
  else
    scalar = Emitter::intConstant(t.dtype(), 0, range);
  return t.isScalar() ? scalar : ir::Splat::make(scalar, t.shape(), range);
}

// ------------------------------------------------------------------------------------------ blocks

FunctionChecker::Flow FunctionChecker::block(const StmtList& body) {
  for (const StmtPtr& s : body) {
    // Code after a return never runs, and Python does not check it either.
    if (stmt(*s) == Flow::Returned) return Flow::Returned;
  }
  return Flow::Normal;
}

FunctionChecker::Flow FunctionChecker::stmt(const Stmt& s) {
  switch (s.kind()) {
    case Node::Kind::ExprStmt: exprs_.check(*s.as<ExprStmt>()->value); return Flow::Normal;
    case Node::Kind::Assign: {
      const auto& a = *s.as<Assign>();
      Value v = exprs_.check(*a.value);
      for (const ExprPtr& t : a.targets) assignTarget(*t, v, t->range);
      return Flow::Normal;
    }
    case Node::Kind::AugAssign: {
      const auto& a = *s.as<AugAssign>();
      const auto* name = a.target->as<Name>();
      if (!name) {
        if (a.target->is<Subscript>())
          exprs_.error(a.target->range, "cannot update an element of a tensor in place; compute a new tensor, or write memory with tl.store");
        exprs_.error(a.target->range, "only names can be updated with '" + std::string(spelling(a.op)) + "=' inside a kernel");
      }
      Value cur = exprs_.lookupName(name->id, name->range);
      Value rhs = exprs_.check(*a.value);
      Value out;
      if (auto op = irBinaryOp(a.op)) {
        out = exprs_.binary(*op, cur, rhs, s.range);
      } else if (a.op == BinaryOp::Pow && cur.isNumber() && rhs.isNumber()) {
        std::string err;
        auto v = foldBinary(ConstOp::Pow, cur.constant, rhs.constant, err);
        if (!v) exprs_.error(s.range, err);
        out = Value::ofConst(*v);
      } else {
        exprs_.error(s.range, "'" + std::string(spelling(a.op)) + "=' is not supported on tensors");
      }
      assignName(name->id, out, s.range);
      return Flow::Normal;
    }
    case Node::Kind::AnnAssign: {
      const auto& a = *s.as<AnnAssign>();
      if (!a.value) return Flow::Normal;  // `x: int` declares nothing at run time
      Value v = exprs_.check(*a.value);
      if (isConstexprAnnotation(a.annotation.get())) {
        const auto* name = a.target->as<Name>();
        if (!name) exprs_.error(a.target->range, "only a plain name can be annotated tl.constexpr");
        if (!v.isConstTree())
          exprs_.error(a.value->range, "'" + name->id + "' is annotated tl.constexpr but its value is " + v.describe() +
                                           "; a constexpr needs a compile-time value");
        if (const Binding* b = scope_.find(name->id); b && b->isConstexpr)
          exprs_.error(a.target->range, "cannot assign to constexpr '" + name->id + "'; give the new value another name");
        scope_.bind(name->id, v, a.target->range, true);
        return Flow::Normal;
      }
      assignTarget(*a.target, v, a.target->range);
      return Flow::Normal;
    }
    case Node::Kind::If: return ifStmt(*s.as<If>());
    case Node::Kind::For: return forStmt(*s.as<For>());
    case Node::Kind::While: return whileStmt(*s.as<While>());
    case Node::Kind::Return: return returnStmt(*s.as<Return>());
    case Node::Kind::Pass: return Flow::Normal;
    case Node::Kind::Assert: assertStmt(*s.as<Assert>()); return Flow::Normal;
    default: exprs_.error(s.range, unsupportedStatement(s));
  }
}

// ------------------------------------------------------------------------------------------ assignment

void FunctionChecker::assignTarget(const Expr& target, const Value& value, SourceRange range) {
  if (const auto* name = target.as<Name>()) {
    assignName(name->id, value, target.range);
    return;
  }
  if (target.is<Tuple>() || target.is<List>()) {
    const ExprList& els = target.is<Tuple>() ? target.as<Tuple>()->elements : target.as<List>()->elements;
    for (const ExprPtr& e : els)
      if (e->is<Starred>()) exprs_.error(e->range, "starred assignment targets are not supported inside a kernel");
    if (!value.isTuple())
      exprs_.error(range, "cannot unpack " + value.describe() + " into " + std::to_string(els.size()) + " names" +
                              (value.isTensor() ? "; tensors cannot be unpacked, use tl.split or index with tl.where" : ""));
    if (value.elements.size() != els.size())
      exprs_.error(range, "cannot unpack a tuple of " + std::to_string(value.elements.size()) + " values into " +
                              std::to_string(els.size()) + " names");
    for (size_t i = 0; i < els.size(); ++i) assignTarget(*els[i], value.elements[i], els[i]->range);
    return;
  }
  if (target.is<Subscript>())
    exprs_.error(target.range, "cannot assign to an element of a tensor; compute a new tensor (tl.where), or write memory with tl.store");
  if (target.is<Attribute>()) exprs_.error(target.range, "cannot assign to an attribute inside a kernel");
  exprs_.error(target.range, "cannot assign to this expression");
}

void FunctionChecker::assignName(const std::string& name, const Value& value, SourceRange range) {
  if (const Binding* b = scope_.find(name); b && b->isConstexpr)
    exprs_.error(range, "cannot assign to constexpr '" + name + "'; give the new value another name");
  if (value.kind == Value::Kind::Undefined) exprs_.error(range, value.message);
  Value bound = value;
  if (value.isTensor()) {
    // `x = tl.load(...)` names the load's own Let; other non-trivial values get a Let of their own.
    ir::Expr ref = ctx_.emitter.renameLastTemp(value.expr, name, range);
    if (!ref && !isLeaf(value.expr)) ref = ctx_.emitter.let(name, value.expr, range);
    if (ref) {
      const auto* let = ctx_.emitter.currentBlock().back().as<ir::Let>();
      ctx_.letValues[ref.as<ir::VarRef>()->var.get()] = let ? let->value : value.expr;
      bound = Value::ofTensor(ref);
    }
  } else if (value.isTuple() || value.isBlockPointer() || value.isTensorDescriptor()) {
    // Tuple elements (and a block pointer's parts) may read mutable vars that a later Assign
    // changes: pin them now.
    ValueList els;
    for (size_t i = 0; i < value.elements.size(); ++i) {
      const Value& el = value.elements[i];
      if (el.isTensor() && !isLeaf(el.expr)) {
        ir::Expr ref = ctx_.emitter.let(name + "_" + std::to_string(i), el.expr, range);
        ctx_.letValues[ref.as<ir::VarRef>()->var.get()] = el.expr;
        els.push_back(Value::ofTensor(ref));
      } else {
        els.push_back(el);
      }
    }
    bound = value;
    bound.elements = std::move(els);
  } else if (value.kind == Value::Kind::Format) {
    exprs_.error(range, "f-strings with tensor fields can only be passed to print() or a host function, not stored");
  }
  scope_.bind(name, bound, range);
}

// ------------------------------------------------------------------------------------------ if

FunctionChecker::Flow FunctionChecker::ifStmt(const If& s) {
  Value test = exprs_.check(*s.test);
  if (!test.isTensor()) {
    bool truth = true;
    if (test.isConst()) truth = test.constant.truthy();
    else if (test.isTuple()) truth = !test.elements.empty();
    else if (test.kind == Value::Kind::Format) exprs_.error(s.test->range, "an f-string cannot be a condition");
    return block(truth ? s.body : s.orelse);
  }
  if (test.expr.type().isTile())
    exprs_.error(s.test->range, "an 'if' condition must be a scalar, but this one is " + test.expr.type().str() +
                                    "; choose per element with tl.where, or reduce the condition (e.g. tl.max) first");
  const ir::Expr cond = exprs_.toBool(test.expr, s.test->range);

  const Scope before = scope_;
  ++runtimeIfDepth_;
  ctx_.emitter.pushBlock();
  const Flow thenFlow = block(s.body);
  std::vector<ir::Stmt> thenStmts = ctx_.emitter.popBlock().as<ir::Seq>()->stmts;
  const Scope thenScope = scope_;
  scope_ = before;
  ctx_.emitter.pushBlock();
  const Flow elseFlow = block(s.orelse);
  std::vector<ir::Stmt> elseStmts = ctx_.emitter.popBlock().as<ir::Seq>()->stmts;
  const Scope elseScope = scope_;
  --runtimeIfDepth_;

  const bool thenReturned = thenFlow == Flow::Returned, elseReturned = elseFlow == Flow::Returned;
  if (mode_ == Mode::Helper && thenReturned != elseReturned)
    exprs_.error(s.range, "this helper returns in only one branch of a runtime 'if'; return a value in both branches "
                          "(or in neither) so that every path returns the same type");
  // Paths that reach the code after the `if` (for a helper that returns in both, the return value).
  struct Path {
    const Scope* scope;
    std::vector<ir::Stmt>* stmts;
    const char* label;
  };
  std::vector<Path> live;
  const bool bothReturned = thenReturned && elseReturned;
  if (!thenReturned || (bothReturned && mode_ == Mode::Helper)) live.push_back({&thenScope, &thenStmts, "the 'if' branch"});
  if (!elseReturned || (bothReturned && mode_ == Mode::Helper))
    live.push_back({&elseScope, &elseStmts, s.orelse.empty() ? "the implicit 'else' path" : "the 'else' branch"});

  std::set<std::string> names;
  for (const Path& p : live)
    for (const auto& [name, b] : p.scope->bindings()) names.insert(name);
  Scope merged = before;
  for (const std::string& name : names) {
    const Binding* prior = before.find(name);
    std::vector<const Binding*> vals;
    bool missing = false, changed = false;
    for (const Path& p : live) {
      const Binding* b = p.scope->find(name);
      if (!b) missing = true;
      vals.push_back(b);
      if (b && !(prior && b->value.sameAs(prior->value))) changed = true;
    }
    if (!changed) continue;
    if (missing) {
      const Path& where = live[vals[0] ? 0 : 1];
      merged.bind(name, Value::undefined("'" + name + "' is assigned only in " + where.label + " of the 'if' at line " +
                                         lineOf(s.range) + "; assign it on every path (or before the 'if') to use it afterwards"),
                  s.range);
      continue;
    }
    if (live.size() == 1 && !vals[0]->value.isTensor()) {
      // One path continues and the value needs no IR (a constexpr, a function, ...).
      merged.bind(name, vals[0]->value, vals[0]->range, vals[0]->isConstexpr);
      continue;
    }
    bool allSame = true;
    for (const Binding* b : vals) allSame &= b->value.sameAs(vals[0]->value) && !b->value.isTensor();
    if (allSame) {
      merged.bind(name, vals[0]->value, vals[0]->range, vals[0]->isConstexpr);
      continue;
    }
    // Different values on different paths: a runtime variable, assigned at the end of each path.
    std::optional<ir::Type> type;
    const char* typeFrom = nullptr;
    for (size_t i = 0; i < live.size(); ++i) {
      auto t = mergeType(vals[i]->value, exprs_, vals[i]->range);
      const bool isReturn = name == kReturnSlot;
      if (!t)
        exprs_.error(vals[i]->range, std::string(isReturn ? "the returned value" : "'" + name + "'") +
                                         " differs between the branches of a runtime 'if', and " + vals[i]->value.describe() +
                                         " cannot change at run time; only tensors and numbers can");
      if (!type) {
        type = t;
        typeFrom = live[i].label;
      } else if (*t != *type) {
        const std::string what = name == kReturnSlot ? "the returned value" : "'" + name + "'";
        exprs_.error(s.range, what + " has type " + type->str() + " in " + typeFrom + " but " + t->str() + " in " +
                                  live[i].label + "; make both assign the same type (e.g. convert with .to(tl." +
                                  std::string(ir::dtypePythonName(type->dtype())) + "))");
      }
    }
    ir::Expr init;
    bool initIsPrior = false;
    if (prior && (prior->value.isTensor() || prior->value.isNumber())) {
      ir::Expr p = exprs_.tensorOf(prior->value, s.range, "a merged value");
      if (p.type() == *type) {
        init = p;
        initIsPrior = true;
      }
    }
    if (!init) init = zeroOf(*type, s.range);
    ir::VarPtr var = ctx_.emitter.newVar(name == kReturnSlot ? "retval" : name, *type, s.range, true);
    ctx_.emitter.emit(ir::Let::make(var, init, s.range));
    for (size_t i = 0; i < live.size(); ++i) {
      // A path that kept the old value needs no assignment: the var starts with it.
      if (initIsPrior && vals[i]->value.sameAs(prior->value)) continue;
      live[i].stmts->push_back(ir::Assign::make(var, exprs_.tensorOf(vals[i]->value, vals[i]->range, "a merged value"), s.range));
    }
    merged.bind(name, Value::ofTensor(ir::VarRef::make(var, s.range)), s.range);
  }
  scope_ = merged;
  ir::Stmt thenBody = ir::Seq::make(std::move(thenStmts), s.range);
  ir::Stmt elseBody;
  if (!elseStmts.empty()) elseBody = ir::Seq::make(std::move(elseStmts), s.range);
  ctx_.emitter.emit(ir::If::make(cond, thenBody, elseBody, s.range));
  return bothReturned ? Flow::Returned : Flow::Normal;
}

// ------------------------------------------------------------------------------------------ loops

std::set<std::string> FunctionChecker::assignedNames(const StmtList& body) {
  std::set<std::string> out;
  std::function<void(const StmtList&)> walk = [&](const StmtList& stmts) {
    for (const StmtPtr& s : stmts) {
      if (const auto* a = s->as<Assign>()) {
        for (const ExprPtr& t : a->targets) collectTargetNames(*t, out);
      } else if (const auto* a2 = s->as<AugAssign>()) {
        collectTargetNames(*a2->target, out);
      } else if (const auto* a3 = s->as<AnnAssign>()) {
        if (a3->value) collectTargetNames(*a3->target, out);
      } else if (const auto* f = s->as<For>()) {
        collectTargetNames(*f->target, out);
        walk(f->body);
        walk(f->orelse);
      } else if (const auto* w = s->as<While>()) {
        walk(w->body);
        walk(w->orelse);
      } else if (const auto* i = s->as<If>()) {
        walk(i->body);
        walk(i->orelse);
      }
    }
  };
  walk(body);
  return out;
}

std::vector<FunctionChecker::Carried> FunctionChecker::carryNames(const StmtList& body, SourceRange loopRange,
                                                                   const std::string& exclude) {
  std::vector<Carried> carried;
  for (const std::string& name : assignedNames(body)) {
    if (name == exclude) continue;
    const Binding* b = scope_.find(name);
    if (!b || b->isConstexpr) continue;  // new in the body, or an error when the body assigns it
    if (b->value.isBlockPointer()) {
      // tl.advance changes only the offsets: those are carried, one var per dim.
      BlockPointer bp = BlockPointer::of(b->value);
      std::vector<ir::VarPtr> vars;
      for (size_t d = 0; d < bp.rank(); ++d) {
        ir::Expr init = exprs_.tensorOf(bp.offsets[d], loopRange, "a block pointer's offset");
        ir::VarPtr var = ctx_.emitter.newVar(name + "_offset" + std::to_string(d), init.type(), b->range, true);
        ctx_.emitter.emit(ir::Let::make(var, init, loopRange));
        ctx_.letValues[var.get()] = init;
        bp.offsets[d] = Value::ofTensor(ir::VarRef::make(var, b->range));
        vars.push_back(var);
      }
      const Value inLoop = bp.toValue();
      scope_.bind(name, inLoop, b->range);
      for (size_t d = 0; d < vars.size(); ++d) carried.push_back({name, vars[d], static_cast<int>(d), inLoop});
      continue;
    }
    if (!(b->value.isTensor() || b->value.isNumber())) continue;  // checked after the body
    ir::Expr init = exprs_.tensorOf(b->value, loopRange, "a loop-carried value");
    ir::VarPtr var = ctx_.emitter.newVar(name, init.type(), b->range, true);
    ctx_.emitter.emit(ir::Let::make(var, init, loopRange));
    ctx_.letValues[var.get()] = init;  // pointer inference follows the initial value
    scope_.bind(name, Value::ofTensor(ir::VarRef::make(var, b->range)), b->range);
    carried.push_back({name, var, -1, Value()});
  }
  return carried;
}

void FunctionChecker::assignCarried(const std::vector<Carried>& carried, SourceRange loopRange) {
  for (const Carried& c : carried) {
    const Binding* b = scope_.find(c.name);
    if (!b) continue;
    if (c.offsetDim >= 0) {
      assignCarriedOffset(c, *b);
      continue;
    }
    if (b->value.isTensor()) {
      if (const auto* ref = b->value.expr.as<ir::VarRef>(); ref && ref->var == c.var) continue;
    }
    if (!(b->value.isTensor() || b->value.isNumber()))
      exprs_.error(b->range, "loop-carried variable '" + c.name + "' becomes " + b->value.describe() +
                                 " inside the loop; only tensors and numbers can be carried from one iteration to the next");
    ir::Expr v = exprs_.tensorOf(b->value, b->range, "a loop-carried value");
    if (v.type() != c.var->type)
      exprs_.error(b->range, "loop-carried variable '" + c.name + "' has type " + c.var->type.str() +
                                 " before the loop but " + v.type().str() +
                                 " at the end of the loop body; Triton needs the same type on every iteration - convert with .to(tl." +
                                 std::string(ir::dtypePythonName(c.var->type.dtype())) + ")");
    ctx_.emitter.emit(ir::Assign::make(c.var, v, loopRange));
  }
}

void FunctionChecker::assignCarriedOffset(const Carried& c, const Binding& b) {
  if (!b.value.isBlockPointer())
    exprs_.error(b.range, "loop-carried block pointer '" + c.name + "' becomes " + b.value.describe() +
                              " inside the loop; keep it a block pointer and move it with tl.advance");
  const BlockPointer now = BlockPointer::of(b.value), entry = BlockPointer::of(c.blockPointer);
  bool sameWindow = now.blockShape == entry.blockShape && now.base.sameAs(entry.base);
  for (size_t d = 0; sameWindow && d < now.rank(); ++d)
    sameWindow = now.shape[d].sameAs(entry.shape[d]) && now.strides[d].sameAs(entry.strides[d]);
  if (!sameWindow)
    exprs_.error(b.range, "block pointer '" + c.name + "' gets a new base, shape, strides or block shape inside the loop; only its "
                              "offsets can change from one iteration to the next (tl.advance) - make the new block pointer "
                              "under another name");
  const Value& offset = now.offsets[static_cast<size_t>(c.offsetDim)];
  if (const auto* ref = offset.isTensor() ? offset.expr.as<ir::VarRef>() : nullptr; ref && ref->var == c.var) return;
  // Offsets are i32 in Triton's block pointers whatever the advance added: cast back to the carried type.
  ir::Expr v = exprs_.tensorAs(offset, c.var->type.dtype(), b.range, "a block pointer's offset");
  ctx_.emitter.emit(ir::Assign::make(c.var, v, b.range));
}

void FunctionChecker::closeLoopScope(const Scope& before, const std::vector<Carried>& carried, SourceRange loopRange,
                                     const char* what) {
  Scope after = before;
  for (const Carried& c : carried)
    after.bind(c.name, c.offsetDim >= 0 ? c.blockPointer : Value::ofTensor(ir::VarRef::make(c.var, loopRange)),
               before.find(c.name)->range);
  for (const auto& [name, b] : scope_.bindings()) {
    const Binding* prior = before.find(name);
    // A name that may not be read before the loop (say, one defined inside an earlier loop, as the
    // layer-norm tutorial's `cols` in each of its loops) is new in this one too.
    if (!prior || (prior->value.kind == Value::Kind::Undefined && !b.value.sameAs(prior->value))) {
      after.bind(name, Value::undefined("'" + name + "' is defined inside the " + std::string(what) + " at line " +
                                        lineOf(loopRange) + " and is not available after it; assign it before the loop"),
                 b.range);
      continue;
    }
    const std::string& key = name;  // clang before 16 cannot capture structured bindings
    const bool isCarried = std::any_of(carried.begin(), carried.end(), [&](const Carried& c) { return c.name == key; });
    if (!isCarried && !b.value.sameAs(prior->value))
      exprs_.error(b.range, "'" + name + "' is changed inside the " + std::string(what) + ", but " + prior->value.describe() +
                                " cannot be carried across iterations; only tensors and numbers can");
  }
  scope_ = after;
}

FunctionChecker::Flow FunctionChecker::forStmt(const For& s) {
  if (!s.orelse.empty()) exprs_.error(s.range, "for-else is not supported inside a @triton.jit function");
  const auto* call = s.iter->as<Call>();
  Value callee;
  if (call) callee = exprs_.check(*call->func);
  const bool isRange = call && callee.kind == Value::Kind::Builtin &&
                       (callee.name == "range" || callee.name == "tl.range" || callee.name == "tl.static_range");
  if (!isRange)
    exprs_.error(s.iter->range, "kernels can only loop over range(...), tl.range(...) or tl.static_range(...)");
  const auto* target = s.target->as<Name>();
  if (!target) exprs_.error(s.target->range, "the loop variable must be a single name");
  CallArgs args = exprs_.evaluateArgs(*call);
  if (callee.name == "tl.static_range") return staticFor(s, target->id, args);

  // Bind range(start, stop, step) / tl.range(..., num_stages=...) arguments.
  const BuiltinEntry* entry = BuiltinRegistry::instance().find("tl.range");
  if (callee.name == "range" && !args.kwargs.empty())
    exprs_.error(args.kwargRanges[0], "range() takes no keyword arguments; use tl.range(...) for loop hints");
  if (args.args.size() > 3) exprs_.error(args.argRanges[3], "range expected at most 3 arguments, got " + std::to_string(args.args.size()));
  BoundArgs bound = BuiltinRegistry::bind(exprs_, *entry, args);
  std::vector<std::pair<Value, SourceRange>> bounds;  // start, end, step
  if (bound.given("arg2")) {
    bounds = {{bound.get("arg1"), bound.range("arg1")}, {bound.get("arg2"), bound.range("arg2")}};
  } else {
    bounds = {{Value::ofConst(ConstValue::integer(0)), bound.range("arg1")}, {bound.get("arg1"), bound.range("arg1")}};
  }
  bounds.push_back(bound.given("step") ? std::make_pair(bound.get("step"), bound.range("step"))
                                       : std::make_pair(Value::ofConst(ConstValue::integer(1)), s.iter->range));
  std::vector<ir::Expr> exprs;
  for (auto& [v, r] : bounds) {
    ir::Expr e = exprs_.tensorOf(v, r, "a range() bound");
    if (!e.type().isScalar() || !e.type().isInt() || e.type().isBool())
      exprs_.error(r, "range() bounds must be integer scalars; '" + std::string(r.text()) + "' is " + e.type().str());
    exprs.push_back(e);
  }
  if (bounds[2].first.isConst() && bounds[2].first.constant.toInt() == 0) exprs_.error(bounds[2].second, "range() step must not be zero");
  auto ivType = ir::computationDType(ir::Operand::tensor(exprs[0].type().dtype()), ir::Operand::tensor(exprs[1].type().dtype()), false);
  ivType = ir::computationDType(ir::Operand::tensor(*ivType), ir::Operand::tensor(exprs[2].type().dtype()), false);
  for (ir::Expr& e : exprs) e = Emitter::cast(e, *ivType, s.iter->range);

  ir::LoopHints hints;
  const ir::LoopKind kind = callee.name == "tl.range" ? ir::LoopKind::TlRange : ir::LoopKind::Range;
  if (bound.given("num_stages")) hints.numStages = static_cast<int>(exprs_.requireConstInt(bound.get("num_stages"), bound.range("num_stages"), "num_stages"));
  if (bound.given("loop_unroll_factor"))
    hints.loopUnrollFactor = static_cast<int>(exprs_.requireConstInt(bound.get("loop_unroll_factor"), bound.range("loop_unroll_factor"), "loop_unroll_factor"));
  if (bound.given("disallow_acc_multi_buffer"))
    hints.disallowAccMultiBuffer = exprs_.requireConstBool(bound.get("disallow_acc_multi_buffer"), bound.range("disallow_acc_multi_buffer"), "disallow_acc_multi_buffer");
  if (bound.given("flatten")) hints.flatten = exprs_.requireConstBool(bound.get("flatten"), bound.range("flatten"), "flatten");
  if (bound.given("warp_specialize"))
    hints.warpSpecialize = exprs_.requireConstBool(bound.get("warp_specialize"), bound.range("warp_specialize"), "warp_specialize");

  const Scope before = scope_;
  std::vector<Carried> carried = carryNames(s.body, s.range, target->id);
  const Scope beforeBody = scope_;
  ir::VarPtr iv = ctx_.emitter.newVar(target->id, ir::Type::scalar(*ivType), target->range);
  ctx_.emitter.pushBlock();
  scope_.bind(target->id, Value::ofTensor(ir::VarRef::make(iv, target->range)), target->range);
  ++loopDepth_;
  block(s.body);
  --loopDepth_;
  assignCarried(carried, s.range);
  ir::Stmt body = ctx_.emitter.popBlock(s.range);
  ctx_.emitter.emit(ir::For::make(iv, exprs[0], exprs[1], exprs[2], body, kind, hints, s.range));
  closeLoopScope(beforeBody, carried, s.range, "loop");
  scope_.bind(target->id, Value::undefined("the loop variable '" + target->id + "' is not available after its loop (line " +
                                             lineOf(s.range) + ")"),
                target->range);
  return Flow::Normal;
}

FunctionChecker::Flow FunctionChecker::staticFor(const For& s, const std::string& target, const CallArgs& args) {
  const BuiltinEntry* entry = BuiltinRegistry::instance().find("tl.static_range");
  BoundArgs bound = BuiltinRegistry::bind(exprs_, *entry, args);
  auto constBound = [&](const std::string& p) {
    const Value& v = bound.get(p);
    if (v.isConst() && v.constant.isIntegral()) return v.constant.toInt();
    const std::string text = bound.text(p);
    if (v.isTensor() && v.expr.as<ir::ParamRef>())
      exprs_.error(bound.range(p), "tl.static_range bounds must be constexpr; '" + text + "' is a runtime argument - mark it '" +
                                       text + ": tl.constexpr', or use range() for a runtime loop");
    exprs_.error(bound.range(p), "tl.static_range bounds must be constexpr; '" + text + "' is " + v.describe() +
                                     " - use range() for a runtime loop");
  };
  int64_t start = 0, end = 0, step = 1;
  if (bound.given("arg2")) {
    start = constBound("arg1");
    end = constBound("arg2");
  } else {
    end = constBound("arg1");
  }
  if (bound.given("step")) step = constBound("step");
  if (step == 0) exprs_.error(bound.range("step"), "tl.static_range step must not be zero");
  const int64_t trips = step > 0 ? (end > start ? (end - start + step - 1) / step : 0) : (start > end ? (start - end - step - 1) / -step : 0);
  if (trips > kMaxUnroll)
    exprs_.error(s.iter->range, "tl.static_range would unroll " + std::to_string(trips) + " iterations (tilescope's limit is " +
                                    std::to_string(kMaxUnroll) + "); use range() for a runtime loop");
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step) {
    scope_.bind(target, Value::ofConst(ConstValue::integer(i)), s.target->range);
    if (block(s.body) == Flow::Returned) return Flow::Returned;
  }
  return Flow::Normal;
}

FunctionChecker::Flow FunctionChecker::whileStmt(const While& s) {
  if (!s.orelse.empty()) exprs_.error(s.range, "while-else is not supported inside a @triton.jit function");
  const std::vector<Carried> carried = carryNames(s.body, s.range, "");
  const Scope beforeBody = scope_;
  Value test = exprs_.check(*s.test);
  if (test.isConst()) {
    if (!test.constant.truthy()) {
      closeLoopScope(beforeBody, carried, s.range, "while loop");
      return Flow::Normal;
    }
    exprs_.error(s.test->range, "this while loop never ends: its condition is the constexpr " + test.constant.repr() +
                                    " and Triton has no 'break'");
  }
  if (!test.isTensor() || test.expr.type().isTile())
    exprs_.error(s.test->range, "a while condition must be a scalar, not " + test.describe());
  ir::VarPtr cond = ctx_.emitter.newVar("cond", ir::Type::scalar(ir::DType::I1), s.test->range, true);
  ctx_.emitter.emit(ir::Let::make(cond, exprs_.toBool(test.expr, s.test->range), s.test->range));
  ctx_.emitter.pushBlock();
  ++loopDepth_;
  block(s.body);
  --loopDepth_;
  assignCarried(carried, s.range);
  Value again = exprs_.check(*s.test);
  if (!again.isTensor() || again.expr.type().isTile())
    exprs_.error(s.test->range, "a while condition must be a scalar, not " + again.describe());
  ctx_.emitter.emit(ir::Assign::make(cond, exprs_.toBool(again.expr, s.test->range), s.test->range));
  ir::Stmt body = ctx_.emitter.popBlock(s.range);
  ctx_.emitter.emit(ir::While::make(cond, body, s.range));
  closeLoopScope(beforeBody, carried, s.range, "while loop");
  return Flow::Normal;
}

FunctionChecker::Flow FunctionChecker::returnStmt(const Return& s) {
  if (loopDepth_ > 0) exprs_.error(s.range, "'return' inside a loop is not supported in Triton kernels");
  if (mode_ == Mode::Kernel) {
    if (s.value) {
      Value v = exprs_.check(*s.value);
      if (!v.isNone())
        exprs_.error(s.value->range, "a kernel cannot return a value; write results to memory with tl.store");
    }
    // At the top level the rest of the body is dead anyway; inside a branch the program must end.
    if (runtimeIfDepth_ > 0) ctx_.emitter.emit(ir::Return::make(s.range));
    return Flow::Returned;
  }
  Value v = s.value ? exprs_.check(*s.value) : Value::ofConst(ConstValue::none());
  if (v.kind == Value::Kind::Format) exprs_.error(s.value->range, "a helper cannot return an f-string with tensor fields");
  scope_.bind(kReturnSlot, v, s.range);
  return Flow::Returned;
}

void FunctionChecker::assertStmt(const Assert& s) {
  Value test = exprs_.check(*s.test);
  std::string msg;
  if (s.msg) {
    Value m = exprs_.check(*s.msg);
    if (m.isConst()) msg = m.constant.str();
    else exprs_.error(s.msg->range, "an assert message must be a constexpr string");
  }
  if (test.isConst() || test.isTuple()) {
    const bool ok = test.isConst() ? test.constant.truthy() : !test.elements.empty();
    if (!ok) exprs_.error(s.range, "assertion failed" + (msg.empty() ? std::string() : ": " + msg));
    return;
  }
  // Python's assert on a tensor is tl.device_assert, as in Triton.
  ir::Expr cond = exprs_.toBool(exprs_.tensorOf(test, s.test->range, "an assert condition"), s.test->range);
  ctx_.emitter.emit(ir::Assert::make(cond, msg, s.range));
}

// ------------------------------------------------------------------------------------------ helpers

Value FunctionChecker::callHelper(const Value& fn, CallArgs& args) {
  const FunctionDef& def = *fn.function;
  for (const CallFrame& f : ctx_.callStack)
    if (f.def == &def) exprs_.error(args.range, "'" + def.name + "' calls itself; recursion is not supported in Triton kernels");
  if (static_cast<int>(ctx_.callStack.size()) >= kMaxHelperDepth)
    exprs_.error(args.range, "helper calls nest more than " + std::to_string(kMaxHelperDepth) + " deep");

  FunctionChecker helper(ctx_, Mode::Helper, def);
  const std::string who = "helper '" + def.name + "'";
  std::vector<const Param*> params;
  for (const Param& p : def.params.params) {
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword)
      exprs_.error(p.range, who + " uses *args or **kwargs, which tilescope does not support in jit functions");
    params.push_back(&p);
  }
  const util::ArgumentBinding binding = bindCallArgs(ctx_, def.name, def.params.bindingShape(), args);
  std::vector<std::optional<std::pair<Value, SourceRange>>> bound(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const util::ArgumentSource& source = binding.sources()[i];
    if (source.from == util::ArgumentSource::From::Positional)
      bound[i] = std::make_pair(args.args[source.index], args.argRanges[source.index]);
    if (source.from == util::ArgumentSource::From::Keyword)
      bound[i] = std::make_pair(args.kwargs[source.index].second, args.kwargRanges[source.index]);
  }
  ctx_.callStack.push_back({def.name, args.range, &def});
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = *params[i];
    Value v;
    SourceRange r = args.range;
    if (bound[i]) {
      v = bound[i]->first;
      r = bound[i]->second;
    } else {
      // Defaults (the binder checked there is one) are evaluated where the helper is defined:
      // module-level names only.
      v = helper.exprs().check(*p.defaultValue);
      if (!v.isConstTree()) exprs_.error(p.defaultValue->range, "the default of '" + p.name + "' must be a constant");
    }
    const bool constexprParam = isConstexprAnnotation(p.annotation.get());
    if (constexprParam && !v.isConstTree()) {
      ctx_.callStack.pop_back();
      exprs_.error(r, "argument '" + p.name + "' of " + who + " is tl.constexpr, but the caller passes " + v.describe());
    }
    if (v.kind == Value::Kind::Format) {
      ctx_.callStack.pop_back();
      exprs_.error(r, "f-strings with tensor fields cannot be passed to jit helpers");
    }
    if (v.isTensor() && !isLeaf(v.expr)) {
      ir::Expr ref = ctx_.emitter.let(p.name, v.expr, r);
      ctx_.letValues[ref.as<ir::VarRef>()->var.get()] = v.expr;
      v = Value::ofTensor(ref);
    }
    helper.scope().bind(p.name, v, p.nameRange, constexprParam);
  }
  Value result = helper.run();
  ctx_.callStack.pop_back();
  return result;
}

}  // namespace tilescope::lang
