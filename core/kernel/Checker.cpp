#include "core/kernel/Checker.h"

#include <functional>
#include <map>
#include <set>

#include "core/ir/IRVerifier.h"
#include "core/kernel/FunctionChecker.h"
#include "core/base/Suggest.h"

namespace tilescope::lang {

bool isConstexprParam(const Param& p) {
  const Expr* a = p.annotation.get();
  if (!a) return false;
  if (const auto* s = a->as<StringLiteral>()) return s->value.size() >= 9 && s->value.substr(s->value.size() - 9) == "constexpr";
  if (const auto* at = a->as<Attribute>()) return at->attr == "constexpr";
  if (const auto* n = a->as<Name>()) return n->id == "constexpr";
  return false;
}

namespace {

// Binds the launch's arguments to the kernel's parameters and fills the checker's scope.
void bindParameters(CheckContext& ctx, FunctionChecker& fc, const FunctionDef& def, const Specialization& spec) {
  std::vector<const Param*> params;
  for (const Param& p : def.params.params) {
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword)
      ctx.error(p.range, "kernel '" + def.name + "' uses *args or **kwargs, which Triton kernels cannot have");
    params.push_back(&p);
  }
  std::vector<std::string_view> keywords;
  for (const auto& kw : spec.kwargs) keywords.emplace_back(kw.first);
  const util::ArgumentBinding binding =
      util::ArgumentBinding::bind(def.name, def.params.bindingShape(), spec.args.size(), keywords);
  if (!binding.ok()) ctx.error(def.nameRange, bindingMessage(binding.error()));
  std::vector<std::optional<ArgSpec>> bound(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const util::ArgumentSource& source = binding.sources()[i];
    if (source.from == util::ArgumentSource::From::Positional) bound[i] = spec.args[source.index];
    if (source.from == util::ArgumentSource::From::Keyword) bound[i] = spec.kwargs[source.index].second;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = *params[i];
    const bool isConstexpr = isConstexprParam(p);
    ir::KernelParam kp;
    kp.name = p.name;
    kp.range = p.nameRange;
    Value v;
    if (!bound[i]) {  // the binder checked that it has a default
      v = fc.exprs().check(*p.defaultValue);
      if (!v.isConst()) ctx.error(p.defaultValue->range, "the default of '" + p.name + "' must be a constant");
      bound[i] = ArgSpec::constexprValue(v.constant);
    }
    const ArgSpec& arg = *bound[i];
    switch (arg.kind) {
      case ArgSpec::Kind::Constexpr:
        kp.isConstexpr = true;
        kp.value = arg.value.toIR();
        v = Value::ofConst(arg.value);
        if (arg.scalarValue && !isConstexpr) v = Value::ofTensor(fc.exprs().tensorAs(v, ir::DType::I32, p.nameRange, p.name));
        break;
      case ArgSpec::Kind::Pointer:
      case ArgSpec::Kind::Scalar: {
        if (isConstexpr)
          ctx.error(p.nameRange, "'" + p.name + "' is tl.constexpr, but the launch passes a runtime " + arg.str() +
                                     "; pass a Python constant for it");
        kp.type = arg.kind == ArgSpec::Kind::Pointer ? ir::Type::pointer(arg.dtype) : ir::Type::scalar(arg.dtype);
        kp.divisibleBy16 = arg.divisibleBy16;
        v = Value::ofTensor(ir::ParamRef::make(static_cast<int>(i), p.name, kp.type, p.nameRange));
        break;
      }
    }
    ctx.params.push_back(kp);
    // Parameters specialized to constants behave as constexprs, but only annotated ones are
    // protected from reassignment (Triton lets a kernel rebind a plain parameter).
    fc.scope().bind(p.name, v, p.nameRange, isConstexpr);
  }
}

}  // namespace

ArgSpec ArgSpec::pointer(ir::DType pointee, bool divisibleBy16) {
  ArgSpec a;
  a.kind = Kind::Pointer;
  a.dtype = pointee;
  a.divisibleBy16 = divisibleBy16;
  return a;
}

ArgSpec ArgSpec::scalar(ir::DType t, bool divisibleBy16) {
  ArgSpec a;
  a.kind = Kind::Scalar;
  a.dtype = t;
  a.divisibleBy16 = divisibleBy16;
  return a;
}

ArgSpec ArgSpec::constexprValue(ConstValue v) {
  ArgSpec a;
  a.kind = Kind::Constexpr;
  a.value = std::move(v);
  return a;
}

ArgSpec ArgSpec::unitInt() {
  ArgSpec a = constexprValue(ConstValue::integer(1));
  a.scalarValue = true;
  return a;
}

ArgSpec ArgSpec::fromInt(int64_t v) {
  const bool fits32 = v >= -2147483648LL && v <= 2147483647LL;
  return scalar(fits32 ? ir::DType::I32 : ir::DType::I64, v % 16 == 0);
}

std::string ArgSpec::str() const {
  switch (kind) {
    case Kind::Pointer: return "*" + std::string(ir::dtypeName(dtype));
    case Kind::Scalar: return std::string(ir::dtypeName(dtype));
    case Kind::Constexpr: return (scalarValue ? "i32=" : "constexpr=") + value.repr();
  }
  return "?";
}

CheckResult checkKernel(const Program& program, std::string_view kernelName, const Specialization& spec) {
  const JitFunctionInfo* info = program.findJitFunction(std::string(kernelName));
  if (!info) {
    CheckResult r;
    std::vector<std::string> names;
    for (const JitFunctionInfo& j : program.jitFunctions()) names.push_back(j.name);
    std::string msg = "no @triton.jit function named '" + std::string(kernelName) + "'";
    if (auto s = closestMatch(kernelName, names)) msg += "; did you mean '" + *s + "'?";
    r.diagnostics.add(Diagnostic::error({}, msg));
    return r;
  }
  return checkKernel(program, *info, spec);
}

CheckResult checkKernel(const Program& program, const JitFunctionInfo& function, const Specialization& spec) {
  CheckResult result;
  CheckContext ctx(program, result.diagnostics);
  const FunctionDef& def = *function.def;
  try {
    ctx.emitter.pushBlock();
    FunctionChecker fc(ctx, FunctionChecker::Mode::Kernel, def);
    bindParameters(ctx, fc, def, spec);
    fc.run();
    auto kernel = std::make_shared<ir::Kernel>();
    kernel->name = def.name;
    kernel->params = std::move(ctx.params);
    kernel->body = ctx.emitter.popBlock(def.range);
    kernel->options = spec.options;
    kernel->sources = ctx.sources;
    kernel->varCount = ctx.emitter.varCount();
    ir::verifyInDebug(*kernel, "the checker");
    result.kernel = std::move(kernel);
  } catch (const CompileError& e) {
    result.diagnostics.add(e.diagnostic());
    result.pointerDemand = ctx.pointerDemand;
  }
  return result;
}

std::vector<const JitFunctionInfo*> kernelRoots(const Program& program) {
  // Names called from inside jit functions; a jit function never called that way is a kernel.
  std::set<std::string> called;
  for (const JitFunctionInfo& j : program.jitFunctions()) {
    std::function<void(const Node&)> walk = [&](const Node& n) {
      if (const auto* call = n.as<Call>()) {
        if (const auto* name = call->func->as<Name>(); name && name->id != j.name) called.insert(name->id);
      }
      forEachChild(n, walk);
    };
    for (const StmtPtr& s : j.def->body) walk(*s);
  }
  // A function that returns a value is a helper even when nothing calls it.
  auto returnsValue = [](const FunctionDef& def) {
    bool found = false;
    std::function<void(const Node&)> walk = [&](const Node& n) {
      if (const auto* r = n.as<Return>(); r && r->value && !r->value->is<NoneLiteral>()) found = true;
      if (!n.is<FunctionDef>() || &n == &def) forEachChild(n, walk);
    };
    walk(def);
    return found;
  };
  std::vector<const JitFunctionInfo*> roots;
  for (const JitFunctionInfo& j : program.jitFunctions())
    if (!called.count(j.name) && !returnsValue(*j.def)) roots.push_back(&j);
  return roots;
}

}  // namespace tilescope::lang
