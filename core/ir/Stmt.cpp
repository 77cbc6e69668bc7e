#include "core/ir/Stmt.h"

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
std::shared_ptr<T> node(SourceRange r) {
  auto n = std::make_shared<T>();
  n->range = r;
  return n;
}

}  // namespace

std::string_view stmtKindName(StmtKind k) {
  switch (k) {
    case StmtKind::Let: return "Let";
    case StmtKind::Assign: return "Assign";
    case StmtKind::Store: return "Store";
    case StmtKind::Seq: return "Seq";
    case StmtKind::If: return "If";
    case StmtKind::For: return "For";
    case StmtKind::While: return "While";
    case StmtKind::Print: return "Print";
    case StmtKind::Assert: return "Assert";
    case StmtKind::Barrier: return "Barrier";
    case StmtKind::HostCall: return "HostCall";
    case StmtKind::Return: return "Return";
  }
  return "?";
}

Stmt Let::make(VarPtr var, Expr value, SourceRange r) {
  require(var && value.defined(), "Let", "null var or value");
  require(var->type == value.type(), "Let", "var '" + var->name + "' has type " + var->type.str() + ", value " + value.type().str());
  auto n = node<Let>(r);
  n->var = std::move(var);
  n->value = std::move(value);
  return Stmt(n);
}

Stmt Assign::make(VarPtr var, Expr value, SourceRange r) {
  require(var && value.defined(), "Assign", "null var or value");
  require(var->isMutable, "Assign", "var '" + var->name + "' is immutable");
  require(var->type == value.type(), "Assign", "var '" + var->name + "' has type " + var->type.str() + ", value " + value.type().str());
  require(!value.hasEffects(), "Assign", "effects belong in a Let");
  auto n = node<Assign>(r);
  n->var = std::move(var);
  n->value = std::move(value);
  return Stmt(n);
}

Stmt Store::make(Expr ptr, Expr value, Expr mask, SourceRange r, CacheModifier cache, EvictionPolicy eviction) {
  require(ptr.defined() && value.defined(), "Store", "null ptr or value");
  require(ptr.type().isPointer(), "Store", "not a pointer: " + ptr.type().str());
  require(value.type() == ptr.type().pointee(), "Store", "value " + value.type().str() + " for pointer " + ptr.type().str());
  if (mask) require(mask.type() == ptr.type().withDType(DType::I1), "Store", "mask type " + mask.type().str());
  require(!value.hasEffects() && !ptr.hasEffects() && !mask.hasEffects(), "Store", "effects belong in a Let");
  auto n = node<Store>(r);
  n->ptr = std::move(ptr);
  n->value = std::move(value);
  n->mask = std::move(mask);
  n->cache = cache;
  n->eviction = eviction;
  return Stmt(n);
}

Stmt Seq::make(std::vector<Stmt> stmts, SourceRange r) {
  for (const Stmt& s : stmts) require(s.defined(), "Seq", "undefined statement");
  auto n = node<Seq>(r);
  n->stmts = std::move(stmts);
  return Stmt(n);
}

Stmt If::make(Expr cond, Stmt thenBody, Stmt elseBody, SourceRange r) {
  require(cond.defined() && thenBody.defined(), "If", "null cond or body");
  require(cond.type() == Type::scalar(DType::I1), "If", "condition must be a scalar i1, got " + cond.type().str());
  auto n = node<If>(r);
  n->cond = std::move(cond);
  n->thenBody = std::move(thenBody);
  n->elseBody = std::move(elseBody);
  return Stmt(n);
}

Stmt For::make(VarPtr iv, Expr start, Expr end, Expr step, Stmt body, LoopKind kind, LoopHints hints, SourceRange r) {
  require(iv && start.defined() && end.defined() && step.defined() && body.defined(), "For", "missing operand");
  require(iv->type.isScalar() && iv->type.isInt() && !iv->type.isBool(), "For", "iv must be an integer scalar");
  require(start.type() == iv->type && end.type() == iv->type && step.type() == iv->type, "For",
          "start/end/step must have the iv's type " + iv->type.str());
  auto n = node<For>(r);
  n->iv = std::move(iv);
  n->start = std::move(start);
  n->end = std::move(end);
  n->step = std::move(step);
  n->body = std::move(body);
  n->loopKind = kind;
  n->hints = hints;
  return Stmt(n);
}

Stmt While::make(VarPtr cond, Stmt body, SourceRange r) {
  require(cond && body.defined(), "While", "missing operand");
  require(cond->isMutable && cond->type == Type::scalar(DType::I1), "While", "condition must be a mutable i1 var");
  auto n = node<While>(r);
  n->cond = std::move(cond);
  n->body = std::move(body);
  return Stmt(n);
}

Stmt Print::make(std::string prefix, std::vector<Expr> args, bool hex, bool isDevicePrint, SourceRange r) {
  for (const Expr& e : args) require(e.defined() && !e.hasEffects(), "Print", "bad argument");
  auto n = node<Print>(r);
  n->prefix = std::move(prefix);
  n->args = std::move(args);
  n->hex = hex;
  n->isDevicePrint = isDevicePrint;
  return Stmt(n);
}

Stmt Assert::make(Expr cond, std::string message, SourceRange r) {
  require(cond.defined() && cond.type().isBool(), "Assert", "condition must be i1");
  auto n = node<Assert>(r);
  n->cond = std::move(cond);
  n->message = std::move(message);
  return Stmt(n);
}

Stmt Barrier::make(SourceRange r) { return Stmt(node<Barrier>(r)); }

HostArg HostArg::ofValue(Expr e) {
  HostArg a;
  a.kind = Kind::Value;
  a.value = std::move(e);
  return a;
}

HostArg HostArg::ofConstant(Constant c) {
  HostArg a;
  a.kind = Kind::Constant;
  a.constant = std::move(c);
  return a;
}

HostArg HostArg::ofFormat(std::vector<FormatPart> parts) {
  HostArg a;
  a.kind = Kind::Format;
  a.parts = std::move(parts);
  return a;
}

Stmt HostCall::make(std::string callee, std::vector<HostArg> args, std::vector<std::pair<std::string, HostArg>> kwargs,
                    SourceRange r) {
  auto n = node<HostCall>(r);
  n->callee = std::move(callee);
  n->args = std::move(args);
  n->kwargs = std::move(kwargs);
  return Stmt(n);
}

Stmt Return::make(SourceRange r) { return Stmt(node<Return>(r)); }

}  // namespace tilescope::ir
