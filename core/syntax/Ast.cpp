#include "core/syntax/Ast.h"

#include <string>

#include "core/base/Diagnostic.h"

namespace tilescope::lang {

std::string_view kindName(Node::Kind kind) {
  using K = Node::Kind;
  switch (kind) {
    case K::Name: return "Name";
    case K::IntLiteral: return "IntLiteral";
    case K::FloatLiteral: return "FloatLiteral";
    case K::StringLiteral: return "StringLiteral";
    case K::FString: return "FString";
    case K::BoolLiteral: return "BoolLiteral";
    case K::NoneLiteral: return "NoneLiteral";
    case K::Ellipsis: return "Ellipsis";
    case K::Tuple: return "Tuple";
    case K::List: return "List";
    case K::Dict: return "Dict";
    case K::Set: return "Set";
    case K::ListComp: return "ListComp";
    case K::SetComp: return "SetComp";
    case K::DictComp: return "DictComp";
    case K::GeneratorExp: return "GeneratorExp";
    case K::Attribute: return "Attribute";
    case K::Subscript: return "Subscript";
    case K::Slice: return "Slice";
    case K::Call: return "Call";
    case K::Unary: return "Unary";
    case K::Binary: return "Binary";
    case K::BoolOp: return "BoolOp";
    case K::Compare: return "Compare";
    case K::IfExp: return "IfExp";
    case K::Lambda: return "Lambda";
    case K::Starred: return "Starred";
    case K::Yield: return "Yield";
    case K::ExprStmt: return "ExprStmt";
    case K::Assign: return "Assign";
    case K::AugAssign: return "AugAssign";
    case K::AnnAssign: return "AnnAssign";
    case K::If: return "If";
    case K::For: return "For";
    case K::While: return "While";
    case K::Break: return "Break";
    case K::Continue: return "Continue";
    case K::Return: return "Return";
    case K::Pass: return "Pass";
    case K::Assert: return "Assert";
    case K::Raise: return "Raise";
    case K::Import: return "Import";
    case K::ImportFrom: return "ImportFrom";
    case K::FunctionDef: return "FunctionDef";
    case K::ClassDef: return "ClassDef";
    case K::With: return "With";
    case K::Try: return "Try";
    case K::Global: return "Global";
    case K::Nonlocal: return "Nonlocal";
    case K::Del: return "Del";
    case K::Module: return "Module";
  }
  return "?";
}

std::string_view Node::kindName() const { return lang::kindName(kind_); }

void throwBadCast(const Node* node, std::string_view wanted) {
  std::string got = node ? std::string(node->kindName()) : std::string("null");
  throw InternalError("AST cast to " + std::string(wanted) + " failed: node is " + got);
}

std::string_view exprContextName(ExprContext c) {
  switch (c) {
    case ExprContext::Load: return "Load";
    case ExprContext::Store: return "Store";
    case ExprContext::Del: return "Del";
  }
  return "?";
}

std::string_view spelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "-";
    case UnaryOp::Pos: return "+";
    case UnaryOp::Invert: return "~";
    case UnaryOp::Not: return "not";
  }
  return "?";
}

std::string_view spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::BitOr: return "|";
    case BinaryOp::BitXor: return "^";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::LShift: return "<<";
    case BinaryOp::RShift: return ">>";
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mult: return "*";
    case BinaryOp::MatMult: return "@";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Pow: return "**";
  }
  return "?";
}

std::string_view spelling(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }

std::string_view spelling(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return "==";
    case CompareOp::NotEq: return "!=";
    case CompareOp::Lt: return "<";
    case CompareOp::LtE: return "<=";
    case CompareOp::Gt: return ">";
    case CompareOp::GtE: return ">=";
    case CompareOp::Is: return "is";
    case CompareOp::IsNot: return "is not";
    case CompareOp::In: return "in";
    case CompareOp::NotIn: return "not in";
  }
  return "?";
}

std::string_view paramKindName(ParamKind k) {
  switch (k) {
    case ParamKind::PositionalOnly: return "positional-only";
    case ParamKind::Normal: return "normal";
    case ParamKind::VarPositional: return "*args";
    case ParamKind::KeywordOnly: return "keyword-only";
    case ParamKind::VarKeyword: return "**kwargs";
  }
  return "?";
}

const Keyword* Call::keyword(std::string_view name) const {
  for (const Keyword& k : keywords)
    if (!k.isDoubleStar() && k.arg == name) return &k;
  return nullptr;
}

const Param* Parameters::find(std::string_view name) const {
  for (const Param& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<util::ParameterInfo> Parameters::bindingShape() const {
  std::vector<util::ParameterInfo> out;
  out.reserve(params.size());
  for (const Param& p : params) out.push_back({p.name, p.kind, p.defaultValue != nullptr, {}});
  return out;
}

const StringLiteral* docstringOf(const StmtList& body) {
  if (body.empty()) return nullptr;
  const auto* stmt = body.front()->as<ExprStmt>();
  if (!stmt || !stmt->value) return nullptr;
  const auto* str = stmt->value->as<StringLiteral>();
  return str && !str->isBytes ? str : nullptr;
}

namespace {

using Visit = std::function<void(const Node&)>;

void visitExpr(const ExprPtr& e, const Visit& visit) {
  if (e) visit(*e);
}
void visitExprs(const ExprList& list, const Visit& visit) {
  for (const ExprPtr& e : list) visitExpr(e, visit);
}
void visitStmts(const StmtList& list, const Visit& visit) {
  for (const StmtPtr& s : list)
    if (s) visit(*s);
}
void visitGenerators(const std::vector<Comprehension>& gens, const Visit& visit) {
  for (const Comprehension& c : gens) {
    visitExpr(c.target, visit);
    visitExpr(c.iter, visit);
    visitExprs(c.ifs, visit);
  }
}
void visitFStringParts(const std::vector<FStringPart>& parts, const Visit& visit) {
  for (const FStringPart& p : parts) {
    visitExpr(p.expr, visit);
    visitFStringParts(p.formatSpec, visit);
  }
}
void visitParams(const Parameters& params, const Visit& visit) {
  for (const Param& p : params.params) {
    visitExpr(p.annotation, visit);
    visitExpr(p.defaultValue, visit);
  }
}
void visitKeywords(const std::vector<Keyword>& keywords, const Visit& visit) {
  for (const Keyword& k : keywords) visitExpr(k.value, visit);
}

}  // namespace

void forEachChild(const Node& node, const Visit& visit) {
  using K = Node::Kind;
  switch (node.kind()) {
    case K::Name:
    case K::IntLiteral:
    case K::FloatLiteral:
    case K::StringLiteral:
    case K::BoolLiteral:
    case K::NoneLiteral:
    case K::Ellipsis:
    case K::Break:
    case K::Continue:
    case K::Pass:
    case K::Import:
    case K::ImportFrom:
    case K::Global:
    case K::Nonlocal:
      return;
    case K::FString: return visitFStringParts(static_cast<const FString&>(node).parts, visit);
    case K::Tuple: return visitExprs(static_cast<const Tuple&>(node).elements, visit);
    case K::List: return visitExprs(static_cast<const List&>(node).elements, visit);
    case K::Set: return visitExprs(static_cast<const Set&>(node).elements, visit);
    case K::Dict:
      for (const DictItem& item : static_cast<const Dict&>(node).items) {
        visitExpr(item.key, visit);
        visitExpr(item.value, visit);
      }
      return;
    case K::ListComp: {
      const auto& n = static_cast<const ListComp&>(node);
      visitExpr(n.element, visit);
      return visitGenerators(n.generators, visit);
    }
    case K::SetComp: {
      const auto& n = static_cast<const SetComp&>(node);
      visitExpr(n.element, visit);
      return visitGenerators(n.generators, visit);
    }
    case K::GeneratorExp: {
      const auto& n = static_cast<const GeneratorExp&>(node);
      visitExpr(n.element, visit);
      return visitGenerators(n.generators, visit);
    }
    case K::DictComp: {
      const auto& n = static_cast<const DictComp&>(node);
      visitExpr(n.key, visit);
      visitExpr(n.value, visit);
      return visitGenerators(n.generators, visit);
    }
    case K::Attribute: return visitExpr(static_cast<const Attribute&>(node).value, visit);
    case K::Subscript: {
      const auto& n = static_cast<const Subscript&>(node);
      visitExpr(n.value, visit);
      return visitExpr(n.index, visit);
    }
    case K::Slice: {
      const auto& n = static_cast<const Slice&>(node);
      visitExpr(n.lower, visit);
      visitExpr(n.upper, visit);
      return visitExpr(n.step, visit);
    }
    case K::Call: {
      const auto& n = static_cast<const Call&>(node);
      visitExpr(n.func, visit);
      visitExprs(n.args, visit);
      return visitKeywords(n.keywords, visit);
    }
    case K::Unary: return visitExpr(static_cast<const Unary&>(node).operand, visit);
    case K::Binary: {
      const auto& n = static_cast<const Binary&>(node);
      visitExpr(n.left, visit);
      return visitExpr(n.right, visit);
    }
    case K::BoolOp: return visitExprs(static_cast<const BoolOp&>(node).values, visit);
    case K::Compare: {
      const auto& n = static_cast<const Compare&>(node);
      visitExpr(n.left, visit);
      return visitExprs(n.comparators, visit);
    }
    case K::IfExp: {
      const auto& n = static_cast<const IfExp&>(node);
      visitExpr(n.body, visit);
      visitExpr(n.test, visit);
      return visitExpr(n.orelse, visit);
    }
    case K::Lambda: {
      const auto& n = static_cast<const Lambda&>(node);
      visitParams(n.params, visit);
      return visitExpr(n.body, visit);
    }
    case K::Starred: return visitExpr(static_cast<const Starred&>(node).value, visit);
    case K::Yield: return visitExpr(static_cast<const Yield&>(node).value, visit);
    case K::ExprStmt: return visitExpr(static_cast<const ExprStmt&>(node).value, visit);
    case K::Assign: {
      const auto& n = static_cast<const Assign&>(node);
      visitExprs(n.targets, visit);
      return visitExpr(n.value, visit);
    }
    case K::AugAssign: {
      const auto& n = static_cast<const AugAssign&>(node);
      visitExpr(n.target, visit);
      return visitExpr(n.value, visit);
    }
    case K::AnnAssign: {
      const auto& n = static_cast<const AnnAssign&>(node);
      visitExpr(n.target, visit);
      visitExpr(n.annotation, visit);
      return visitExpr(n.value, visit);
    }
    case K::If: {
      const auto& n = static_cast<const If&>(node);
      visitExpr(n.test, visit);
      visitStmts(n.body, visit);
      return visitStmts(n.orelse, visit);
    }
    case K::For: {
      const auto& n = static_cast<const For&>(node);
      visitExpr(n.target, visit);
      visitExpr(n.iter, visit);
      visitStmts(n.body, visit);
      return visitStmts(n.orelse, visit);
    }
    case K::While: {
      const auto& n = static_cast<const While&>(node);
      visitExpr(n.test, visit);
      visitStmts(n.body, visit);
      return visitStmts(n.orelse, visit);
    }
    case K::Return: return visitExpr(static_cast<const Return&>(node).value, visit);
    case K::Assert: {
      const auto& n = static_cast<const Assert&>(node);
      visitExpr(n.test, visit);
      return visitExpr(n.msg, visit);
    }
    case K::Raise: {
      const auto& n = static_cast<const Raise&>(node);
      visitExpr(n.exc, visit);
      return visitExpr(n.cause, visit);
    }
    case K::FunctionDef: {
      const auto& n = static_cast<const FunctionDef&>(node);
      visitExprs(n.decorators, visit);
      visitParams(n.params, visit);
      visitExpr(n.returns, visit);
      return visitStmts(n.body, visit);
    }
    case K::ClassDef: {
      const auto& n = static_cast<const ClassDef&>(node);
      visitExprs(n.decorators, visit);
      visitExprs(n.bases, visit);
      visitKeywords(n.keywords, visit);
      return visitStmts(n.body, visit);
    }
    case K::With: {
      const auto& n = static_cast<const With&>(node);
      for (const WithItem& item : n.items) {
        visitExpr(item.contextExpr, visit);
        visitExpr(item.optionalVars, visit);
      }
      return visitStmts(n.body, visit);
    }
    case K::Try: {
      const auto& n = static_cast<const Try&>(node);
      visitStmts(n.body, visit);
      for (const ExceptHandler& h : n.handlers) {
        visitExpr(h.type, visit);
        visitStmts(h.body, visit);
      }
      visitStmts(n.orelse, visit);
      return visitStmts(n.finalBody, visit);
    }
    case K::Del: return visitExprs(static_cast<const Del&>(node).targets, visit);
    case K::Module: return visitStmts(static_cast<const Module&>(node).body, visit);
  }
}

}  // namespace tilescope::lang
