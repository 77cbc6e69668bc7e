#pragma once
// The syntax tree of Python source: one tree for @triton.jit kernels and for host code alike.
// The parser only builds it; meaning (what a kernel may use, what a name refers to) is decided by
// the checker and the host runtime. The node set follows Python's own `ast` module closely so that
// anyone who knows that module can read this one.
//
// Conventions:
//  * Every node (and every helper struct such as Param or Keyword) has the SourceRange of exactly
//    the source text it was parsed from; parentheses around an expression are not part of it.
//  * Children are owned through std::unique_ptr; an optional child is a null pointer.
//  * Kinds are tested LLVM-style: `node.is<Call>()`, `node.as<Call>()` (nullptr on mismatch), or
//    the free functions isa<T>(p), cast<T>(p) (asserts), dyn_cast<T>(p) (nullptr on mismatch).
//  * Nodes are created by the parser and not changed afterwards; fields are public for simplicity.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/SourceFile.h"
#include "core/base/ArgumentBinding.h"

namespace tilescope::lang {

class Node {
public:
  // Expression kinds lie between FirstExpr and LastExpr, statement kinds between FirstStmt and
  // LastStmt, so Expr::classof / Stmt::classof are range checks.
  enum class Kind : uint8_t {
    // --- expressions
    Name,
    IntLiteral,
    FloatLiteral,
    StringLiteral,
    FString,
    BoolLiteral,
    NoneLiteral,
    Ellipsis,
    Tuple,
    List,
    Dict,
    Set,
    ListComp,
    SetComp,
    DictComp,
    GeneratorExp,
    Attribute,
    Subscript,
    Slice,
    Call,
    Unary,
    Binary,
    BoolOp,
    Compare,
    IfExp,
    Lambda,
    Starred,
    Yield,
    // --- statements
    ExprStmt,
    Assign,
    AugAssign,
    AnnAssign,
    If,
    For,
    While,
    Break,
    Continue,
    Return,
    Pass,
    Assert,
    Raise,
    Import,
    ImportFrom,
    FunctionDef,
    ClassDef,
    With,
    Try,
    Global,
    Nonlocal,
    Del,
    // --- the root
    Module,

    FirstExpr = Name,
    LastExpr = Yield,
    FirstStmt = ExprStmt,
    LastStmt = Del,
  };

  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  Kind kind() const { return kind_; }
  // "Name", "FunctionDef", ...: the class name, used by the printer and in messages.
  std::string_view kindName() const;

  template <class T> bool is() const { return T::classof(this); }
  template <class T> const T* as() const { return is<T>() ? static_cast<const T*>(this) : nullptr; }
  template <class T> T* as() { return is<T>() ? static_cast<T*>(this) : nullptr; }

  SourceRange range;

protected:
  Node(Kind kind, SourceRange r) : range(r), kind_(kind) {}

private:
  Kind kind_;
};

std::string_view kindName(Node::Kind kind);

// LLVM-style helpers on pointers. cast<> throws InternalError on a mismatch (a bug in the caller).
template <class T> bool isa(const Node* node) { return node && T::classof(node); }
template <class T> const T* dyn_cast(const Node* node) { return isa<T>(node) ? static_cast<const T*>(node) : nullptr; }
template <class T> T* dyn_cast(Node* node) { return isa<T>(node) ? static_cast<T*>(node) : nullptr; }
[[noreturn]] void throwBadCast(const Node* node, std::string_view wanted);
template <class T> const T* cast(const Node* node) {
  if (!isa<T>(node)) throwBadCast(node, T::className());
  return static_cast<const T*>(node);
}
template <class T> T* cast(Node* node) {
  if (!isa<T>(node)) throwBadCast(node, T::className());
  return static_cast<T*>(node);
}

// Boilerplate shared by every concrete node class.
#define TILESCOPE_AST_NODE(Class)                                                 \
  static constexpr Node::Kind kKind = Node::Kind::Class;                          \
  static constexpr std::string_view className() { return #Class; }                \
  static bool classof(const Node* n) { return n->kind() == kKind; }               \
  explicit Class(SourceRange r = {}) : Base(kKind, r) {}

// ============================================================================ expressions

// Where an expression stands: read (Load), assigned to (Store: targets of =, for, with ... as,
// comprehension targets), or deleted (Del). Set by the parser on Name, Attribute, Subscript,
// Starred, Tuple and List; Load everywhere else.
enum class ExprContext : uint8_t { Load, Store, Del };
std::string_view exprContextName(ExprContext c);

class Expr : public Node {
public:
  static bool classof(const Node* n) { return n->kind() >= Kind::FirstExpr && n->kind() <= Kind::LastExpr; }
  static constexpr std::string_view className() { return "Expr"; }
  ExprContext context = ExprContext::Load;
  // True when the source wrapped this expression in parentheses: `(a)`. Lets the checker tell
  // `x: int = 1` (simple annotation target) from `(x): int = 1`, and the printer stay faithful.
  bool parenthesized = false;

protected:
  using Node::Node;
};
using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

enum class UnaryOp : uint8_t { Neg, Pos, Invert, Not };            // - + ~ not
enum class BinaryOp : uint8_t {                                   // in Python's precedence groups:
  BitOr, BitXor, BitAnd,                                          // | ^ &
  LShift, RShift,                                                 // << >>
  Add, Sub,                                                       // + -
  Mult, MatMult, Div, FloorDiv, Mod,                              // * @ / // %
  Pow,                                                            // **
};
enum class BoolOpKind : uint8_t { And, Or };
enum class CompareOp : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

// Source spelling: "-", "not", "//", "is not", ...
std::string_view spelling(UnaryOp op);
std::string_view spelling(BinaryOp op);
std::string_view spelling(BoolOpKind op);
std::string_view spelling(CompareOp op);

// `x`
class Name : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Name)
  std::string id;
};

// `42`, `0xFF`, `1_000`. Python ints are unbounded; `value` is set when the number fits int64.
// Whoever needs a machine integer reports an error when it is empty.
class IntLiteral : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(IntLiteral)
  std::string text;                  // as written, e.g. "0x_FF"
  std::optional<int64_t> value;
};

// `1.5`, `1e-5`, `.5`, `2.`
class FloatLiteral : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(FloatLiteral)
  std::string text;                  // as written
  double value = 0.0;
};

// `'abc'`, `b"\x00"`, `r"\d"`, and implicit concatenation `"a" "b"` (one node, range over all).
// `value` holds the decoded bytes: escapes resolved, str contents in UTF-8 (any invalid bytes of the
// source are kept as they are).
class StringLiteral : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(StringLiteral)
  std::string value;
  bool isBytes = false;
};

// One piece of an f-string: literal text, or a replacement field `{expr!r:spec}`.
struct FStringPart {
  enum class Kind : uint8_t { Literal, Field };
  Kind kind = Kind::Literal;
  SourceRange range;                 // the literal text, or the whole field including its braces
  std::string text;                  // Literal: decoded text (`{{` already turned into `{`)
  ExprPtr expr;                      // Field: the embedded expression
  char conversion = 0;               // Field: 0, 'r', 's' or 'a' (from `!r`, `!s`, `!a`)
  bool selfDocumenting = false;      // Field: `{x=}` (prints "x=" before the value)
  bool hasFormatSpec = false;        // Field: a ':' was present (the spec may still be empty)
  std::vector<FStringPart> formatSpec;  // Field: the spec after ':', itself literal text and fields
};

// `f"x = {x!r:>10}"`; adjacent plain strings are merged into it as Literal parts.
class FString : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(FString)
  std::vector<FStringPart> parts;
};

// `True` / `False`
class BoolLiteral : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(BoolLiteral)
  bool value = false;
};

// `None`
class NoneLiteral : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(NoneLiteral)
};

// `...`
class Ellipsis : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Ellipsis)
};

// `(a, b)`, `a, b`, `()`. In a subscript `x[:, None]` the index is a Tuple of Slice/None.
class Tuple : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Tuple)
  ExprList elements;                 // may contain Starred
};

// `[a, b]`
class List : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(List)
  ExprList elements;                 // may contain Starred
};

// One entry of a dict display: `key: value`, or `**value` (key is null).
struct DictItem {
  SourceRange range;
  ExprPtr key;
  ExprPtr value;
};

// `{'BLOCK': 128, **extra}`
class Dict : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Dict)
  std::vector<DictItem> items;
};

// `{a, b}`
class Set : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Set)
  ExprList elements;
};

// One `for target in iter if cond ...` clause of a comprehension.
struct Comprehension {
  SourceRange range;                 // from `for` to the end of the last `if`
  ExprPtr target;                    // Store context; may be a Tuple
  ExprPtr iter;
  ExprList ifs;
};

// `[elt for ... in ...]`
class ListComp : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(ListComp)
  ExprPtr element;
  std::vector<Comprehension> generators;
};

// `{elt for ... in ...}`
class SetComp : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(SetComp)
  ExprPtr element;
  std::vector<Comprehension> generators;
};

// `{k: v for ... in ...}`
class DictComp : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(DictComp)
  ExprPtr key;
  ExprPtr value;
  std::vector<Comprehension> generators;
};

// `(elt for ... in ...)`, also the bare form as the only argument: `sum(x for x in y)`.
class GeneratorExp : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(GeneratorExp)
  ExprPtr element;
  std::vector<Comprehension> generators;
};

// `value.attr`, e.g. `tl.constexpr`
class Attribute : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Attribute)
  ExprPtr value;
  std::string attr;
  SourceRange attrRange;             // just the name after the dot
};

// `value[index]`. `x[i]`: index is the expression; `x[1:2]`: a Slice; `x[:, None]`,
// `a[1:2, ::2]`: a Tuple of Slice / NoneLiteral / expressions.
class Subscript : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Subscript)
  ExprPtr value;
  ExprPtr index;
};

// `lower:upper:step` inside a subscript; each part optional (`:` has all three null).
class Slice : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Slice)
  ExprPtr lower;
  ExprPtr upper;
  ExprPtr step;
};

// A keyword argument `name=value`, or `**value` (arg empty).
struct Keyword {
  SourceRange range;
  std::string arg;
  SourceRange argRange;              // the name only; invalid for `**value`
  ExprPtr value;
  bool isDoubleStar() const { return arg.empty(); }
};

// `func(a, *rest, key=v, **kw)`; `kernel[grid](x, y)` is a Call whose func is a Subscript.
// Positional arguments (Starred for `*rest`) keep their order in `args`, keywords in `keywords`.
class Call : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Call)
  ExprPtr func;
  ExprList args;
  std::vector<Keyword> keywords;
  const Keyword* keyword(std::string_view name) const;  // nullptr if absent
};

// `-x`, `+x`, `~x`, `not x`
class Unary : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Unary)
  UnaryOp op = UnaryOp::Neg;
  ExprPtr operand;
};

// `left op right` for the arithmetic, bitwise, shift and `@` operators.
class Binary : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Binary)
  BinaryOp op = BinaryOp::Add;
  SourceRange opRange;               // the operator token, for diagnostics
  ExprPtr left;
  ExprPtr right;
};

// `a and b and c`: one node with all operands (n-ary, like Python's ast), op And or Or.
class BoolOp : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(BoolOp)
  BoolOpKind op = BoolOpKind::And;
  ExprList values;                   // at least two
};

// `a < b <= c`: chained comparison, meaning `a < b and b <= c` with b evaluated once.
class Compare : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Compare)
  ExprPtr left;
  std::vector<CompareOp> ops;        // ops.size() == comparators.size() >= 1
  std::vector<SourceRange> opRanges;
  ExprList comparators;
};

// `body if test else orelse`
class IfExp : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(IfExp)
  ExprPtr test;
  ExprPtr body;
  ExprPtr orelse;
};

// How a parameter may be passed (PositionalOnly, Normal, VarPositional, KeywordOnly, VarKeyword):
// the argument binder's kinds, so a def's parameters bind by the one rule.
using ParamKind = util::ParameterKind;
std::string_view paramKindName(ParamKind k);

// One parameter of a def or lambda: `BLOCK_SIZE: tl.constexpr = 128`.
struct Param {
  SourceRange range;                 // from the name (or its `*`) to the end of the default
  std::string name;
  SourceRange nameRange;
  ParamKind kind = ParamKind::Normal;
  ExprPtr annotation;                // null when absent (always null in a lambda)
  ExprPtr defaultValue;              // null when absent
};

// A parameter list, in source order. A bare `*` or `/` is not a Param; it shows in the kinds.
struct Parameters {
  SourceRange range;                 // inside the parentheses (or between `lambda` and `:`)
  std::vector<Param> params;
  const Param* find(std::string_view name) const;  // nullptr if absent
  // Names, kinds and whether each has a default: what util::ArgumentBinding binds a call to.
  std::vector<util::ParameterInfo> bindingShape() const;
};

// `lambda meta: (triton.cdiv(n, meta['BLOCK']),)`
class Lambda : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Lambda)
  Parameters params;
  ExprPtr body;
};

// `*value` in a call, display or assignment target.
class Starred : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Starred)
  ExprPtr value;
};

// `yield`, `yield value`, `yield from value` (host-side generators).
class Yield : public Expr {
  using Base = Expr;
public:
  TILESCOPE_AST_NODE(Yield)
  ExprPtr value;                     // may be null for a bare `yield`
  bool isFrom = false;
};

// ============================================================================ statements

class Stmt : public Node {
public:
  static bool classof(const Node* n) { return n->kind() >= Kind::FirstStmt && n->kind() <= Kind::LastStmt; }
  static constexpr std::string_view className() { return "Stmt"; }

protected:
  using Node::Node;
};
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

// The docstring of a body: its first statement when that is a plain (non-bytes) string expression.
const StringLiteral* docstringOf(const StmtList& body);

// An expression used as a statement: calls, docstrings, a notebook cell's last value `x, y`.
class ExprStmt : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(ExprStmt)
  ExprPtr value;
};

// `a = b = value`. Targets (Store context) may be Name, Attribute, Subscript, Starred, or a
// Tuple/List of targets nested to any depth: `(m, k), (_, n) = a.shape, b.shape`.
class Assign : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Assign)
  ExprList targets;                  // left to right, at least one
  ExprPtr value;
};

// `target op= value`, e.g. `acc += tl.dot(a, b)`. The target is a Name, Attribute or Subscript.
class AugAssign : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(AugAssign)
  ExprPtr target;
  BinaryOp op = BinaryOp::Add;
  SourceRange opRange;
  ExprPtr value;
};

// `target: annotation = value` (value optional).
class AnnAssign : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(AnnAssign)
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value;                     // may be null
  bool simple = false;               // target is a bare, unparenthesized Name
};

// `if test: body else: orelse`. An `elif` is an If (with isElif) alone in its parent's orelse,
// whose range starts at the `elif` keyword.
class If : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(If)
  ExprPtr test;
  StmtList body;
  StmtList orelse;
  bool isElif = false;
};

// `for target in iter: body else: orelse`
class For : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(For)
  ExprPtr target;                    // Store context; may be a Tuple `i, (a, b)`
  ExprPtr iter;
  StmtList body;
  StmtList orelse;
};

// `while test: body else: orelse`
class While : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(While)
  ExprPtr test;
  StmtList body;
  StmtList orelse;
};

// `break`
class Break : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Break)
};

// `continue`
class Continue : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Continue)
};

// `return`, `return x`, `return a, b` (a Tuple)
class Return : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Return)
  ExprPtr value;                     // may be null
};

// `pass`
class Pass : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Pass)
};

// `assert test, msg`
class Assert : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Assert)
  ExprPtr test;
  ExprPtr msg;                       // may be null
};

// `raise`, `raise exc`, `raise exc from cause`
class Raise : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Raise)
  ExprPtr exc;                       // may be null
  ExprPtr cause;                     // may be null
};

// `a.b as c` in an import; `*` in `from m import *` (name "*").
struct ImportAlias {
  SourceRange range;
  std::string name;                  // dotted: "triton.language"
  std::string asName;                // empty when there is no `as`
};

// `import triton.language as tl, torch`
class Import : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Import)
  std::vector<ImportAlias> names;
};

// `from a.b import c as d, e`, `from . import x` (level 1, module empty)
class ImportFrom : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(ImportFrom)
  std::string module;                // dotted; empty for `from . import x`
  int level = 0;                     // number of leading dots
  std::vector<ImportAlias> names;
};

// `@decorators... def name(params) -> returns: body`. The range starts at the first decorator.
class FunctionDef : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(FunctionDef)
  std::string name;
  SourceRange nameRange;
  ExprList decorators;               // in source order: `@triton.autotune(...)` before `@triton.jit`
  Parameters params;
  ExprPtr returns;                   // the `-> T` annotation, may be null
  StmtList body;
  const StringLiteral* docstring() const { return docstringOf(body); }
};

// `@decorators... class Name(bases, keywords): body`
class ClassDef : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(ClassDef)
  std::string name;
  SourceRange nameRange;
  ExprList decorators;
  ExprList bases;
  std::vector<Keyword> keywords;
  StmtList body;
  const StringLiteral* docstring() const { return docstringOf(body); }
};

// One `expr as target` of a with statement.
struct WithItem {
  SourceRange range;
  ExprPtr contextExpr;
  ExprPtr optionalVars;              // Store context; may be null
};

// `with torch.no_grad(), open(p) as f: body`
class With : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(With)
  std::vector<WithItem> items;
  StmtList body;
};

// `except Type as name: body`
struct ExceptHandler {
  SourceRange range;                 // from `except` to the end of its body
  ExprPtr type;                      // may be null for a bare `except:`
  std::string name;                  // empty when there is no `as`
  StmtList body;
};

// `try: body except...: ... else: orelse finally: finalBody`
class Try : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Try)
  StmtList body;
  std::vector<ExceptHandler> handlers;
  StmtList orelse;
  StmtList finalBody;
};

// `global a, b`
class Global : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Global)
  std::vector<std::string> names;
};

// `nonlocal a, b`
class Nonlocal : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Nonlocal)
  std::vector<std::string> names;
};

// `del a, b[0]` (targets in Del context)
class Del : public Stmt {
  using Base = Stmt;
public:
  TILESCOPE_AST_NODE(Del)
  ExprList targets;
};

// ============================================================================ the root

// A whole file or notebook cell. Owns the SourceFile so that every range in the tree stays valid.
class Module : public Node {
  using Base = Node;
public:
  TILESCOPE_AST_NODE(Module)
  std::shared_ptr<const SourceFile> file;
  StmtList body;
  const StringLiteral* docstring() const { return docstringOf(body); }
};

#undef TILESCOPE_AST_NODE

// Calls `visit` on each direct child node of `node` in source order, including the expressions and
// statements held by helper structs (Param annotations and defaults, Keyword values, comprehension
// clauses, f-string fields, except handlers, with items). Enough to write generic walks.
void forEachChild(const Node& node, const std::function<void(const Node&)>& visit);

}  // namespace tilescope::lang
