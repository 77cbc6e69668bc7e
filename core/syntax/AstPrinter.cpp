#include "core/syntax/AstPrinter.h"

#include <cstdio>

namespace tilescope::lang {

namespace {

// Escapes for one line of output; long text is cut so docstrings do not flood the dump.
std::string quote(std::string_view text, bool bytes) {
  constexpr size_t kMaxShown = 48;
  std::string out = bytes ? "b\"" : "\"";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c >= 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  if (text.size() > kMaxShown) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

class Printer {
public:
  std::string out;

  void node(const Node& n, int depth, std::string_view label = {}) {
    line(depth, label, std::string(n.kindName()) + details(n), n.range);
    children(n, depth + 1);
  }

private:
  void line(int depth, std::string_view label, const std::string& text, SourceRange range) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    if (!label.empty()) {
      out += label;
      out += ": ";
    }
    out += text;
    if (range.valid()) {
      const LineColumn lc = range.start();
      out += " @" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
    }
    out += '\n';
  }
  void header(int depth, std::string_view label) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += label;
    out += ":\n";
  }
  void expr(const ExprPtr& e, int depth, std::string_view label) {
    if (e) node(*e, depth, label);
  }
  void exprs(const ExprList& list, int depth, std::string_view label) {
    for (const ExprPtr& e : list) expr(e, depth, label);
  }
  void block(const StmtList& body, int depth, std::string_view label) {
    if (body.empty()) return;
    header(depth, label);
    for (const StmtPtr& s : body) node(*s, depth + 1);
  }
  void params(const Parameters& ps, int depth) {
    for (const Param& p : ps.params) {
      std::string text = "Param " + p.name;
      if (p.kind != ParamKind::Normal) text += " (" + std::string(paramKindName(p.kind)) + ")";
      line(depth, {}, text, p.range);
      expr(p.annotation, depth + 1, "annotation");
      expr(p.defaultValue, depth + 1, "default");
    }
  }
  void keywords(const std::vector<Keyword>& ks, int depth) {
    for (const Keyword& k : ks) {
      line(depth, {}, k.isDoubleStar() ? std::string("Keyword **") : "Keyword " + k.arg, k.range);
      expr(k.value, depth + 1, "value");
    }
  }
  void generators(const std::vector<Comprehension>& gens, int depth) {
    for (const Comprehension& c : gens) {
      line(depth, {}, "Comprehension", c.range);
      expr(c.target, depth + 1, "target");
      expr(c.iter, depth + 1, "iter");
      exprs(c.ifs, depth + 1, "if");
    }
  }
  void fstringParts(const std::vector<FStringPart>& parts, int depth) {
    for (const FStringPart& p : parts) {
      if (p.kind == FStringPart::Kind::Literal) {
        line(depth, {}, "Literal " + quote(p.text, false), p.range);
        continue;
      }
      std::string text = "Field";
      if (p.selfDocumenting) text += " =";
      if (p.conversion) text += std::string(" !") + p.conversion;
      if (p.hasFormatSpec) text += " :spec";
      line(depth, {}, text, p.range);
      expr(p.expr, depth + 1, "value");
      if (!p.formatSpec.empty()) {
        header(depth + 1, "spec");
        fstringParts(p.formatSpec, depth + 2);
      }
    }
  }
  static std::string aliases(const std::vector<ImportAlias>& names) {
    std::string text;
    for (const ImportAlias& a : names) {
      text += text.empty() ? " " : ", ";
      text += a.name;
      if (!a.asName.empty()) text += " as " + a.asName;
    }
    return text;
  }
  static std::string contextSuffix(const Expr& e) {
    if (e.context == ExprContext::Load) return {};
    return e.context == ExprContext::Store ? " (store)" : " (del)";
  }

  static std::string details(const Node& n) {
    using K = Node::Kind;
    switch (n.kind()) {
      case K::Name: return " " + n.as<Name>()->id + contextSuffix(*n.as<Expr>());
      case K::IntLiteral: {
        const auto* i = n.as<IntLiteral>();
        return " " + i->text + (i->value ? "" : " (exceeds int64)");
      }
      case K::FloatLiteral: return " " + n.as<FloatLiteral>()->text;
      case K::StringLiteral: {
        const auto* s = n.as<StringLiteral>();
        return " " + quote(s->value, s->isBytes);
      }
      case K::BoolLiteral: return n.as<BoolLiteral>()->value ? " True" : " False";
      case K::Tuple:
      case K::List:
      case K::Starred:
      case K::Subscript: return contextSuffix(*n.as<Expr>());
      case K::Attribute: return " ." + n.as<Attribute>()->attr + contextSuffix(*n.as<Expr>());
      case K::Unary: return " " + std::string(spelling(n.as<Unary>()->op));
      case K::Binary: return " " + std::string(spelling(n.as<Binary>()->op));
      case K::BoolOp: return " " + std::string(spelling(n.as<BoolOp>()->op));
      case K::Compare: {
        std::string text;
        for (CompareOp op : n.as<Compare>()->ops) text += " " + std::string(spelling(op));
        return text;
      }
      case K::Yield: return n.as<Yield>()->isFrom ? " from" : "";
      case K::AugAssign: return " " + std::string(spelling(n.as<AugAssign>()->op)) + "=";
      case K::AnnAssign: return n.as<AnnAssign>()->simple ? " (simple)" : "";
      case K::If: return n.as<If>()->isElif ? " (elif)" : "";
      case K::FunctionDef: return " " + n.as<FunctionDef>()->name;
      case K::ClassDef: return " " + n.as<ClassDef>()->name;
      case K::Import: return aliases(n.as<Import>()->names);
      case K::ImportFrom: {
        const auto* i = n.as<ImportFrom>();
        return " " + std::string(static_cast<size_t>(i->level), '.') + i->module + " import" + aliases(i->names);
      }
      case K::Global:
      case K::Nonlocal: {
        const auto& names = n.is<Global>() ? n.as<Global>()->names : n.as<Nonlocal>()->names;
        std::string text;
        for (const std::string& name : names) text += (text.empty() ? " " : ", ") + name;
        return text;
      }
      default: return {};
    }
  }

  void children(const Node& n, int d) {
    using K = Node::Kind;
    switch (n.kind()) {
      case K::FString: return fstringParts(n.as<FString>()->parts, d);
      case K::Tuple: return exprs(n.as<Tuple>()->elements, d, {});
      case K::List: return exprs(n.as<List>()->elements, d, {});
      case K::Set: return exprs(n.as<Set>()->elements, d, {});
      case K::Dict:
        for (const DictItem& item : n.as<Dict>()->items) {
          if (item.key) {
            expr(item.key, d, "key");
            expr(item.value, d, "value");
          } else {
            expr(item.value, d, "**");
          }
        }
        return;
      case K::ListComp:
        expr(n.as<ListComp>()->element, d, "element");
        return generators(n.as<ListComp>()->generators, d);
      case K::SetComp:
        expr(n.as<SetComp>()->element, d, "element");
        return generators(n.as<SetComp>()->generators, d);
      case K::GeneratorExp:
        expr(n.as<GeneratorExp>()->element, d, "element");
        return generators(n.as<GeneratorExp>()->generators, d);
      case K::DictComp:
        expr(n.as<DictComp>()->key, d, "key");
        expr(n.as<DictComp>()->value, d, "value");
        return generators(n.as<DictComp>()->generators, d);
      case K::Attribute: return expr(n.as<Attribute>()->value, d, "value");
      case K::Subscript:
        expr(n.as<Subscript>()->value, d, "value");
        return expr(n.as<Subscript>()->index, d, "index");
      case K::Slice:
        expr(n.as<Slice>()->lower, d, "lower");
        expr(n.as<Slice>()->upper, d, "upper");
        return expr(n.as<Slice>()->step, d, "step");
      case K::Call:
        expr(n.as<Call>()->func, d, "func");
        exprs(n.as<Call>()->args, d, "arg");
        return keywords(n.as<Call>()->keywords, d);
      case K::Unary: return expr(n.as<Unary>()->operand, d, "operand");
      case K::Binary:
        expr(n.as<Binary>()->left, d, "left");
        return expr(n.as<Binary>()->right, d, "right");
      case K::BoolOp: return exprs(n.as<BoolOp>()->values, d, {});
      case K::Compare:
        expr(n.as<Compare>()->left, d, "left");
        return exprs(n.as<Compare>()->comparators, d, "right");
      case K::IfExp:
        expr(n.as<IfExp>()->test, d, "test");
        expr(n.as<IfExp>()->body, d, "body");
        return expr(n.as<IfExp>()->orelse, d, "orelse");
      case K::Lambda:
        params(n.as<Lambda>()->params, d);
        return expr(n.as<Lambda>()->body, d, "body");
      case K::Starred: return expr(n.as<Starred>()->value, d, "value");
      case K::Yield: return expr(n.as<Yield>()->value, d, "value");
      case K::ExprStmt: return expr(n.as<ExprStmt>()->value, d, "value");
      case K::Assign:
        exprs(n.as<Assign>()->targets, d, "target");
        return expr(n.as<Assign>()->value, d, "value");
      case K::AugAssign:
        expr(n.as<AugAssign>()->target, d, "target");
        return expr(n.as<AugAssign>()->value, d, "value");
      case K::AnnAssign:
        expr(n.as<AnnAssign>()->target, d, "target");
        expr(n.as<AnnAssign>()->annotation, d, "annotation");
        return expr(n.as<AnnAssign>()->value, d, "value");
      case K::If:
        expr(n.as<If>()->test, d, "test");
        block(n.as<If>()->body, d, "body");
        return block(n.as<If>()->orelse, d, "orelse");
      case K::For:
        expr(n.as<For>()->target, d, "target");
        expr(n.as<For>()->iter, d, "iter");
        block(n.as<For>()->body, d, "body");
        return block(n.as<For>()->orelse, d, "orelse");
      case K::While:
        expr(n.as<While>()->test, d, "test");
        block(n.as<While>()->body, d, "body");
        return block(n.as<While>()->orelse, d, "orelse");
      case K::Return: return expr(n.as<Return>()->value, d, "value");
      case K::Assert:
        expr(n.as<Assert>()->test, d, "test");
        return expr(n.as<Assert>()->msg, d, "msg");
      case K::Raise:
        expr(n.as<Raise>()->exc, d, "exc");
        return expr(n.as<Raise>()->cause, d, "cause");
      case K::FunctionDef: {
        const auto* f = n.as<FunctionDef>();
        exprs(f->decorators, d, "decorator");
        params(f->params, d);
        expr(f->returns, d, "returns");
        return block(f->body, d, "body");
      }
      case K::ClassDef: {
        const auto* c = n.as<ClassDef>();
        exprs(c->decorators, d, "decorator");
        exprs(c->bases, d, "base");
        keywords(c->keywords, d);
        return block(c->body, d, "body");
      }
      case K::With:
        for (const WithItem& item : n.as<With>()->items) {
          line(d, {}, "WithItem", item.range);
          expr(item.contextExpr, d + 1, "context");
          expr(item.optionalVars, d + 1, "as");
        }
        return block(n.as<With>()->body, d, "body");
      case K::Try: {
        const auto* t = n.as<Try>();
        block(t->body, d, "body");
        for (const ExceptHandler& h : t->handlers) {
          line(d, {}, h.name.empty() ? std::string("ExceptHandler") : "ExceptHandler as " + h.name, h.range);
          expr(h.type, d + 1, "type");
          block(h.body, d + 1, "body");
        }
        block(t->orelse, d, "orelse");
        return block(t->finalBody, d, "finally");
      }
      case K::Del: return exprs(n.as<Del>()->targets, d, "target");
      case K::Module:
        for (const StmtPtr& s : n.as<Module>()->body) node(*s, d);
        return;
      default: return;
    }
  }
};

}  // namespace

std::string AstPrinter::print(const Node& node) {
  Printer printer;
  printer.node(node, 0);
  return printer.out;
}

}  // namespace tilescope::lang
