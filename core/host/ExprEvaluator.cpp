#include "core/host/ExprEvaluator.h"

#include <functional>

#include "core/host/Containers.h"
#include "core/host/Function.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"
#include "core/host/Scope.h"

namespace tilescope::host {

namespace {

std::string unsupported(const lang::Expr& e) {
  return std::string(e.kindName()) + " expressions are not supported by tilescope's host interpreter (see docs/HOST_LANGUAGE.md)";
}

}  // namespace

Value ExprEvaluator::lookupName(Interpreter& in, const std::string& name, const std::shared_ptr<Scope>& scope) {
  if (Value* v = scope->find(name)) return *v;
  if (Value* v = in.lookupBuiltin(name)) return *v;
  throw PyError("NameError", "name '" + name + "' is not defined");
}

Value ExprEvaluator::eval(Interpreter& in, const lang::Expr& e, const std::shared_ptr<Scope>& scope) {
  using K = lang::Node::Kind;
  switch (e.kind()) {
    case K::Name: return lookupName(in, lang::cast<lang::Name>(&e)->id, scope);
    case K::IntLiteral: {
      const auto& lit = *lang::cast<lang::IntLiteral>(&e);
      if (!lit.value) throw PyError("OverflowError", "integer literal " + lit.text + " does not fit in 64 bits (tilescope's Python ints are 64-bit)");
      return Value::integer(*lit.value);
    }
    case K::FloatLiteral: return Value::real(lang::cast<lang::FloatLiteral>(&e)->value);
    case K::StringLiteral: {
      const auto& lit = *lang::cast<lang::StringLiteral>(&e);
      if (lit.isBytes) throw PyError("TypeError", "bytes literals are not supported by tilescope's host interpreter");
      return makeStr(lit.value);
    }
    case K::FString: return makeStr(fstring(in, lang::cast<lang::FString>(&e)->parts, scope));
    case K::BoolLiteral: return Value::boolean(lang::cast<lang::BoolLiteral>(&e)->value);
    case K::NoneLiteral: return Value();
    case K::Ellipsis: return *in.lookupBuiltin("Ellipsis");
    case K::Tuple: return makeTuple(elements(in, lang::cast<lang::Tuple>(&e)->elements, scope));
    case K::List: return makeList(elements(in, lang::cast<lang::List>(&e)->elements, scope));
    case K::Dict: {
      auto dict = std::make_shared<DictObject>();
      for (const lang::DictItem& item : lang::cast<lang::Dict>(&e)->items) {
        const Value v = eval(in, *item.value, scope);
        if (!item.key) {
          auto* other = v.as<DictObject>();
          if (!other) throwTypeError("'" + v.typeName() + "' object is not a mapping");
          for (auto& [k, val] : other->entries()) dict->set(in, k, val);
          continue;
        }
        dict->set(in, eval(in, *item.key, scope), v);
      }
      return Value(dict);
    }
    case K::ListComp: {
      const auto& c = *lang::cast<lang::ListComp>(&e);
      return makeList(comprehension(in, c.element.get(), nullptr, c.generators, scope, nullptr));
    }
    case K::GeneratorExp: {
      // Generators are evaluated eagerly: host code only passes them to sum/any/all/list/....
      const auto& c = *lang::cast<lang::GeneratorExp>(&e);
      return makeList(comprehension(in, c.element.get(), nullptr, c.generators, scope, nullptr));
    }
    case K::DictComp: {
      const auto& c = *lang::cast<lang::DictComp>(&e);
      ValueList values;
      ValueList keys = comprehension(in, c.key.get(), c.value.get(), c.generators, scope, &values);
      auto dict = std::make_shared<DictObject>();
      for (size_t i = 0; i < keys.size(); ++i) dict->set(in, keys[i], values[i]);
      return Value(dict);
    }
    case K::Attribute: {
      const auto& a = *lang::cast<lang::Attribute>(&e);
      return in.getAttr(eval(in, *a.value, scope), a.attr);
    }
    case K::Subscript: {
      const auto& s = *lang::cast<lang::Subscript>(&e);
      const Value object = eval(in, *s.value, scope);
      return in.getItem(object, eval(in, *s.index, scope));
    }
    case K::Slice: {
      const auto& s = *lang::cast<lang::Slice>(&e);
      return makeObject<SliceObject>(s.lower ? eval(in, *s.lower, scope) : Value(), s.upper ? eval(in, *s.upper, scope) : Value(),
                                     s.step ? eval(in, *s.step, scope) : Value());
    }
    case K::Call: return call(in, *lang::cast<lang::Call>(&e), scope);
    case K::Unary: {
      const auto& u = *lang::cast<lang::Unary>(&e);
      return in.unary(u.op, eval(in, *u.operand, scope));
    }
    case K::Binary: {
      const auto& b = *lang::cast<lang::Binary>(&e);
      const Value left = eval(in, *b.left, scope);
      const Value right = eval(in, *b.right, scope);
      return in.binary(toBinOp(b.op), left, right);
    }
    case K::BoolOp: {
      const auto& b = *lang::cast<lang::BoolOp>(&e);
      Value v;
      for (const lang::ExprPtr& operand : b.values) {
        v = eval(in, *operand, scope);
        const bool t = in.truthy(v);
        if (b.op == lang::BoolOpKind::And ? !t : t) return v;
      }
      return v;
    }
    case K::Compare: return compare(in, *lang::cast<lang::Compare>(&e), scope);
    case K::IfExp: {
      const auto& c = *lang::cast<lang::IfExp>(&e);
      return eval(in, in.truthy(eval(in, *c.test, scope)) ? *c.body : *c.orelse, scope);
    }
    case K::Lambda: {
      const auto& l = *lang::cast<lang::Lambda>(&e);
      auto fn = std::make_shared<FunctionObject>();
      fn->name = "<lambda>";
      fn->lambda = &l;
      fn->module = in.currentModule();
      fn->closure = scope;
      in.noteCapturedScope(scope);
      fn->signature = signatureOf(in, "<lambda>", l.params, scope);
      return Value(fn);
    }
    case K::Starred: throw PyError("SyntaxError", "can't use starred expression here");
    case K::Yield: throw PyError("SyntaxError", "generators (yield) are not supported by tilescope's host interpreter");
    case K::Set:
    case K::SetComp: throw PyError("TypeError", "sets are not supported by tilescope's host interpreter; use a list or dict");
    default: break;
  }
  throw PyError("SyntaxError", unsupported(e));
}

ValueList ExprEvaluator::elements(Interpreter& in, const lang::ExprList& list, const std::shared_ptr<Scope>& scope) {
  ValueList out;
  out.reserve(list.size());
  for (const lang::ExprPtr& item : list) {
    if (const auto* star = item->as<lang::Starred>()) {
      ValueList more = in.toList(eval(in, *star->value, scope));
      out.insert(out.end(), more.begin(), more.end());
    } else {
      out.push_back(eval(in, *item, scope));
    }
  }
  return out;
}

Value ExprEvaluator::call(Interpreter& in, const lang::Call& c, const std::shared_ptr<Scope>& scope) {
  const Value callee = eval(in, *c.func, scope);
  CallArgs args;
  args.positional = elements(in, c.args, scope);
  for (const lang::Keyword& kw : c.keywords) {
    const Value v = eval(in, *kw.value, scope);
    if (!kw.isDoubleStar()) {
      args.keywords.emplace_back(kw.arg, v);
      continue;
    }
    auto* dict = v.as<DictObject>();
    if (!dict) throwTypeError("argument after ** must be a mapping, not " + v.typeName());
    for (auto& [k, val] : dict->entries()) {
      auto* key = k.as<StrObject>();
      if (!key) throwTypeError("keywords must be strings");
      if (args.keyword(key->value)) throwTypeError("got multiple values for keyword argument '" + key->value + "'");
      args.keywords.emplace_back(key->value, val);
    }
  }
  // The traceback of an error inside the call points at the call.
  in.setLocation(c.range);
  return in.call(callee, args);
}

Value ExprEvaluator::compare(Interpreter& in, const lang::Compare& c, const std::shared_ptr<Scope>& scope) {
  Value left = eval(in, *c.left, scope);
  Value result = Value::boolean(true);
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const Value right = eval(in, *c.comparators[i], scope);
    switch (c.ops[i]) {
      case lang::CompareOp::Eq: result = in.compare(CmpOp::Eq, left, right); break;
      case lang::CompareOp::NotEq: result = in.compare(CmpOp::Ne, left, right); break;
      case lang::CompareOp::Lt: result = in.compare(CmpOp::Lt, left, right); break;
      case lang::CompareOp::LtE: result = in.compare(CmpOp::Le, left, right); break;
      case lang::CompareOp::Gt: result = in.compare(CmpOp::Gt, left, right); break;
      case lang::CompareOp::GtE: result = in.compare(CmpOp::Ge, left, right); break;
      case lang::CompareOp::Is: result = Value::boolean(left.identical(right)); break;
      case lang::CompareOp::IsNot: result = Value::boolean(!left.identical(right)); break;
      case lang::CompareOp::In: result = Value::boolean(in.contains(right, left)); break;
      case lang::CompareOp::NotIn: result = Value::boolean(!in.contains(right, left)); break;
    }
    // Chains (a < b < c) stop at the first false link; a single comparison returns its value as is
    // (a tensor for tensor comparisons).
    if (c.ops.size() > 1 && !in.truthy(result)) return result;
    left = right;
  }
  return result;
}

ValueList ExprEvaluator::comprehension(Interpreter& in, const lang::Expr* element, const lang::Expr* value,
                                       const std::vector<lang::Comprehension>& generators,
                                       const std::shared_ptr<Scope>& scope, ValueList* values) {
  // Python 3 comprehensions have their own scope for the loop variables.
  auto inner = std::make_shared<Scope>(scope);
  ValueList out;
  std::function<void(size_t)> loop = [&](size_t level) {
    if (level == generators.size()) {
      out.push_back(eval(in, *element, inner));
      if (values) values->push_back(eval(in, *value, inner));
      return;
    }
    const lang::Comprehension& g = generators[level];
    std::unique_ptr<Iterator> it = in.iterate(eval(in, *g.iter, level == 0 ? scope : inner));
    Value item;
    while (it->next(item)) {
      in.checkCancelled();
      in.assign(*g.target, item, inner);
      bool keep = true;
      for (const lang::ExprPtr& cond : g.ifs) {
        if (!in.truthy(eval(in, *cond, inner))) {
          keep = false;
          break;
        }
      }
      if (keep) loop(level + 1);
    }
  };
  loop(0);
  return out;
}

Signature ExprEvaluator::signatureOf(Interpreter& in, const std::string& name, const lang::Parameters& params,
                                     const std::shared_ptr<Scope>& scope) {
  std::vector<ParamSpec> specs;
  for (const lang::Param& p : params.params) {
    ParamSpec s;
    s.name = p.name;
    s.kind = p.kind;
    if (p.defaultValue) s.defaultValue = eval(in, *p.defaultValue, scope);
    specs.push_back(std::move(s));
  }
  return Signature(name, std::move(specs));
}

std::string ExprEvaluator::fstring(Interpreter& in, const std::vector<lang::FStringPart>& parts,
                                   const std::shared_ptr<Scope>& scope) {
  std::string out;
  for (const lang::FStringPart& part : parts) {
    if (part.kind == lang::FStringPart::Kind::Literal) {
      out += part.text;
      continue;
    }
    Value v = eval(in, *part.expr, scope);
    if (part.selfDocumenting) out += std::string(part.expr->range.text()) + "=";
    const std::string spec = part.hasFormatSpec ? fstring(in, part.formatSpec, scope) : std::string();
    char conversion = part.conversion;
    // `{x=}` without a conversion or spec shows the repr, like Python.
    if (part.selfDocumenting && !conversion && !part.hasFormatSpec) conversion = 'r';
    if (conversion == 'r' || conversion == 'a') v = makeStr(in.repr(v));
    else if (conversion == 's') v = makeStr(in.str(v));
    out += in.format(v, spec);
  }
  return out;
}

}  // namespace tilescope::host
