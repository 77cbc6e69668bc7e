#include "core/host/JitFunction.h"

#include <algorithm>
#include <cstdio>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/host/GpuMatmul.h"

#include "core/host/CompiledKernelObject.h"
#include "core/host/Containers.h"
#include "core/host/ExecutionBackend.h"
#include "core/host/Interpreter.h"
#include "core/host/KernelLauncher.h"
#include "core/host/PyError.h"
#include "core/host/TritonValues.h"

namespace tilescope::host {

JitFunction* innermostJit(const Value& v) {
  if (auto* j = v.as<JitFunction>()) return j;
  if (auto* a = v.as<Autotuner>()) return innermostJit(a->inner);
  if (auto* h = v.as<Heuristics>()) return innermostJit(h->inner);
  return nullptr;
}

namespace {

Value launcher(const std::shared_ptr<Object>& self, const Value& grid) {
  auto l = std::make_shared<LaunchObject>();
  l->target = Value(self);
  l->grid = grid;
  return Value(l);
}

// The launch arguments given so far by parameter name (what heuristics and autotune keys see);
// meta-parameters that autotune or heuristics add later are simply absent.
std::shared_ptr<DictObject> namedArgs(Interpreter& in, JitFunction& jit, const CallArgs& args) {
  auto dict = std::make_shared<DictObject>();
  const auto& params = jit.fn->signature.params();
  for (size_t i = 0; i < args.positional.size() && i < params.size(); ++i) dict->set(in, makeStr(params[i].name), args.positional[i]);
  for (const auto& [k, v] : args.keywords) dict->set(in, makeStr(k), v);
  for (const ParamSpec& p : params) {
    if (p.defaultValue && !dict->find(in, makeStr(p.name))) dict->set(in, makeStr(p.name), *p.defaultValue);
  }
  return dict;
}

Value launch(Interpreter& in, const Value& target, const Value& grid, CallArgs& args);

Value launchHeuristics(Interpreter& in, Heuristics& h, const Value& grid, CallArgs& args) {
  JitFunction* jit = innermostJit(h.inner);
  // Heuristics see the arguments given so far (and earlier heuristics' results), like Triton.
  std::shared_ptr<DictObject> named = namedArgs(in, *jit, args);
  auto* values = h.values.as<DictObject>();
  for (auto& [k, fn] : values->entries()) {
    const Value v = in.call(fn, ValueList{Value(named)});
    named->set(in, k, v);
    args.keywords.emplace_back(in.str(k), v);
  }
  return launch(in, h.inner, grid, args);
}

// Times each config on the GPU (median of up to 100 ms of runs after a warm-up launch, L2 flushed
// before each, device time by CUDA events) and returns the fastest; configs the GPU cannot run (too
// much shared memory, say) are skipped. nullopt when no launch ran on the GPU (auto fell back).
template <class WithConfig>
std::optional<size_t> timeConfigs(Interpreter& in, gpu::GpuRuntime& rt, Autotuner& a, const Value& grid,
                                  const WithConfig& withConfig) {
  JitFunction* jit = innermostJit(a.inner);
  std::optional<size_t> best;
  double bestMs = 0;
  std::string table;
  for (size_t i = 0; i < a.configs.size(); ++i) {
    auto timeOnce = [&]() -> std::optional<double> {
      CallArgs c = withConfig(i);
      const auto [ms, operations] = rt.timeDeviceWork([&] { launch(in, a.inner, grid, c); });
      if (operations == 0) return std::nullopt;
      return ms;
    };
    std::vector<double> samples;
    try {
      CallArgs warm = withConfig(i);
      launch(in, a.inner, grid, warm);  // compiles
      std::optional<double> first = timeOnce();
      if (!first) return std::nullopt;
      samples.push_back(*first);
      const int reps = std::clamp(static_cast<int>(100.0 / std::max(*first, 1e-3)), 2, 100);
      for (int r = 1; r < reps; ++r)
        if (std::optional<double> ms = timeOnce()) samples.push_back(*ms);
    } catch (PyError& e) {
      // A config this GPU cannot run is pruned, as Triton prunes configs that run out of resources.
      if (e.type() != "CompilationError" && e.message().find("shared memory") == std::string::npos) throw;
      table += "  " + in.repr(a.configs[i]) + ": skipped (" + e.message().substr(0, 120) + ")\n";
      continue;
    } catch (const gpu::GpuError& e) {
      throw PyError("RuntimeError", e.what());
    }
    std::sort(samples.begin(), samples.end());
    const double median = samples[samples.size() / 2];
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.4f ms", median);
    table += "  " + in.repr(a.configs[i]) + ": " + ms + "\n";
    if (!best || median < bestMs) {
      best = i;
      bestMs = median;
    }
  }
  if (best && in.noteOnce("autotune-gpu:" + jit->name()))
    in.writeStdout("autotune: timed " + std::to_string(a.configs.size()) + " configs of " + jit->name() +
                   " on the GPU (median device time); using " + in.repr(a.configs[*best]) + "\n" + table);
  return best;
}

Value launchAutotuned(Interpreter& in, Autotuner& a, const Value& grid, CallArgs& args) {
  JitFunction* jit = innermostJit(a.inner);
  std::string key;
  if (!a.key.empty()) {
    std::shared_ptr<DictObject> named = namedArgs(in, *jit, args);
    for (const std::string& k : a.key) {
      const Value* v = named->find(in, makeStr(k));
      key += (v ? in.repr(*v) : std::string("?")) + ",";
    }
  }
  auto withConfig = [&](size_t i) {
    CallArgs c = args;
    auto* config = a.configs[i].as<ConfigObject>();
    for (auto& [k, v] : config->kwargs.as<DictObject>()->entries()) c.keywords.emplace_back(in.str(k), v);
    if (!c.keyword("num_warps")) c.keywords.emplace_back("num_warps", Value::integer(config->numWarps));
    if (!c.keyword("num_stages")) c.keywords.emplace_back("num_stages", Value::integer(config->numStages));
    return c;
  };
  auto it = a.chosen.find(key);
  if (gpu::GpuRuntime* rt = backendOf(in).gpuRuntime(); it == a.chosen.end() && rt) {
    // On the GPU: time every config, as Triton does, and keep the fastest.
    if (std::optional<size_t> fastest = timeConfigs(in, *rt, a, grid, withConfig)) it = a.chosen.emplace(key, *fastest).first;
  }
  if (it == a.chosen.end()) {
    // The simulator cannot time configs; it takes the first one that checks for these arguments.
    std::optional<PyError> firstError;
    size_t pick = a.configs.size();
    for (size_t i = 0; i < a.configs.size() && pick == a.configs.size(); ++i) {
      CallArgs c = withConfig(i);
      try {
        if (a.inner.is<JitFunction>()) KernelLauncher::prepare(in, *jit, grid, c);
        pick = i;
      } catch (PyError& e) {
        if (e.type() != "CompilationError") throw;
        if (!firstError) firstError = e;
      }
    }
    if (pick == a.configs.size()) {
      if (firstError) throw *firstError;
      throw PyError("ValueError", "triton.autotune needs at least one triton.Config");
    }
    it = a.chosen.emplace(key, pick).first;
    if (in.noteOnce("autotune:" + jit->name())) {
      // "auto" on a machine without a GPU is the simulator.
      const Backend choice = in.launchSettings().backend;
      in.writeStdout("autotune: the " + std::string(resolvesToGpu(choice) ? backendName(choice) : "simulator") +
                     " backend does not time configs; " + jit->name() + " uses the first config that checks: " +
                     in.repr(a.configs[pick]) + "\n");
    }
  }
  CallArgs c = withConfig(it->second);
  return launch(in, a.inner, grid, c);
}

Value launch(Interpreter& in, const Value& target, const Value& grid, CallArgs& args) {
  if (auto* h = target.as<Heuristics>()) return launchHeuristics(in, *h, grid, args);
  if (auto* a = target.as<Autotuner>()) return launchAutotuned(in, *a, grid, args);
  auto* jit = target.as<JitFunction>();
  PreparedLaunch prepared = KernelLauncher::prepare(in, *jit, grid, args);
  KernelLauncher::run(in, *jit, prepared);
  return Value();
}

}  // namespace

Value launchKernel(Interpreter& in, const Value& target, const Value& grid, CallArgs& args) {
  return launch(in, target, grid, args);
}

std::string JitFunction::repr(Interpreter&) const { return "JITFunction(__main__:" + fn->name + ")"; }

std::optional<Value> JitFunction::getItem(Interpreter&, const Value& grid) { return launcher(shared_from_this(), grid); }

std::optional<Value> JitFunction::getAttr(Interpreter& in, const std::string& name) {
  if (name == "__name__") return makeStr(fn->name);
  if (name == "fn") return Value(fn);
  if (name == "cache") return KernelLauncher::cacheSummary(in, *this);
  if (name == "run") {
    auto self = std::static_pointer_cast<JitFunction>(shared_from_this());
    return makeBuiltin(fn->name + ".run", [self](Interpreter& in2, CallArgs& args) {
      std::optional<Value> grid = args.takeKeyword("grid");
      args.takeKeyword("warmup");
      if (!grid) throwTypeError("run() missing required keyword argument 'grid'");
      return launch(in2, Value(self), *grid, args);
    });
  }
  if (name == "warmup") {
    auto self = std::static_pointer_cast<JitFunction>(shared_from_this());
    return makeBuiltin(fn->name + ".warmup", [self](Interpreter& in2, CallArgs& args) {
      return CompiledKernelObject::warmUp(in2, self, args);
    });
  }
  return std::nullopt;
}

Value JitFunction::call(Interpreter&, CallArgs&) {
  throw PyError("RuntimeError", "Cannot call @triton.jit'd outside of the scope of a kernel: launch it with " + fn->name +
                                    "[grid](...) from host code");
}

std::string Autotuner::repr(Interpreter& in) const { return "Autotuner(" + in.repr(inner) + ")"; }

std::optional<Value> Autotuner::getItem(Interpreter&, const Value& grid) { return launcher(shared_from_this(), grid); }

std::optional<Value> Autotuner::getAttr(Interpreter& in, const std::string& name) {
  if (name == "configs") return makeList(configs);
  if (name == "best_config") {
    if (chosen.empty()) return Value();
    return configs[chosen.begin()->second];
  }
  return in.tryGetAttr(inner, name);
}

std::string Heuristics::repr(Interpreter& in) const { return "Heuristics(" + in.repr(inner) + ")"; }

std::optional<Value> Heuristics::getItem(Interpreter&, const Value& grid) { return launcher(shared_from_this(), grid); }

Value LaunchObject::call(Interpreter& in, CallArgs& args) {
  CallArgs copy = args;
  return launch(in, target, grid, copy);
}

}  // namespace tilescope::host
