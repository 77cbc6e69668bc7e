#include "core/lang/Checker.h"

#include <functional>
#include <map>
#include <set>

#include "core/ir/IRVerifier.h"
#include "core/lang/FunctionChecker.h"
#include "core/lang/Suggest.h"

namespace tilescope::lang {

namespace {

constexpr int64_t kPlaceholderConstexpr = 16;

bool annotatedConstexpr(const Param& p) {
  const Expr* a = p.annotation.get();
  if (!a) return false;
  if (const auto* s = a->as<StringLiteral>()) return s->value.size() >= 9 && s->value.substr(s->value.size() - 9) == "constexpr";
  if (const auto* at = a->as<Attribute>()) return at->attr == "constexpr";
  if (const auto* n = a->as<Name>()) return n->id == "constexpr";
  return false;
}

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

// Binds the launch's arguments to the kernel's parameters and fills the checker's scope.
void bindParameters(CheckContext& ctx, FunctionChecker& fc, const FunctionDef& def, const Specialization& spec) {
  const std::string who = "kernel '" + def.name + "'";
  std::vector<const Param*> params;
  for (const Param& p : def.params.params) {
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword)
      ctx.error(p.range, who + " uses *args or **kwargs, which Triton kernels cannot have");
    params.push_back(&p);
  }
  if (spec.args.size() > params.size())
    ctx.error(def.nameRange, who + " takes " + plural(params.size(), "argument") + " but " + std::to_string(spec.args.size()) +
                                 " were given");
  std::vector<std::optional<ArgSpec>> bound(params.size());
  for (size_t i = 0; i < spec.args.size(); ++i) bound[i] = spec.args[i];
  for (const auto& [name, arg] : spec.kwargs) {
    size_t idx = params.size();
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i]->name == name) idx = i;
    if (idx == params.size()) {
      std::vector<std::string> names;
      for (const Param* p : params) names.push_back(p->name);
      std::string msg = who + " got an unexpected keyword argument '" + name + "'";
      if (auto s = closestMatch(name, names)) msg += "; did you mean '" + *s + "'?";
      ctx.error(def.nameRange, msg);
    }
    if (bound[idx]) ctx.error(def.nameRange, who + " got multiple values for argument '" + name + "'");
    bound[idx] = arg;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = *params[i];
    const bool isConstexpr = annotatedConstexpr(p);
    ir::KernelParam kp;
    kp.name = p.name;
    kp.range = p.nameRange;
    Value v;
    if (!bound[i]) {
      if (!p.defaultValue) {
        std::vector<std::string> missing;
        for (size_t j = i; j < params.size(); ++j)
          if (!bound[j] && !params[j]->defaultValue) missing.push_back("'" + params[j]->name + "'");
        std::string list;
        for (size_t j = 0; j < missing.size(); ++j) list += (j ? ", " : "") + missing[j];
        ctx.error(def.nameRange, who + " is missing " + plural(missing.size(), "argument") + ": " + list);
      }
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

// A first guess at which parameters are pointers, from the syntax: the left-most name of the
// pointer argument of tl.load/store/atomics (following local `p = ... ` / `p += ...` chains) and
// names whose `.dtype.element_ty` is read. checkAllKernels corrects a wrong guess by re-checking.
std::set<std::string> guessPointerParams(const FunctionDef& def) {
  std::map<std::string, std::vector<const Expr*>> assigned;
  std::set<std::string> params, found;
  for (const Param& p : def.params.params) params.insert(p.name);
  std::vector<const Expr*> pointerArgs;
  std::function<void(const Node&)> walk = [&](const Node& n) {
    if (const auto* a = n.as<Assign>()) {
      for (const ExprPtr& t : a->targets)
        if (const auto* name = t->as<Name>()) assigned[name->id].push_back(a->value.get());
    } else if (const auto* aug = n.as<AugAssign>()) {
      if (const auto* name = aug->target->as<Name>()) assigned[name->id].push_back(aug->target.get());
    } else if (const auto* call = n.as<Call>()) {
      if (const auto* attr = call->func->as<Attribute>()) {
        const std::string& f = attr->attr;
        if (f == "load" || f == "store" || f.rfind("atomic_", 0) == 0) {
          if (!call->args.empty()) pointerArgs.push_back(call->args[0].get());
          if (const Keyword* k = call->keyword("pointer")) pointerArgs.push_back(k->value.get());
        }
      }
    } else if (const auto* attr = n.as<Attribute>(); attr && attr->attr == "element_ty") {
      if (const auto* inner = attr->value->as<Attribute>(); inner && inner->attr == "dtype") pointerArgs.push_back(inner->value.get());
    }
    forEachChild(n, walk);
  };
  for (const StmtPtr& s : def.body) walk(*s);
  std::function<void(const Expr*, int)> leftmost = [&](const Expr* e, int depth) {
    if (!e || depth > 16) return;
    if (const auto* b = e->as<Binary>(); b && (b->op == BinaryOp::Add || b->op == BinaryOp::Sub)) return leftmost(b->left.get(), depth + 1);
    if (const auto* sub = e->as<Subscript>()) return leftmost(sub->value.get(), depth + 1);
    const auto* name = e->as<Name>();
    if (!name) return;
    if (params.count(name->id)) found.insert(name->id);
    for (const Expr* def2 : assigned[name->id])
      if (def2 != e) leftmost(def2, depth + 1);
  };
  for (const Expr* e : pointerArgs) leftmost(e, 0);
  return found;
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

DiagnosticList checkAllKernels(const Program& program, const std::map<std::string, ConstValue>& constexprs) {
  DiagnosticList all;
  for (const JitFunctionInfo* fn : kernelRoots(program)) {
    const FunctionDef& def = *fn->def;
    Specialization spec;
    std::vector<std::string> placeholders;
    std::vector<size_t> runtimeParams;  // indices into spec.args that are scalars/pointers
    const std::set<std::string> guessed = guessPointerParams(def);
    for (const Param& p : def.params.params) {
      if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword) continue;
      if (auto it = constexprs.find(p.name); it != constexprs.end()) {
        spec.args.push_back(ArgSpec::constexprValue(it->second));
        continue;
      }
      if (annotatedConstexpr(p)) {
        std::optional<ConstValue> value;
        if (!fn->autotuneConfigs.empty())
          for (const auto& [name, v] : fn->autotuneConfigs.front().values)
            if (name == p.name) value = v;
        for (const std::string& h : fn->heuristicNames)
          if (!value && h == p.name) value = ConstValue::integer(kPlaceholderConstexpr);
        if (!value && !p.defaultValue) {
          value = ConstValue::integer(kPlaceholderConstexpr);
          placeholders.push_back(p.name);
        }
        if (value) {
          spec.args.push_back(ArgSpec::constexprValue(*value));
          continue;
        }
      }
      if (p.defaultValue) break;  // the rest keep their defaults
      runtimeParams.push_back(spec.args.size());
      spec.args.push_back(guessed.count(p.name) ? ArgSpec::pointer(ir::DType::FP32) : ArgSpec::scalar(ir::DType::I32));
    }
    if (!fn->autotuneConfigs.empty()) spec.options = fn->autotuneConfigs.front().options;
    CheckResult r = checkKernel(program, *fn, spec);
    // Each failure on a scalar used as a pointer turns that parameter into *fp32 and tries again.
    for (size_t attempt = 0; !r.ok() && r.pointerDemand && attempt <= runtimeParams.size(); ++attempt) {
      const size_t idx = static_cast<size_t>(*r.pointerDemand);
      if (idx >= spec.args.size() || spec.args[idx].kind != ArgSpec::Kind::Scalar) break;
      spec.args[idx] = ArgSpec::pointer(ir::DType::FP32);
      r = checkKernel(program, *fn, spec);
    }
    for (const Diagnostic& d : r.diagnostics.items()) {
      Diagnostic copy = d;
      if (!r.ok() && !placeholders.empty() && copy.severity == Severity::Error) {
        std::string names;
        for (size_t i = 0; i < placeholders.size(); ++i) names += (i ? ", " : "") + placeholders[i];
        copy.withNote(def.nameRange, "'" + def.name + "' was checked with " + names + " = " + std::to_string(kPlaceholderConstexpr) +
                                         " because no value was given; pass -D NAME=VALUE to check another value");
      }
      all.add(std::move(copy));
    }
  }
  return all;
}

}  // namespace tilescope::lang
