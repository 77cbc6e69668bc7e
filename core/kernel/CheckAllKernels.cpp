// checkAllKernels (declared in Checker.h): `tilescope-cli check`'s view of a whole program. Each
// kernel is checked with the argument types of the launches the program writes; where a type is
// unknown, the types a launch could pass are tried, so that only errors that do not depend on them
// are reported (a kernel reading int32 indices through a pointer is no error just because fp32 was
// the first guess).
#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "core/kernel/Checker.h"
#include "core/kernel/LaunchSites.h"

namespace tilescope::lang {
namespace {

constexpr int64_t kPlaceholderConstexpr = 16;
// Checks spent per specialization on trying types for unknown parameters (each takes well under a
// millisecond for a tutorial-sized kernel).
constexpr int kSearchBudget = 200;
// What a launch may pass for a pointer or a scalar, the most common first.
constexpr ir::DType kPointerTypes[] = {ir::DType::FP32, ir::DType::I32, ir::DType::I64, ir::DType::FP16, ir::DType::BF16,
                                       ir::DType::I8,   ir::DType::U8,  ir::DType::I1,  ir::DType::FP64};
constexpr ir::DType kScalarTypes[] = {ir::DType::I32, ir::DType::FP32, ir::DType::I64};

// A first guess at which parameters are pointers, from the syntax: the left-most name of the
// pointer argument of tl.load/store/atomics (following local `p = ... ` / `p += ...` chains) and
// names whose `.dtype.element_ty` is read. The search corrects a wrong guess by re-checking.
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

const Diagnostic* firstError(const DiagnosticList& list) {
  for (const Diagnostic& d : list.items())
    if (d.severity == Severity::Error) return &d;
  return nullptr;
}

// Whether `a` failed further into the kernel than `b`: checking stops at the first error, in order.
bool failsLater(const CheckResult& a, const CheckResult& b) {
  const Diagnostic* da = firstError(a.diagnostics);
  const Diagnostic* db = firstError(b.diagnostics);
  if (!da || !db) return da == nullptr;
  if (da->range.file != db->range.file) return da->headline() != db->headline();
  return da->range.begin > db->range.begin;
}

// The parameters of one check: bound[i] is parameter i's argument (nullopt: its default).
struct Binding {
  std::vector<std::optional<ArgSpec>> bound;
  std::vector<std::string> names;
  std::vector<size_t> unknown;  // parameters whose type no launch shows
  std::vector<std::string> placeholders;
  ir::KernelOptions options;

  Specialization spec() const {
    Specialization s;
    s.options = options;
    size_t i = 0;
    for (; i < bound.size() && bound[i]; ++i) s.args.push_back(*bound[i]);
    for (; i < bound.size(); ++i)
      if (bound[i]) s.kwargs.emplace_back(names[i], *bound[i]);
    return s;
  }
  bool isUnknown(size_t i) const { return std::find(unknown.begin(), unknown.end(), i) != unknown.end(); }
};

// Checks a binding; where its unknown parameters make the kernel fail, tries the types a launch
// could pass for them one parameter at a time, keeping the change that gets the check furthest.
// Returns the diagnostics to report: an error only when no type tried avoids it.
DiagnosticList checkWithUnknowns(const Program& program, const JitFunctionInfo& fn, Binding b) {
  int budget = kSearchBudget;
  auto run = [&](const Binding& trial) {
    --budget;
    return checkKernel(program, fn, trial.spec());
  };
  CheckResult r = run(b);
  // A scalar the kernel uses as a pointer becomes a pointer (of the most common element type).
  auto followPointerDemands = [&] {
    while (!r.ok() && r.pointerDemand && budget > 0) {
      const auto idx = static_cast<size_t>(*r.pointerDemand);
      if (idx >= b.bound.size() || !b.isUnknown(idx) || !b.bound[idx] || b.bound[idx]->kind != ArgSpec::Kind::Scalar) return;
      b.bound[idx] = ArgSpec::pointer(ir::DType::FP32);
      r = run(b);
    }
  };
  followPointerDemands();
  if (r.ok() || b.unknown.empty()) return r.diagnostics;

  // Greedy: each round tries every other type for each unsettled unknown parameter, and for all
  // unsettled pointers at once (an offset may add two loaded values), and keeps the change that
  // gets the check furthest; a clean check ends the search.
  std::set<size_t> settled;
  auto withType = [](const ArgSpec& current, ir::DType t) {
    return current.kind == ArgSpec::Kind::Pointer ? ArgSpec::pointer(t) : ArgSpec::scalar(t);
  };
  while (!r.ok() && budget > 0 && settled.size() < b.unknown.size()) {
    std::vector<Binding> trials;
    std::vector<size_t> open;
    for (size_t idx : b.unknown)
      if (!settled.count(idx) && b.bound[idx]) open.push_back(idx);
    for (size_t idx : open) {
      const bool pointer = b.bound[idx]->kind == ArgSpec::Kind::Pointer;
      for (ir::DType t : pointer ? std::vector<ir::DType>(std::begin(kPointerTypes), std::end(kPointerTypes))
                                 : std::vector<ir::DType>(std::begin(kScalarTypes), std::end(kScalarTypes))) {
        if (t == b.bound[idx]->dtype) continue;
        Binding trial = b;
        trial.bound[idx] = withType(*b.bound[idx], t);
        trials.push_back(std::move(trial));
      }
    }
    for (ir::DType t : kPointerTypes) {
      Binding trial = b;
      int changed = 0;
      for (size_t idx : open)
        if (trial.bound[idx]->kind == ArgSpec::Kind::Pointer && trial.bound[idx]->dtype != t) {
          trial.bound[idx] = ArgSpec::pointer(t);
          ++changed;
        }
      if (changed >= 2) trials.push_back(std::move(trial));
    }
    std::optional<Binding> best;
    CheckResult bestResult;
    for (Binding& trial : trials) {
      if (budget <= 0) break;
      CheckResult tr = run(trial);
      if (tr.ok()) return tr.diagnostics;
      if (failsLater(tr, r) && (!best || failsLater(tr, bestResult))) {
        best = std::move(trial);
        bestResult = std::move(tr);
      }
    }
    if (!best) break;
    for (size_t idx : open)
      if (best->bound[idx]->str() != b.bound[idx]->str()) settled.insert(idx);
    b = std::move(*best);
    r = std::move(bestResult);
    followPointerDemands();
  }
  // No type tried for the unknown parameters gets past this error: report it.
  return r.diagnostics;
}

// The argument a launch passes, as the launcher would specialize it (KernelLauncher::prepare).
std::optional<ArgSpec> argFromLaunch(const LaunchArg& a, bool constexprParam) {
  using K = LaunchArg::Kind;
  if (constexprParam || a.kind == K::Constant) {
    if (a.value) return ArgSpec::constexprValue(*a.value);
    return std::nullopt;
  }
  switch (a.kind) {
    case K::Tensor: return a.dtype ? std::optional<ArgSpec>(ArgSpec::pointer(*a.dtype)) : std::nullopt;
    case K::Int:
      if (a.value && a.value->toInt() == 1) return ArgSpec::unitInt();
      return a.value ? ArgSpec::fromInt(a.value->toInt()) : ArgSpec::scalar(ir::DType::I32);
    case K::Float: return ArgSpec::scalar(ir::DType::FP32);
    case K::Bool: return ArgSpec::scalar(ir::DType::I1);
    default: return std::nullopt;
  }
}

// Binds one launch (or, without one, nothing) to the kernel's parameters.
Binding bindLaunch(const JitFunctionInfo& fn, const LaunchSite* launch, const std::map<std::string, ConstValue>& constexprs) {
  const FunctionDef& def = *fn.def;
  const std::set<std::string> guessed = guessPointerParams(def);
  Binding b;
  if (!fn.autotuneConfigs.empty()) b.options = fn.autotuneConfigs.front().options;
  std::vector<const Param*> params;
  for (const Param& p : def.params.params)
    if (p.kind != ParamKind::VarPositional && p.kind != ParamKind::VarKeyword) params.push_back(&p);
  if (launch) {
    for (const auto& [name, arg] : launch->kwargs) {
      if (!arg.value || !arg.value->isInt()) continue;
      if (name == "num_warps") b.options.numWarps = static_cast<int>(arg.value->asInt());
      if (name == "num_stages") b.options.numStages = static_cast<int>(arg.value->asInt());
    }
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = *params[i];
    b.names.push_back(p.name);
    b.bound.emplace_back();
    std::optional<ArgSpec>& slot = b.bound.back();
    if (auto it = constexprs.find(p.name); it != constexprs.end()) {
      slot = ArgSpec::constexprValue(it->second);
      continue;
    }
    const bool isConstexpr = isConstexprParam(p);
    const LaunchArg* passed = nullptr;
    if (launch) {
      if (i < launch->args.size()) passed = &launch->args[i];
      for (const auto& [name, arg] : launch->kwargs)
        if (name == p.name) passed = &arg;
    }
    if (passed) {
      if ((slot = argFromLaunch(*passed, isConstexpr))) continue;
    }
    if (isConstexpr) {
      std::optional<ConstValue> value;
      if (!fn.autotuneConfigs.empty())
        for (const auto& [name, v] : fn.autotuneConfigs.front().values)
          if (name == p.name) value = v;
      for (const std::string& h : fn.heuristicNames)
        if (!value && h == p.name) value = ConstValue::integer(kPlaceholderConstexpr);
      if (!value && !p.defaultValue) {
        value = ConstValue::integer(kPlaceholderConstexpr);
        b.placeholders.push_back(p.name);
      }
      if (value) slot = ArgSpec::constexprValue(*value);
      continue;  // else its default
    }
    // A launch that leaves out an argument without a default gets the checker's "missing argument",
    // as it would when run; without a launch the parameter's type is unknown.
    if (p.defaultValue && !passed) continue;
    if (launch && !passed) continue;
    b.unknown.push_back(i);
    const bool pointer = guessed.count(p.name) || (passed && passed->kind == LaunchArg::Kind::Tensor);
    slot = pointer ? ArgSpec::pointer(ir::DType::FP32) : ArgSpec::scalar(ir::DType::I32);
  }
  return b;
}

// Where a node sits in the program, for "which definition was current at this launch".
std::pair<size_t, uint32_t> positionOf(const Program& program, const SourceRange& range) {
  const auto& modules = program.modules();
  for (size_t m = 0; m < modules.size(); ++m)
    if (modules[m]->file.get() == range.file) return {m, range.begin};
  return {modules.size(), range.begin};
}

// The launches of one definition: those for which it is the latest definition of the name before
// them. A launch before every definition (inside a function called later) goes to the current one.
std::vector<const LaunchSite*> launchesOf(const Program& program, const JitFunctionInfo& fn, const std::vector<LaunchSite>& sites) {
  std::vector<const LaunchSite*> out;
  for (const LaunchSite& site : sites) {
    if (site.kernel != fn.name) continue;
    const auto at = positionOf(program, site.range);
    const JitFunctionInfo* owner = program.findJitFunction(fn.name);
    std::optional<std::pair<size_t, uint32_t>> ownerAt;
    for (const JitFunctionInfo& def : program.jitFunctions()) {
      if (def.name != fn.name) continue;
      const auto defined = positionOf(program, def.def->range);
      if (defined < at && (!ownerAt || defined > *ownerAt)) {
        owner = &def;
        ownerAt = defined;
      }
    }
    if (owner == &fn) out.push_back(&site);
  }
  return out;
}

}  // namespace

DiagnosticList checkAllKernels(const Program& program, const std::map<std::string, ConstValue>& constexprs) {
  DiagnosticList all;
  const std::vector<LaunchSite> sites = findLaunchSites(program);
  for (const JitFunctionInfo* fn : kernelRoots(program)) {
    std::vector<const LaunchSite*> launches = launchesOf(program, *fn, sites);
    if (launches.empty()) launches.push_back(nullptr);  // checked with unknown argument types
    std::set<std::string> checkedSpecs, reported;
    for (const LaunchSite* launch : launches) {
      const Binding binding = bindLaunch(*fn, launch, constexprs);
      std::string specKey;
      for (size_t i = 0; i < binding.bound.size(); ++i)
        specKey += (binding.bound[i] ? binding.bound[i]->str() : "default") + (binding.isUnknown(i) ? "?," : ",");
      if (!checkedSpecs.insert(specKey).second) continue;
      const DiagnosticList found = checkWithUnknowns(program, *fn, binding);
      const bool failed = found.hasErrors();
      for (const Diagnostic& d : found.items()) {
        Diagnostic copy = d;
        if (failed && !binding.placeholders.empty() && copy.severity == Severity::Error) {
          std::string names;
          for (size_t i = 0; i < binding.placeholders.size(); ++i) names += (i ? ", " : "") + binding.placeholders[i];
          copy.withNote(fn->def->nameRange, "'" + fn->def->name + "' was checked with " + names + " = " +
                                                std::to_string(kPlaceholderConstexpr) +
                                                " because no value was given; pass -D NAME=VALUE to check another value");
        }
        // Several launches with the same problem report it once.
        if (reported.insert(copy.render()).second) all.add(std::move(copy));
      }
    }
  }
  return all;
}

}  // namespace tilescope::lang
