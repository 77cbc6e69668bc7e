#include <gtest/gtest.h>

#include <string>

#include "core/syntax/AstPrinter.h"
#include "core/syntax/Parser.h"

using namespace tilescope::lang;

namespace {

// A compact prefix form of an expression, for asserting structure and precedence:
// `a + b * c` -> "(+ a (* b c))".
std::string sx(const Expr& e);
std::string sx(const ExprPtr& e) { return e ? sx(*e) : "_"; }

std::string sxList(const ExprList& list) {
  std::string out;
  for (const ExprPtr& e : list) out += " " + sx(e);
  return out;
}

std::string sx(const Expr& e) {
  switch (e.kind()) {
    case Node::Kind::Name: return e.as<Name>()->id;
    case Node::Kind::IntLiteral: return e.as<IntLiteral>()->text;
    case Node::Kind::FloatLiteral: return e.as<FloatLiteral>()->text;
    case Node::Kind::StringLiteral: return (e.as<StringLiteral>()->isBytes ? "b'" : "'") + e.as<StringLiteral>()->value + "'";
    case Node::Kind::BoolLiteral: return e.as<BoolLiteral>()->value ? "True" : "False";
    case Node::Kind::NoneLiteral: return "None";
    case Node::Kind::Ellipsis: return "...";
    case Node::Kind::Unary: return "(" + std::string(spelling(e.as<Unary>()->op)) + " " + sx(e.as<Unary>()->operand) + ")";
    case Node::Kind::Binary: {
      const auto* b = e.as<Binary>();
      return "(" + std::string(spelling(b->op)) + " " + sx(b->left) + " " + sx(b->right) + ")";
    }
    case Node::Kind::BoolOp: return "(" + std::string(spelling(e.as<BoolOp>()->op)) + sxList(e.as<BoolOp>()->values) + ")";
    case Node::Kind::Compare: {
      const auto* c = e.as<Compare>();
      std::string out = "(cmp " + sx(c->left);
      for (size_t i = 0; i < c->ops.size(); ++i) out += " " + std::string(spelling(c->ops[i])) + " " + sx(c->comparators[i]);
      return out + ")";
    }
    case Node::Kind::IfExp: {
      const auto* i = e.as<IfExp>();
      return "(ifexp " + sx(i->test) + " " + sx(i->body) + " " + sx(i->orelse) + ")";
    }
    case Node::Kind::Tuple: return "(tuple" + sxList(e.as<Tuple>()->elements) + ")";
    case Node::Kind::List: return "[list" + sxList(e.as<List>()->elements) + "]";
    case Node::Kind::Set: return "{set" + sxList(e.as<Set>()->elements) + "}";
    case Node::Kind::Starred: return "*" + sx(e.as<Starred>()->value);
    case Node::Kind::Attribute: return sx(e.as<Attribute>()->value) + "." + e.as<Attribute>()->attr;
    case Node::Kind::Subscript: return sx(e.as<Subscript>()->value) + "[" + sx(e.as<Subscript>()->index) + "]";
    case Node::Kind::Slice: {
      const auto* s = e.as<Slice>();
      return "(slice " + sx(s->lower) + " " + sx(s->upper) + " " + sx(s->step) + ")";
    }
    case Node::Kind::Call: {
      const auto* c = e.as<Call>();
      std::string out = "(call " + sx(c->func) + sxList(c->args);
      for (const Keyword& k : c->keywords) out += " " + (k.isDoubleStar() ? std::string("**") : k.arg + "=") + sx(k.value);
      return out + ")";
    }
    case Node::Kind::Lambda: {
      const auto* l = e.as<Lambda>();
      std::string out = "(lambda";
      for (const Param& p : l->params.params) out += " " + p.name + (p.defaultValue ? "=" + sx(p.defaultValue) : "");
      return out + ": " + sx(l->body) + ")";
    }
    case Node::Kind::Dict: {
      std::string out = "{dict";
      for (const DictItem& item : e.as<Dict>()->items) out += " " + (item.key ? sx(item.key) + ":" : "**") + sx(item.value);
      return out + "}";
    }
    case Node::Kind::ListComp:
    case Node::Kind::GeneratorExp: {
      const bool list = e.is<ListComp>();
      const ExprPtr& element = list ? e.as<ListComp>()->element : e.as<GeneratorExp>()->element;
      const auto& gens = list ? e.as<ListComp>()->generators : e.as<GeneratorExp>()->generators;
      std::string out = std::string(list ? "(listcomp " : "(genexp ") + sx(element);
      for (const Comprehension& c : gens) {
        out += " for " + sx(c.target) + " in " + sx(c.iter);
        for (const ExprPtr& cond : c.ifs) out += " if " + sx(cond);
      }
      return out + ")";
    }
    default: return std::string(e.kindName());
  }
}

std::string expr(const std::string& text) {
  ExpressionParseResult r = parseExpression(text);
  EXPECT_TRUE(r.ok()) << text << "\n" << r.diagnostics.render();
  return r.expression ? sx(*r.expression) : "<error>";
}

ParseResult module(const std::string& text) {
  ParseResult r = parseModule(text, "t.py");
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r;
}

std::string at(const Node& n) {
  const LineColumn lc = n.range.start();
  return std::to_string(lc.line) + ":" + std::to_string(lc.column);
}

}  // namespace

TEST(Parser, ArithmeticPrecedenceMatchesPython) {
  EXPECT_EQ(expr("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(expr("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(expr("a * b @ c / d // e % f"), "(% (// (/ (@ (* a b) c) d) e) f)");
  EXPECT_EQ(expr("-a ** b"), "(- (** a b))");
  EXPECT_EQ(expr("a ** -b"), "(** a (- b))");
  EXPECT_EQ(expr("a ** b ** c"), "(** a (** b c))");
  EXPECT_EQ(expr("~a + +b"), "(+ (~ a) (+ b))");
  EXPECT_EQ(expr("(a + b) * c"), "(* (+ a b) c)");
}

TEST(Parser, BitwiseAndShiftPrecedence) {
  EXPECT_EQ(expr("a | b ^ c & d << e + f"), "(| a (^ b (& c (<< d (+ e f)))))");
  EXPECT_EQ(expr("a >> 1 << 2"), "(<< (>> a 1) 2)");
  EXPECT_EQ(expr("(offs_am[:, None] < M) & ((k + offs_k[None, :]) < K)"),
            "(& (cmp offs_am[(tuple (slice _ _ _) None)] < M) (cmp (+ k offs_k[(tuple None (slice _ _ _))]) < K))");
  EXPECT_EQ(expr("a < b & c"), "(cmp a < (& b c))");
}

TEST(Parser, ComparisonsChain) {
  EXPECT_EQ(expr("a < b <= c == d"), "(cmp a < b <= c == d)");
  EXPECT_EQ(expr("a in b not in c is d is not e != f > g >= h"),
            "(cmp a in b not in c is d is not e != f > g >= h)");
}

TEST(Parser, BooleanOperatorsAreNaryAndNotBindsLooser) {
  EXPECT_EQ(expr("a or b or c and d and not e"), "(or a b (and c d (not e)))");
  EXPECT_EQ(expr("not a == b"), "(not (cmp a == b))");
  EXPECT_EQ(expr("not not a"), "(not (not a))");
}

TEST(Parser, ConditionalExpressionAndLambda) {
  EXPECT_EQ(expr("a if b else c if d else e"), "(ifexp b a (ifexp d c e))");
  EXPECT_EQ(expr("lambda meta: (triton.cdiv(n, meta['BLOCK']),)"),
            "(lambda meta: (tuple (call triton.cdiv n meta['BLOCK'])))");
  EXPECT_EQ(expr("lambda: x + y"), "(lambda: (+ x y))");
  EXPECT_EQ(expr("lambda a, b=2: a if b else 0"), "(lambda a b=2: (ifexp b a 0))");
}

TEST(Parser, Literals) {
  EXPECT_EQ(expr("(1, 2.5, 'x', b'y', True, False, None, ...)"), "(tuple 1 2.5 'x' b'y' True False None ...)");
  EXPECT_EQ(expr("'a' \"b\" '''c'''"), "'abc'");
  EXPECT_EQ(expr("[]"), "[list]");
  EXPECT_EQ(expr("()"), "(tuple)");
  EXPECT_EQ(expr("(1,)"), "(tuple 1)");
  EXPECT_EQ(expr("{}"), "{dict}");
  EXPECT_EQ(expr("{'a': 1, **b}"), "{dict 'a':1 **b}");
  EXPECT_EQ(expr("{1, *s}"), "{set 1 *s}");
  const ExpressionParseResult big = parseExpression("123456789012345678901234567890");
  ASSERT_TRUE(big.ok());
  const auto* lit = big.expression->as<IntLiteral>();
  ASSERT_NE(lit, nullptr);
  EXPECT_FALSE(lit->value.has_value());
  EXPECT_EQ(lit->text, "123456789012345678901234567890");
}

TEST(Parser, SubscriptsAndSlices) {
  EXPECT_EQ(expr("x[:, None]"), "x[(tuple (slice _ _ _) None)]");
  EXPECT_EQ(expr("x[None, :]"), "x[(tuple None (slice _ _ _))]");
  EXPECT_EQ(expr("a[1:2, ::2]"), "a[(tuple (slice 1 2 _) (slice _ _ 2))]");
  EXPECT_EQ(expr("a[i]"), "a[i]");
  EXPECT_EQ(expr("a[i,]"), "a[(tuple i)]");
  EXPECT_EQ(expr("a[:-1]"), "a[(slice _ (- 1) _)]");
  EXPECT_EQ(expr("a[::]"), "a[(slice _ _ _)]");
  EXPECT_EQ(expr("img[:2,:3,:4]"), "img[(tuple (slice _ 2 _) (slice _ 3 _) (slice _ 4 _))]");
  EXPECT_EQ(expr("(start_n + offs_n)[:, None]"), "(+ start_n offs_n)[(tuple (slice _ _ _) None)]");
}

TEST(Parser, SliceRanges) {
  const ExpressionParseResult r = parseExpression("a[1:2, ::2]");
  ASSERT_TRUE(r.ok());
  const auto* sub = r.expression->as<Subscript>();
  ASSERT_NE(sub, nullptr);
  const auto* tuple = sub->index->as<Tuple>();
  ASSERT_NE(tuple, nullptr);
  EXPECT_EQ(tuple->range.text(), "1:2, ::2");
  EXPECT_EQ(tuple->elements[0]->range.text(), "1:2");
  EXPECT_EQ(tuple->elements[1]->range.text(), "::2");
  EXPECT_EQ(sub->range.text(), "a[1:2, ::2]");
}

TEST(Parser, CallsWithEveryKindOfArgument) {
  EXPECT_EQ(expr("f(a, *args, k=1, **kw)"), "(call f a *args k=1 **kw)");
  EXPECT_EQ(expr("kernel[grid](x, y, BLOCK_SIZE=1024)"), "(call kernel[grid] x y BLOCK_SIZE=1024)");
  EXPECT_EQ(expr("sum(x for x in y if x)"), "(call sum (genexp x for x in y if x))");
  EXPECT_EQ(expr("f(a,)"), "(call f a)");
  EXPECT_EQ(expr("x.to(tl.float32).T"), "(call x.to tl.float32).T");
  const ExpressionParseResult r = parseExpression("tl.load(x_ptr + offs, mask=mask, other=0.0)");
  ASSERT_TRUE(r.ok());
  const auto* call = r.expression->as<Call>();
  ASSERT_NE(call, nullptr);
  ASSERT_NE(call->keyword("other"), nullptr);
  EXPECT_EQ(call->keyword("other")->argRange.text(), "other");
  EXPECT_EQ(call->keyword("other")->range.text(), "other=0.0");
  EXPECT_EQ(call->keyword("missing"), nullptr);
}

TEST(Parser, Comprehensions) {
  EXPECT_EQ(expr("[2**i for i in range(12, 28, 1)]"), "(listcomp (** 2 i) for i in (call range 12 28 1))");
  EXPECT_EQ(expr("[a for a, b in c if a if b for d in a]"),
            "(listcomp a for (tuple a b) in c if a if b for d in a)");
  const ExpressionParseResult r = parseExpression("{k: v for k, v in d.items()}");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.expression->is<DictComp>());
  EXPECT_TRUE(parseExpression("{x for x in s}").expression->is<SetComp>());
  EXPECT_TRUE(parseExpression("(x for x in s)").expression->is<GeneratorExp>());
}

TEST(Parser, ParenthesesAreRememberedButNotInTheRange) {
  const ExpressionParseResult r = parseExpression("(a + b)");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.expression->parenthesized);
  EXPECT_EQ(r.expression->range.text(), "a + b");
  const ExpressionParseResult t = parseExpression("(a, b)");
  EXPECT_EQ(t.expression->range.text(), "(a, b)");
}

TEST(Parser, FStringParts) {
  const ExpressionParseResult r = parseExpression(R"(f"pid = {pid!r:>{w}} | {x=}" ' tail')");
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const auto* f = r.expression->as<FString>();
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->parts.size(), 5u);
  EXPECT_EQ(f->parts[0].kind, FStringPart::Kind::Literal);
  EXPECT_EQ(f->parts[0].text, "pid = ");
  const FStringPart& field = f->parts[1];
  EXPECT_EQ(field.kind, FStringPart::Kind::Field);
  EXPECT_EQ(sx(field.expr), "pid");
  EXPECT_EQ(field.expr->range.text(), "pid");
  EXPECT_EQ(at(*field.expr), "1:10");
  EXPECT_EQ(field.conversion, 'r');
  ASSERT_TRUE(field.hasFormatSpec);
  ASSERT_EQ(field.formatSpec.size(), 2u);
  EXPECT_EQ(field.formatSpec[0].text, ">");
  EXPECT_EQ(sx(field.formatSpec[1].expr), "w");
  EXPECT_EQ(f->parts[2].text, " | ");
  EXPECT_TRUE(f->parts[3].selfDocumenting);
  EXPECT_EQ(f->parts[4].text, " tail");  // the adjacent plain string joins as literal text
}

TEST(Parser, FStringFieldsHoldFullExpressions) {
  const ExpressionParseResult r =
      parseExpression(R"(f"{torch.max(torch.abs(a - b))} {d['k']:>10} {x if y else z} {f'{n}'}")");
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const auto* f = r.expression->as<FString>();
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->parts.size(), 7u);
  EXPECT_EQ(sx(f->parts[0].expr), "(call torch.max (call torch.abs (- a b)))");
  EXPECT_EQ(sx(f->parts[2].expr), "d['k']");
  EXPECT_EQ(sx(f->parts[4].expr), "(ifexp y x z)");
  EXPECT_TRUE(f->parts[6].expr->is<FString>());
}

TEST(Parser, AssignmentTargetsUnpackWithNesting) {
  ParseResult r = module("(m, k), (_, n) = a.shape, b.shape\na = b = 1\nfirst, *rest = xs\nx[i].y = z\n");
  ASSERT_TRUE(r.ok());
  const auto* assign = r.module->body[0]->as<Assign>();
  ASSERT_NE(assign, nullptr);
  ASSERT_EQ(assign->targets.size(), 1u);
  EXPECT_EQ(sx(assign->targets[0]), "(tuple (tuple m k) (tuple _ n))");
  const auto* outer = assign->targets[0]->as<Tuple>();
  EXPECT_EQ(outer->context, ExprContext::Store);
  EXPECT_EQ(outer->elements[0]->as<Tuple>()->elements[1]->context, ExprContext::Store);
  EXPECT_EQ(sx(assign->value), "(tuple a.shape b.shape)");

  const auto* chain = r.module->body[1]->as<Assign>();
  ASSERT_EQ(chain->targets.size(), 2u);
  EXPECT_EQ(sx(chain->targets[0]), "a");
  EXPECT_EQ(sx(chain->targets[1]), "b");
  EXPECT_EQ(sx(chain->value), "1");

  const auto* star = r.module->body[2]->as<Assign>();
  EXPECT_EQ(sx(star->targets[0]), "(tuple first *rest)");
  EXPECT_EQ(star->targets[0]->as<Tuple>()->elements[1]->context, ExprContext::Store);

  const auto* attr = r.module->body[3]->as<Assign>();
  EXPECT_EQ(attr->targets[0]->context, ExprContext::Store);
  EXPECT_EQ(attr->targets[0]->as<Attribute>()->value->context, ExprContext::Load);
}

TEST(Parser, AugmentedAndAnnotatedAssignment) {
  ParseResult r = module("acc += tl.dot(a, b)\nX **= 2\nx: int = 3\ny: tl.tensor\n(z): int = 1\n");
  ASSERT_TRUE(r.ok());
  const auto* aug = r.module->body[0]->as<AugAssign>();
  ASSERT_NE(aug, nullptr);
  EXPECT_EQ(aug->op, BinaryOp::Add);
  EXPECT_EQ(aug->opRange.text(), "+=");
  EXPECT_EQ(sx(aug->value), "(call tl.dot a b)");
  EXPECT_EQ(r.module->body[1]->as<AugAssign>()->op, BinaryOp::Pow);
  const auto* ann = r.module->body[2]->as<AnnAssign>();
  ASSERT_NE(ann, nullptr);
  EXPECT_TRUE(ann->simple);
  EXPECT_EQ(sx(ann->annotation), "int");
  EXPECT_EQ(sx(ann->value), "3");
  EXPECT_EQ(r.module->body[3]->as<AnnAssign>()->value, nullptr);
  EXPECT_FALSE(r.module->body[4]->as<AnnAssign>()->simple);
}

TEST(Parser, DecoratorsAndParameters) {
  ParseResult r = module(R"(@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4)], key=['n'])
@triton.jit
def kernel(x_ptr, n, /, y: int = 2, *args, flag, BLOCK: tl.constexpr = 64, **kw) -> None:
    """Adds."""
    pass
)");
  ASSERT_TRUE(r.ok());
  const auto* def = r.module->body[0]->as<FunctionDef>();
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def->name, "kernel");
  EXPECT_EQ(def->nameRange.text(), "kernel");
  EXPECT_EQ(at(*def), "1:1");  // the range starts at the first decorator
  ASSERT_EQ(def->decorators.size(), 2u);
  EXPECT_EQ(sx(def->decorators[0]),
            "(call triton.autotune configs=[list (call triton.Config {dict 'BLOCK':128} num_warps=4)] key=[list 'n'])");
  EXPECT_EQ(sx(def->decorators[1]), "triton.jit");
  const auto& ps = def->params.params;
  ASSERT_EQ(ps.size(), 7u);
  EXPECT_EQ(ps[0].kind, ParamKind::PositionalOnly);
  EXPECT_EQ(ps[1].kind, ParamKind::PositionalOnly);
  EXPECT_EQ(ps[2].kind, ParamKind::Normal);
  EXPECT_EQ(sx(ps[2].annotation), "int");
  EXPECT_EQ(sx(ps[2].defaultValue), "2");
  EXPECT_EQ(ps[2].range.text(), "y: int = 2");
  EXPECT_EQ(ps[3].kind, ParamKind::VarPositional);
  EXPECT_EQ(ps[3].name, "args");
  EXPECT_EQ(ps[4].kind, ParamKind::KeywordOnly);
  EXPECT_EQ(ps[5].kind, ParamKind::KeywordOnly);
  EXPECT_EQ(sx(ps[5].annotation), "tl.constexpr");
  EXPECT_EQ(ps[6].kind, ParamKind::VarKeyword);
  ASSERT_NE(def->params.find("BLOCK"), nullptr);
  EXPECT_EQ(sx(def->returns), "None");
  ASSERT_NE(def->docstring(), nullptr);
  EXPECT_EQ(def->docstring()->value, "Adds.");
}

TEST(Parser, BareStarMakesKeywordOnlyParameters) {
  ParseResult r = module("def f(a, *, b=1, c):\n    pass\n");
  ASSERT_TRUE(r.ok());
  const auto& ps = r.module->body[0]->as<FunctionDef>()->params.params;
  ASSERT_EQ(ps.size(), 3u);
  EXPECT_EQ(ps[1].kind, ParamKind::KeywordOnly);
  EXPECT_EQ(ps[2].kind, ParamKind::KeywordOnly);  // keyword-only may lack defaults after ones with
}

TEST(Parser, IfElifElseNestsWithElifRanges) {
  ParseResult r = module("if a:\n    x = 1\nelif b:\n    x = 2\nelif c: x = 3\nelse:\n    x = 4\n");
  ASSERT_TRUE(r.ok());
  const auto* top = r.module->body[0]->as<If>();
  ASSERT_NE(top, nullptr);
  EXPECT_FALSE(top->isElif);
  EXPECT_EQ(at(*top), "1:1");
  ASSERT_EQ(top->orelse.size(), 1u);
  const auto* elif1 = top->orelse[0]->as<If>();
  ASSERT_NE(elif1, nullptr);
  EXPECT_TRUE(elif1->isElif);
  EXPECT_EQ(at(*elif1), "3:1");
  EXPECT_EQ(sx(elif1->test), "b");
  const auto* elif2 = elif1->orelse[0]->as<If>();
  ASSERT_NE(elif2, nullptr);
  EXPECT_EQ(at(*elif2), "5:1");
  ASSERT_EQ(elif2->body.size(), 1u);
  ASSERT_EQ(elif2->orelse.size(), 1u);
  EXPECT_EQ(at(*elif2->orelse[0]), "7:5");
  EXPECT_EQ(top->range.end, elif2->range.end);
  EXPECT_EQ(r.module->file->lineColumn(top->range.end).line, 7);
}

TEST(Parser, SemicolonsAndOneLineBodies) {
  ParseResult r = module("def cdiv(a,b): return (a+b-1)//b\nfor i in x:\n    if c: continue\nkernel[grid](x, z, group_sz=3);\na = 1; b = 2\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.module->body.size(), 5u);
  const auto* def = r.module->body[0]->as<FunctionDef>();
  ASSERT_EQ(def->body.size(), 1u);
  EXPECT_EQ(sx(def->body[0]->as<Return>()->value), "(// (- (+ a b) 1) b)");
  const auto* loop = r.module->body[1]->as<For>();
  EXPECT_TRUE(loop->body[0]->as<If>()->body[0]->is<Continue>());
  EXPECT_EQ(sx(r.module->body[2]->as<ExprStmt>()->value), "(call kernel[grid] x z group_sz=3)");
  EXPECT_TRUE(r.module->body[3]->is<Assign>());
  EXPECT_TRUE(r.module->body[4]->is<Assign>());
}

TEST(Parser, LoopsTargetsAndElse) {
  ParseResult r = module("for i, (a, b) in enumerate(z):\n    break\nelse:\n    pass\nwhile x:\n    x -= 1\n");
  ASSERT_TRUE(r.ok());
  const auto* loop = r.module->body[0]->as<For>();
  EXPECT_EQ(sx(loop->target), "(tuple i (tuple a b))");
  EXPECT_EQ(loop->target->context, ExprContext::Store);
  EXPECT_EQ(sx(loop->iter), "(call enumerate z)");
  EXPECT_EQ(loop->orelse.size(), 1u);
  EXPECT_TRUE(r.module->body[1]->is<While>());
}

TEST(Parser, ImportsAndSimpleStatements) {
  ParseResult r = module(
      "import triton.language as tl, torch\nfrom ..a.b import c as d, e\nfrom . import (x,)\n"
      "def f():\n    global g\n    del a[0], b\n    assert x, 'msg'\n    raise ValueError('v') from e\n    return\n");
  ASSERT_TRUE(r.ok());
  const auto* imp = r.module->body[0]->as<Import>();
  ASSERT_EQ(imp->names.size(), 2u);
  EXPECT_EQ(imp->names[0].name, "triton.language");
  EXPECT_EQ(imp->names[0].asName, "tl");
  EXPECT_EQ(imp->names[0].range.text(), "triton.language as tl");
  const auto* from = r.module->body[1]->as<ImportFrom>();
  EXPECT_EQ(from->level, 2);
  EXPECT_EQ(from->module, "a.b");
  EXPECT_EQ(from->names[0].asName, "d");
  EXPECT_EQ(from->names[1].name, "e");
  EXPECT_EQ(r.module->body[2]->as<ImportFrom>()->module, "");
  const auto& body = r.module->body[3]->as<FunctionDef>()->body;
  EXPECT_EQ(body[0]->as<Global>()->names, std::vector<std::string>{"g"});
  EXPECT_EQ(body[1]->as<Del>()->targets[0]->context, ExprContext::Del);
  EXPECT_EQ(sx(body[2]->as<Assert>()->msg), "'msg'");
  EXPECT_EQ(sx(body[3]->as<Raise>()->cause), "e");
  EXPECT_EQ(body[4]->as<Return>()->value, nullptr);
}

TEST(Parser, HostOnlyStatements) {
  ParseResult r = module(
      "class C(Base, metaclass=M):\n    x = 1\nwith open(p) as f, g:\n    pass\n"
      "try:\n    pass\nexcept (A, B) as e:\n    pass\nexcept:\n    pass\nelse:\n    pass\nfinally:\n    pass\n");
  ASSERT_TRUE(r.ok());
  const auto* cls = r.module->body[0]->as<ClassDef>();
  EXPECT_EQ(cls->bases.size(), 1u);
  EXPECT_EQ(cls->keywords[0].arg, "metaclass");
  const auto* with = r.module->body[1]->as<With>();
  ASSERT_EQ(with->items.size(), 2u);
  EXPECT_EQ(with->items[0].optionalVars->context, ExprContext::Store);
  const auto* t = r.module->body[2]->as<Try>();
  ASSERT_EQ(t->handlers.size(), 2u);
  EXPECT_EQ(t->handlers[0].name, "e");
  EXPECT_EQ(t->handlers[1].type, nullptr);
  EXPECT_EQ(t->orelse.size(), 1u);
  EXPECT_EQ(t->finalBody.size(), 1u);
}

TEST(Parser, MainGuardIsAnIfAndNotebookValueIsAnExprStmt) {
  ParseResult r = module("if __name__ == \"__main__\":\n    main()\nx, y, x+y\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(sx(r.module->body[0]->as<If>()->test), "(cmp __name__ == '__main__')");
  EXPECT_EQ(sx(r.module->body[1]->as<ExprStmt>()->value), "(tuple x y (+ x y))");
}

TEST(Parser, StatementRangesCoverTheirText) {
  ParseResult r = module("x = 1  # c\ndef f(a):\n    return a\n\n\ny = 2\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.module->body[0]->range.text(), "x = 1");
  EXPECT_EQ(r.module->body[1]->range.text(), "def f(a):\n    return a");
  EXPECT_EQ(at(*r.module->body[2]), "6:1");
}

TEST(Parser, EmptyAndBlankInputGivesEmptyModule) {
  EXPECT_TRUE(module("").module->body.empty());
  EXPECT_TRUE(module("\n\n   \n# only a comment\n").module->body.empty());
}

TEST(Parser, ModuleOwnsItsFile) {
  ParseResult r = parseModule("x = 1\n", "cell.py");
  ASSERT_TRUE(r.ok());
  std::unique_ptr<Module> m = std::move(r.module);
  r = ParseResult{};
  EXPECT_EQ(m->file->name(), "cell.py");
  EXPECT_EQ(m->body[0]->range.text(), "x = 1");
}

TEST(Parser, CastHelpers) {
  ExpressionParseResult r = parseExpression("f(x)");
  ASSERT_TRUE(r.ok());
  const Node* n = r.expression.get();
  EXPECT_TRUE(isa<Call>(n));
  EXPECT_TRUE(isa<Expr>(n));
  EXPECT_FALSE(isa<Stmt>(n));
  EXPECT_NE(dyn_cast<Call>(n), nullptr);
  EXPECT_EQ(dyn_cast<Name>(n), nullptr);
  EXPECT_THROW(cast<Name>(n), InternalError);
  int children = 0;
  forEachChild(*n, [&](const Node&) { ++children; });
  EXPECT_EQ(children, 2);  // func and one argument
}

TEST(Parser, ExpressionEntryPointRejectsTrailingTokens) {
  ExpressionParseResult r = parseExpression("a b");
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.items().size(), 1u);
  EXPECT_EQ(r.diagnostics.items()[0].headline(), "<expression>:1:3: error: invalid syntax: unexpected name 'b' after the expression");
}

TEST(Parser, DeepNestingIsADiagnosticNotACrash) {
  const std::string parens = "x = " + std::string(199, '(') + "1" + std::string(199, ')') + "\n";
  EXPECT_TRUE(parseModule(parens).ok());
  const std::string unary = "x = " + std::string(5000, '-') + "1\n";
  ParseResult r = parseModule(unary);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.items().size(), 1u);
  std::string chain = "x = a";
  for (int i = 0; i < 5000; ++i) chain += ".b";
  EXPECT_FALSE(parseModule(chain).ok());
  const std::string fstring = "x = f'{" + std::string(300, '(') + "1" + std::string(300, ')') + "}'\n";
  EXPECT_FALSE(parseModule(fstring).ok());
  const std::string nested = "x = f'''{f\"\"\"{f'{f\"{1}\"}'}\"\"\"}'''\n";  // four levels of f-strings are fine
  EXPECT_TRUE(parseModule(nested).ok()) << nested;
}

TEST(Parser, AstPrinterShowsKindsDetailsAndPositions) {
  ParseResult r = module("@triton.jit\ndef k(x_ptr, B: tl.constexpr):\n    x[:, None] += -1\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(printAst(*r.module),
            "Module @1:1\n"
            "  FunctionDef k @1:1\n"
            "    decorator: Attribute .jit @1:2\n"
            "      value: Name triton @1:2\n"
            "    Param x_ptr @2:7\n"
            "    Param B @2:14\n"
            "      annotation: Attribute .constexpr @2:17\n"
            "        value: Name tl @2:17\n"
            "    body:\n"
            "      AugAssign += @3:5\n"
            "        target: Subscript (store) @3:5\n"
            "          value: Name x @3:5\n"
            "          index: Tuple @3:7\n"
            "            Slice @3:7\n"
            "            NoneLiteral @3:10\n"
            "        value: Unary - @3:19\n"
            "          operand: IntLiteral 1 @3:20\n");
}
