#include "core/kernel/BuiltinRegistry.h"

#include "core/base/Suggest.h"

namespace tilescope::lang {

bool BoundArgs::given(const std::string& param) const {
  auto it = values_.find(param);
  return it != values_.end() && !it->second.first.isNone();
}

const Value& BoundArgs::get(const std::string& param) const {
  auto it = values_.find(param);
  if (it == values_.end()) throw InternalError("builtin " + name_ + ": argument '" + param + "' was not bound");
  return it->second.first;
}

SourceRange BoundArgs::range(const std::string& param) const {
  auto it = values_.find(param);
  return it == values_.end() ? callRange_ : it->second.second;
}

std::string BoundArgs::text(const std::string& param) const {
  auto it = values_.find(param);
  if (it == values_.end()) return {};
  std::string t(it->second.second.text());
  // For a keyword argument the range covers `name=value`; keep the value.
  if (auto eq = t.find('='); eq != std::string::npos && t.compare(0, param.size(), param) == 0) {
    t = t.substr(eq + 1);
    while (!t.empty() && t.front() == ' ') t.erase(t.begin());
  }
  return t;
}

void BoundArgs::set(const std::string& param, Value v, SourceRange r) { values_[param] = {std::move(v), r}; }

void BoundArgs::addRest(Value v, SourceRange r) {
  rest_.push_back(std::move(v));
  restRanges_.push_back(r);
}

const BuiltinRegistry& BuiltinRegistry::instance() {
  static const BuiltinRegistry registry;
  return registry;
}

BuiltinRegistry::BuiltinRegistry() {
  registerCreationBuiltins(*this);
  registerMemoryBuiltins(*this);
  registerBlockPointerBuiltins(*this);
  registerTensorDescriptorBuiltins(*this);
  registerMathBuiltins(*this);
  registerShapeBuiltins(*this);
  registerReorderBuiltins(*this);
  registerReduceBuiltins(*this);
  registerInlineAsmBuiltins(*this);
  registerDotScaledBuiltins(*this);
  registerDebugBuiltins(*this);
  registerPythonBuiltins(*this);
}

const BuiltinEntry* BuiltinRegistry::find(const std::string& name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<std::string> BuiltinRegistry::tlNames() const {
  std::vector<std::string> out;
  for (const auto& [name, e] : entries_)
    if (name.rfind("tl.", 0) == 0) out.push_back(name.substr(3));
  return out;
}

void BuiltinRegistry::add(const std::string& name, const std::string& signature, BuiltinHandler handler) {
  BuiltinEntry e;
  e.name = name;
  e.handler = std::move(handler);
  e.params = util::parseParameterList(signature);
  entries_[name] = std::move(e);
}

void BuiltinRegistry::addUnsupported(const std::string& name) {
  add(name, "*args", [name](ExprChecker& ec, const BoundArgs& a) -> Value {
    ec.error(a.callRange(), name + " is not supported by tilescope yet");
  });
  entries_[name].implemented = false;
}

BoundArgs BuiltinRegistry::bind(ExprChecker& ec, const BuiltinEntry& entry, const CallArgs& args) {
  const util::ArgumentBinding binding = bindCallArgs(ec.ctx(), entry.name, entry.params, args);
  BoundArgs bound(entry.name, args.range);
  for (size_t i = 0; i < entry.params.size(); ++i) {
    const util::ArgumentSource& source = binding.sources()[i];
    if (source.from == util::ArgumentSource::From::Positional)
      bound.set(entry.params[i].name, args.args[source.index], args.argRanges[source.index]);
    else if (source.from == util::ArgumentSource::From::Keyword)
      bound.set(entry.params[i].name, args.kwargs[source.index].second, args.kwargRanges[source.index]);
  }
  for (size_t j : binding.packedPositional()) bound.addRest(args.args[j], args.argRanges[j]);
  return bound;
}

namespace builtin {

ir::Expr tensorArg(ExprChecker& ec, const BoundArgs& a, const std::string& param) {
  return ec.tensorOf(a.get(param), a.range(param), a.name() + "'s argument '" + param + "'");
}

ir::Expr tileArg(ExprChecker& ec, const BoundArgs& a, const std::string& param) {
  ir::Expr e = tensorArg(ec, a, param);
  if (e.type().isScalar())
    ec.error(a.range(param), a.name() + " needs a tensor for '" + param + "', got the scalar " + e.type().str());
  return e;
}

std::optional<int> rootParameter(const CheckContext& ctx, const ir::Expr& start) {
  ir::Expr e = start;
  for (int depth = 0; depth < 64 && e; ++depth) {
    switch (e.kind()) {
      case ir::ExprKind::ParamRef: return e.as<ir::ParamRef>()->index;
      case ir::ExprKind::VarRef: {
        auto it = ctx.letValues.find(e.as<ir::VarRef>()->var.get());
        if (it == ctx.letValues.end()) return std::nullopt;
        e = it->second;
        break;
      }
      case ir::ExprKind::Splat: e = e.as<ir::Splat>()->value; break;
      case ir::ExprKind::Broadcast: e = e.as<ir::Broadcast>()->value; break;
      case ir::ExprKind::ExpandDims: e = e.as<ir::ExpandDims>()->value; break;
      case ir::ExprKind::Binary: {
        const auto& b = *e.as<ir::Binary>();
        if (b.op != ir::BinaryOp::Add && b.op != ir::BinaryOp::Sub) return std::nullopt;
        // The left-most term of `ptr + offsets`; for `offsets + ptr` the pointer would already be
        // typed as one, so no inference is needed there.
        e = b.a;
        break;
      }
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string describeArg(const BoundArgs& a, const std::string& param) {
  const Value& v = a.get(param);
  const std::string text = a.text(param);
  std::string what;
  if (v.isTensor()) what = v.expr.type().str();
  else if (v.isConst()) what = "the constexpr " + v.constant.repr();
  else what = v.describe();
  return "'" + text + "' is " + what;
}

}  // namespace builtin

}  // namespace tilescope::lang
