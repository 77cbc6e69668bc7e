#include "core/python/KernelLauncher.h"

#include <condition_variable>
#include <mutex>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <thread>

#include "core/python/Containers.h"
#include "core/python/AddressBook.h"
#include "core/python/DeviceMemory.h"
#include "core/python/ExecutionBackend.h"
#include "core/python/LaunchContext.h"
#include "core/python/JitFunction.h"
#include "core/python/KernelHostCalls.h"
#include "core/python/PyError.h"
#include "core/python/TensorObject.h"
#include "core/python/TorchConvert.h"
#include "core/python/TritonValues.h"
#include "core/gpu/runtime/GpuRuntime.h"
#include "core/gpu/runtime/ProgramTiming.h"
#include "core/kernel/Checker.h"
#include "core/kernel/Program.h"
#include "core/ir/Numerics.h"
#include "core/ir/passes/SemanticPipeline.h"
#include "core/sim/Simulator.h"
#include "core/sim/TraceWriter.h"

namespace tilescope::host {

// Checked kernels of one JitFunction, by specialization.
struct CheckedKernelCache {
  std::map<std::string, ir::KernelPtr> kernels;
};

namespace {

// Per-session state of the launches.
struct ProgramState {
  uint64_t launches = 0;
  double simulatorSeconds = 0;  // time spent inside Simulator::launch
  // Warnings already shown, by source position and kind: like Python's default warning filter, a
  // warning from one place is shown once per session (do_bench launches a kernel hundreds of times).
  std::set<std::string> warningsShown;
  std::map<std::string, int> crossChecks;  // GPU launches checked against the simulator, by kernel
  uint64_t timedLaunches = 0;               // GPU launches written to --program-timing
  // Per kernel name, the specializations last launched on the GPU (most recent last, a few): what
  // a redefinition of that kernel is compiled for ahead of its launch.
  std::map<std::string, std::vector<std::pair<std::string, lang::Specialization>>> launchedOnGpu;
  // The last launch's trace being freed on another thread (see runOnSimulator).
  std::future<void> traceRelease;
};

constexpr size_t kPrefetchedSpecializations = 2;

const char* kLaunchOptions[] = {"num_warps", "num_stages", "num_ctas", "enable_fp_fusion", "maxnreg", "debug"};

std::optional<lang::ConstValue> toConst(const Value& v) {
  if (v.isNone()) return lang::ConstValue::none();
  if (v.isBool()) return lang::ConstValue::boolean(v.asBool());
  if (v.isInt()) return lang::ConstValue::integer(v.asInt());
  if (v.isFloat()) return lang::ConstValue::floating(v.asFloat());
  if (auto* s = v.as<StrObject>()) return lang::ConstValue::string(s->value);
  if (auto* d = v.as<TlDTypeObject>()) return lang::ConstValue::dtype(d->dtype);
  if (auto* d = v.as<DTypeObject>()) return lang::ConstValue::dtype(d->dtype);
  return std::nullopt;
}

std::vector<int64_t> evalGrid(LaunchContext& in, const Value& grid, const std::shared_ptr<DictObject>& meta) {
  Value g = grid;
  if (g.isObject() && g.object()->callable()) g = in.call(g, ValueList{Value(meta)});
  ValueList dims;
  if (g.isIntLike()) dims = {g};
  else if (g.is<TupleObject>() || g.is<ListObject>()) dims = in.toList(g);
  else throwTypeError("the launch grid must be a tuple of 1 to 3 ints, or a function of the meta-parameters returning one (got " +
                      g.typeName() + ")");
  if (dims.empty() || dims.size() > 3) {
    throwValueError("the launch grid must have 1 to 3 dimensions, got " + std::to_string(dims.size()));
  }
  std::vector<int64_t> out(3, 1);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].isFloat()) throwTypeError("grid dimension " + std::to_string(i) + " must be an int, not float (use triton.cdiv)");
    out[i] = in.toIndex(dims[i], "grid");
    if (out[i] < 0) throwValueError("grid dimension " + std::to_string(i) + " is negative: " + std::to_string(out[i]));
  }
  return out;
}

std::string rendered(const lang::DiagnosticList& d) {
  std::string text = d.render();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

const lang::Diagnostic* firstError(const lang::DiagnosticList& d) {
  for (const lang::Diagnostic& item : d.items())
    if (item.severity == lang::Severity::Error) return &item;
  return nullptr;
}

// Raises a Python error for a failed check or launch; the frames are the host code's, the detail
// the clang-style diagnostic pointing into the kernel.
[[noreturn]] void raiseDiagnostics(LaunchContext&, const std::string& type, const std::string& fallback,
                                   const lang::DiagnosticList& diagnostics) {
  const lang::Diagnostic* d = firstError(diagnostics);
  PyError err(type, d ? d->range.str() + ": " + d->message : fallback);
  err.setDiagnostics(diagnostics);
  throw err;
}

bool flagAt(const std::vector<bool>& flags, size_t i) { return i < flags.size() && flags[i]; }

}  // namespace

PreparedLaunch KernelLauncher::prepare(LaunchContext& in, JitFunction& jit, const Value& grid, const CallArgs& callArgs) {
  PreparedLaunch out;
  CallArgs args = callArgs;
  const Signature& sig = jit.fn->signature;
  for (const char* option : kLaunchOptions) {
    if (std::optional<Value> v = args.takeKeyword(option)) {
      if (std::string(option) == "num_warps") out.numWarps = static_cast<int>(in.toIndex(*v, "num_warps"));
      if (std::string(option) == "num_stages") out.numStages = static_cast<int>(in.toIndex(*v, "num_stages"));
      // A kernel parameter of the same name (the fused-softmax tutorial's `num_stages: tl.constexpr`)
      // gets the value too, as in Triton.
      for (const auto& p : sig.params())
        if (p.name == option) args.keywords.emplace_back(option, *v);
    }
  }
  const ValueList bound = sig.bind(in, args);

  lang::Specialization spec;
  spec.options.numWarps = out.numWarps;
  spec.options.numStages = out.numStages;
  auto meta = std::make_shared<DictObject>();
  std::string key;
  for (size_t i = 0; i < bound.size(); ++i) {
    const std::string& name = sig.params()[i].name;
    const Value& v = bound[i];
    meta->set(in, makeStr(name), v);
    lang::ArgSpec a;
    const bool constexprParam = i < jit.isConstexpr.size() && jit.isConstexpr[i];
    if (constexprParam || v.isNone() || v.is<TlDTypeObject>() || v.is<StrObject>()) {
      std::optional<lang::ConstValue> c = toConst(v);
      if (!c) {
        throwTypeError(jit.name() + "(): constexpr parameter '" + name + "' got a " + v.typeName() +
                       "; constexprs must be int, float, bool, str, None or a tl dtype");
      }
      a = lang::ArgSpec::constexprValue(*c);
    } else if (const Tensor* t = tensorOf(v)) {
      a = lang::ArgSpec::pointer(t->dtype(), (t->storageOffset() * t->elementSize()) % 16 == 0);
    } else if (v.isBool()) {
      a = lang::ArgSpec::scalar(ir::DType::I1);
    } else if (v.isInt() && v.asInt() == 1 && !flagAt(jit.doNotSpecialize, i)) {
      // Triton compiles an int argument of 1 as the constant 1 (a unit stride makes the accesses
      // contiguous at compile time); do_not_specialize keeps it a run-time value.
      a = lang::ArgSpec::unitInt();
    } else if (v.isInt()) {
      a = lang::ArgSpec::fromInt(v.asInt());
    } else if (v.isFloat()) {
      a = lang::ArgSpec::scalar(ir::DType::FP32);
    } else {
      throwTypeError(jit.name() + "(): parameter '" + name + "' got a " + v.typeName() +
                     "; kernels take tensors, ints, floats, bools and constexprs");
    }
    if (flagAt(jit.doNotSpecialize, i) || flagAt(jit.doNotSpecializeOnAlignment, i)) a.divisibleBy16 = false;
    // Divisibility is part of the specialization: a kernel checked for a multiple of 16 must not run
    // for another value (the GPU code may rely on it).
    key += a.str() + (a.divisibleBy16 && a.kind != lang::ArgSpec::Kind::Constexpr ? ":16," : ",");
    spec.args.push_back(std::move(a));
  }
  key += "warps=" + std::to_string(out.numWarps) + ",stages=" + std::to_string(out.numStages);
  out.spec = spec;
  out.specKey = key;

  out.grid = evalGrid(in, grid, meta);

  if (!jit.cache) jit.cache = std::make_shared<CheckedKernelCache>();
  auto cached = jit.cache->kernels.find(key);
  if (cached != jit.cache->kernels.end()) {
    out.kernel = cached->second;
  } else {
    const auto t0 = std::chrono::steady_clock::now();
    // Kernels of embedded CPython bring their own Program (built from fn.__globals__).
    if (!jit.program) throw lang::InternalError("kernel '" + jit.name() + "' launched before its globals were resolved");
    lang::Program& program = *jit.program;
    const lang::JitFunctionInfo* info = program.infoFor(jit.fn->def);
    if (!info) {
      throw PyError("CompilationError", "kernel '" + jit.name() +
                                            "' must be defined at the top level of a script or notebook cell to be launched");
    }
    lang::CheckResult r = lang::checkKernel(program, *info, spec);
    if (!r.kernel) raiseDiagnostics(in, "CompilationError", "kernel '" + jit.name() + "' does not compile", r.diagnostics);
    if (!r.diagnostics.empty()) in.writeStderr(rendered(r.diagnostics) + "\n");
    // Both backends run the kernel after Triton's semantic rewrites (the GPU's lowerForGpu starts
    // with the same ones, so they are not undone or repeated there).
    out.kernel = std::make_shared<const ir::Kernel>(ir::passes::lowerSemantics(*r.kernel));
    jit.cache->kernels.emplace(key, out.kernel);
    out.checkSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  for (const ir::KernelParam* p : out.kernel->runtimeParams()) {
    const int idx = sig.indexOf(p->name);
    if (idx < 0) throw lang::InternalError("kernel parameter '" + p->name + "' not in the def's signature");
    out.runtimeArgs.push_back(bound[static_cast<size_t>(idx)]);
    out.runtimeNames.push_back(p->name);
  }
  return out;
}

namespace {

// One JSON line per launch (core/gpu/runtime/ProgramTiming, which also reads it back for the SM timeline),
// for the caller (the worker's client) and/or the --program-timing file.
void appendProgramTiming(LaunchContext& in, JitFunction& jit, const PreparedLaunch& launch, const std::vector<uint64_t>& words) {
  ProgramState& state = in.extension<ProgramState>();
  const int64_t grid[3] = {launch.grid[0], launch.grid[1], launch.grid[2]};
  const std::string line = gpu::programTimingLine(jit.name(), static_cast<int64_t>(++state.timedLaunches), grid, words);
  in.reportProgramTiming(line);
  if (in.launchSettings().programTimingPath.empty()) return;
  std::ofstream out(in.launchSettings().programTimingPath, std::ios::app);
  out << line << "\n";
  if (!out)
    throw PyError("OSError", "cannot write the program timing to '" + in.launchSettings().programTimingPath + "'");
}

// Runs the launch on the GPU. Each tensor's storage has one device copy (DeviceMemory), so aliasing
// views stay aliased and unchanged inputs are not uploaded again. Returns false when the kernel
// cannot run on the GPU and `fallback` allows the simulator instead.
bool runOnGpu(LaunchContext& in, gpu::GpuRuntime& runtime, JitFunction& jit, const PreparedLaunch& launch, bool fallback,
              bool* usedTensorCores) {
  std::vector<std::shared_ptr<Storage>> storages;
  std::vector<gpu::GpuArg> args;
  const std::string forWhat = "kernel '" + jit.name() + "'";
  const auto uploadStart = std::chrono::steady_clock::now();
  try {
    for (const Value& v : launch.runtimeArgs) {
      if (const Tensor* t = tensorOf(v)) {
        const uint64_t base = DeviceMemory::addressFor(*t->storage(), forWhat);
        if (std::find(storages.begin(), storages.end(), t->storage()) == storages.end()) storages.push_back(t->storage());
        args.push_back(gpu::GpuArg::pointer(base + static_cast<uint64_t>(t->storageOffset() * t->elementSize())));
      } else if (v.isFloat()) {
        args.push_back(gpu::GpuArg::real(v.asFloat()));
      } else {
        args.push_back(gpu::GpuArg::integer(v.asInt()));
      }
    }
    // Tensors the kernel may reach through addresses it loads: current on the device, and written
    // (as far as the host knows) afterwards.
    if (AddressBook& addresses = in.extension<AddressBook>(); addresses.makesPointersFromIntegers(launch.kernel)) {
      for (const AddressBook::Entry& e : addresses.live()) {
        DeviceMemory::addressFor(*e.tensor.storage(), forWhat);
        if (std::find(storages.begin(), storages.end(), e.tensor.storage()) == storages.end()) storages.push_back(e.tensor.storage());
      }
    }
  } catch (const gpu::GpuError& e) {
    throw PyError("RuntimeError", e.what());
  }
  const double uploadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - uploadStart).count();
  gpu::GpuLaunchResult result;
  try {
    result = runtime.launch(launch.kernel, launch.grid.data(), args,
                            !in.launchSettings().programTimingPath.empty() || in.wantsProgramTiming());
  } catch (const lang::CompileError& e) {
    if (fallback) return false;
    PyError err("CompilationError", e.diagnostic().range.str() + ": " + e.diagnostic().message);
    err.setDiagnostics(e.diagnostic());
    throw err;
  } catch (const gpu::GpuKernelFailure& e) {
    // An earlier asynchronous launch's device assertion or zero loop step, found now.
    lang::DiagnosticList d;
    d.add(e.diagnostic());
    raiseDiagnostics(in, "RuntimeError", "kernel '" + e.kernel() + "' failed", d);
  } catch (const gpu::GpuError& e) {
    throw PyError("RuntimeError", e.what());
  }
  for (const std::shared_ptr<Storage>& s : storages) {
    DeviceMemory::markDeviceNewer(*s);
    if (!s->fullyInitialised()) s->markAllWritten();  // the GPU does not track which bytes it wrote
  }
  ProgramState& state = in.extension<ProgramState>();
  state.simulatorSeconds += result.kernelSeconds;
  if (usedTensorCores) *usedTensorCores = result.compiled->cuda.usesTensorCores;
  if (result.programTiming.empty()) {
    auto& launched = state.launchedOnGpu[jit.name()];
    launched.erase(std::remove_if(launched.begin(), launched.end(), [&](const auto& k) { return k.first == launch.specKey; }),
                   launched.end());
    launched.emplace_back(launch.specKey, launch.spec);
    if (launched.size() > kPrefetchedSpecializations) launched.erase(launched.begin());
  } else {
    appendProgramTiming(in, jit, launch, result.programTiming);
  }
  if (state.warningsShown.insert("gpu-compiled:" + result.compiled->cacheKey).second) {
    for (const lang::Diagnostic& w : result.compiled->cuda.warnings) in.writeStderr(w.render());
    if (const char* verbose = std::getenv("TILESCOPE_GPU_VERBOSE"); verbose && *verbose && *verbose != '0') {
      auto ms = [](double seconds) { return std::to_string(static_cast<int>(seconds * 1000)) + " ms"; };
      in.writeStderr("gpu: kernel '" + jit.name() + "' (" + result.compiled->arch + "): " + result.resources.str() +
                     "; first launch: check " + ms(launch.checkSeconds) + ", arguments to the device " + ms(uploadSeconds) +
                     ", waited " + ms(result.waitSeconds) + " for the runtime, compile " + ms(result.compiled->compileSeconds) +
                     (result.compiled->nvrtcSeconds > 0 ? " (NVRTC " + ms(result.compiled->nvrtcSeconds) + ")" : "") +
                     (result.compiled->cacheHit.empty() ? "" : " (" + result.compiled->cacheHit + " cache)") +
                     (result.compiled->tier == gpu::CompileTier::Quick ? " (quick build; the optimized one compiles in the background)" : "") +
                     ", load " +
                     ms(result.loadSeconds) + ", run " + ms(result.kernelSeconds) + "\n");
    }
  }
  if (result.failure) {
    lang::DiagnosticList d;
    d.add(*result.failure);
    raiseDiagnostics(in, "RuntimeError", "kernel '" + jit.name() + "' failed", d);
  }
  return true;
}

}  // namespace

namespace {

// TILESCOPE_GPU_CROSSCHECK=N: the first N GPU launches of each kernel specialization also run on the
// simulator from the same inputs, and every tensor must come out the same (within the dtype's
// rounding); the GPU test suite runs the seeds and examples this way.
int crossCheckBudget() {
  const char* v = std::getenv("TILESCOPE_GPU_CROSSCHECK");
  return v ? std::atoi(v) : 0;
}

struct CrossCheck {
  struct Buffer {
    std::shared_ptr<Storage> storage;
    std::string name;
    ir::DType dtype = ir::DType::U8;
    std::vector<std::byte> before, gpu;
  };
  std::vector<Buffer> buffers;

  explicit CrossCheck(const PreparedLaunch& launch) {
    std::set<const Storage*> seen;
    for (size_t i = 0; i < launch.runtimeArgs.size(); ++i) {
      const Tensor* t = tensorOf(launch.runtimeArgs[i]);
      if (!t || !seen.insert(t->storage().get()).second) continue;
      Buffer b;
      b.storage = t->storage();
      b.name = launch.runtimeNames[i];
      b.dtype = t->dtype();
      b.before.assign(b.storage->data(), b.storage->data() + b.storage->nbytes());
      buffers.push_back(std::move(b));
    }
  }
  void restoreGpu() {
    for (Buffer& b : buffers) std::memcpy(b.storage->data(), b.gpu.data(), b.gpu.size());
  }
  void keepGpuAndRestore() {
    for (Buffer& b : buffers) {
      b.gpu.assign(b.storage->data(), b.storage->data() + b.storage->nbytes());
      std::memcpy(b.storage->data(), b.before.data(), b.before.size());
    }
  }
  // TILESCOPE_GPU_CROSSCHECK_CORRUPT=<kernel argument>: the test suite's negative control. The first
  // element of that argument's GPU result has its bits flipped (every exponent changes) before the
  // comparison, which must then report it; a race could not be relied on to show a difference.
  void corruptGpuResultForTest() {
    const char* argument = std::getenv("TILESCOPE_GPU_CROSSCHECK_CORRUPT");
    if (!argument) return;
    for (Buffer& b : buffers) {
      if (b.name != argument) continue;
      const size_t esize = static_cast<size_t>(std::max(1, ir::bitWidth(b.dtype) / 8));
      for (size_t i = 0; i < esize && i < b.gpu.size(); ++i) b.gpu[i] ^= std::byte{0x55};
    }
  }
  static double value(ir::DType t, const std::byte* p) {
    uint64_t bits = 0;
    std::memcpy(&bits, p, static_cast<size_t>(std::max(1, ir::bitWidth(t) / 8)));
    if (ir::isFloat(t)) return sim::bitsToFloat(t, bits);
    return static_cast<double>(sim::wrapInt(t, static_cast<int64_t>(bits)));
  }
  // "" when the simulator's results (now in the storages) match the GPU's. A tensor-core tl.dot sums
  // in another order than the simulator's sequential FMAs; near-cancelling sums then differ by more
  // than the dtype's rounding relative to themselves, so those kernels also allow a difference of
  // 1e-4 (fp32) or 4e-3 (fp16/bf16) of the buffer's largest magnitude.
  std::string compare(const std::string& kernel, bool tensorCores) const {
    for (const Buffer& b : buffers) {
      const int esize = std::max(1, ir::bitWidth(b.dtype) / 8);
      double rtol = 0, atol = 0;
      switch (b.dtype) {
        case ir::DType::FP32: rtol = 1e-5; atol = 1e-6; break;
        case ir::DType::FP64: rtol = 1e-12; atol = 1e-14; break;
        case ir::DType::FP16: rtol = 2e-3; atol = 1e-5; break;
        case ir::DType::BF16: rtol = 1.6e-2; atol = 1e-5; break;
        default: break;
      }
      const size_t n = b.gpu.size() / static_cast<size_t>(esize);
      if (tensorCores && ir::isFloat(b.dtype)) {
        double largest = 0;
        for (size_t i = 0; i < n; ++i) {
          const double s = value(b.dtype, b.storage->data() + i * esize);
          if (std::isfinite(s)) largest = std::max(largest, std::fabs(s));
        }
        atol = std::max(atol, largest * (b.dtype == ir::DType::FP32 || b.dtype == ir::DType::FP64 ? 1e-4 : 4e-3));
      }
      size_t bad = 0, first = 0;
      double g0 = 0, s0 = 0;
      for (size_t i = 0; i < n; ++i) {
        const std::byte* gp = b.gpu.data() + i * esize;
        const std::byte* sp = b.storage->data() + i * esize;
        if (std::memcmp(gp, sp, static_cast<size_t>(esize)) == 0) continue;
        const double g = value(b.dtype, gp), s = value(b.dtype, sp);
        const bool same = (std::isnan(g) && std::isnan(s)) || std::fabs(g - s) <= atol + rtol * std::fabs(s);
        if (same) continue;
        if (bad++ == 0) {
          first = i;
          g0 = g;
          s0 = s;
        }
      }
      if (bad)
        return "GPU and simulator disagree on kernel '" + kernel + "': argument '" + b.name + "' (" +
               std::string(ir::dtypeName(b.dtype)) + ") differs in " + std::to_string(bad) + " of " + std::to_string(n) +
               " elements; first at storage element " + std::to_string(first) + ": gpu " + std::to_string(g0) +
               ", simulator " + std::to_string(s0);
    }
    return "";
  }
};

// Returns true when the launch read outside its tensors (allowed with --out-of-bounds warn).
// `forInspector`: the launch is the user's (reported to the inspector, traced for it); a GPU
// cross-check's simulator run is not.
bool runOnSimulator(LaunchContext& in, JitFunction& jit, const PreparedLaunch& launch, bool forInspector = true);

}  // namespace

void KernelLauncher::prefetchRedefined(LaunchContext& in, JitFunction& jit) {
  if (!resolvesToGpu(in.launchSettings().backend)) return;
  ProgramState& state = in.extension<ProgramState>();
  auto launched = state.launchedOnGpu.find(jit.name());
  if (launched == state.launchedOnGpu.end()) return;
  if (!jit.program) return;
  lang::Program& program = *jit.program;
  const lang::JitFunctionInfo* info = program.infoFor(jit.fn->def);
  if (!info) return;
  for (const auto& [key, spec] : launched->second) {
    // A cache warm-up only: the launch checks and compiles again (from the caches) and reports
    // whatever fails here.
    try {
      const lang::CheckResult r = lang::checkKernel(program, *info, spec);
      if (r.kernel) gpu::GpuCompiler::instance().prefetchForLaunch(*r.kernel, gpu::GpuCompiler::defaultArch(), {});
    } catch (const std::exception&) {
    }
  }
}

void KernelLauncher::run(LaunchContext& in, JitFunction& jit, const PreparedLaunch& launch) {
  if (launch.grid[0] * launch.grid[1] * launch.grid[2] == 0) return;  // Triton launches nothing for an empty grid
  const Backend choice = in.launchSettings().backend;
  // auto keeps the simulator when a trace was asked for: only the simulator records one.
  const bool wantsTrace = !in.launchSettings().traceDir.empty() || !in.launchSettings().pidFilter.empty();
  const ExecutionBackend& backend = resolveBackend(choice, wantsTrace);
  if (gpu::GpuRuntime* runtime = backend.gpuRuntime()) {
    ProgramState& state = in.extension<ProgramState>();
    const std::string key = "crosscheck:" + jit.name() + ":" + launch.kernel->specializationKey() +
                            ",warps=" + std::to_string(launch.numWarps);
    int& checks = state.crossChecks[key];
    std::optional<CrossCheck> check;
    // A kernel writing through addresses loaded from memory reaches tensors the cross-check does
    // not save and restore; running it twice could apply its updates twice.
    if (checks < crossCheckBudget() && !in.extension<AddressBook>().makesPointersFromIntegers(launch.kernel)) {
      ++checks;
      check.emplace(launch);
    }
    bool tensorCores = false;
    if (runOnGpu(in, *runtime, jit, launch, choice == Backend::Auto, &tensorCores)) {
      in.reportLaunch({jit.name(), {launch.grid[0], launch.grid[1], launch.grid[2]}, backend.name(), 0, {}, {}});
      if (!check) return;
      check->keepGpuAndRestore();
      check->corruptGpuResultForTest();
      if (runOnSimulator(in, jit, launch, false)) {
        // Out-of-bounds reads give 0 on the simulator (--out-of-bounds warn) and whatever lies there
        // on the GPU: nothing to compare. The GPU's results stay.
        check->restoreGpu();
        if (state.warningsShown.insert("crosscheck-oob:" + jit.name()).second)
          in.writeStderr("note: GPU cross-check of kernel '" + jit.name() +
                         "' skipped: it reads outside its tensors, where the GPU reads whatever lies there\n");
        return;
      }
      const std::string diff = check->compare(jit.name(), tensorCores);
      if (!diff.empty()) throw PyError("RuntimeError", diff);
      return;
    }
  }
  runOnSimulator(in, jit, launch);
}

namespace {

bool runOnSimulator(LaunchContext& in, JitFunction& jit, const PreparedLaunch& launch, bool forInspector) {
  if ((!in.launchSettings().programTimingPath.empty() || in.wantsProgramTiming()) &&
      in.extension<ProgramState>().warningsShown.insert("program-timing-sim:" + jit.name()).second)
    in.writeStderr("warning: --program-timing records GPU launches only; kernel '" + jit.name() +
                   "' ran on the simulator (use --backend gpu)\n");

  // Every tensor argument's storage becomes a simulator tensor over the same bytes (no copies): one
  // sim tensor per host Storage, so aliasing views stay aliased.
  sim::Memory memory;
  struct Mapped {
    Tensor tensor;  // a flat view of the whole storage
    int id = 0;
  };
  std::map<const Storage*, Mapped> mapped;
  std::vector<sim::LaunchArg> args;
  AddressBook& addresses = in.extension<AddressBook>();
  // Under the id of its simulated addresses when host code took its address (data_ptr()), so that
  // addresses loaded from memory find it.
  auto mapStorage = [&](const Tensor& t, const std::string& name) -> std::map<const Storage*, Mapped>::iterator {
    Storage* storage = t.storage().get();
    auto it = mapped.find(storage);
    if (it != mapped.end()) return it;
    const int64_t elements = static_cast<int64_t>(storage->nbytes()) / t.elementSize();
    // Report against the tensor's own shape when the view is the whole storage.
    const bool whole = t.storageOffset() == 0 && t.isContiguous() && t.numel() == elements;
    const std::vector<int64_t> shape = whole ? t.shape() : std::vector<int64_t>{elements};
    const bool initialised = storage->fullyInitialised();
    const sim::TensorInit init = initialised ? sim::TensorInit::Zeros : sim::TensorInit::Uninitialized;
    // data() (mutable) fetches newer device bytes first and makes the host side the newest.
    const std::span<uint8_t> bytes(reinterpret_cast<uint8_t*>(storage->data()), storage->nbytes());
    const int id = memory.adopt(addresses.exposedId(storage), name, t.dtype(), shape, init, bytes);
    // torch.empty's never-written elements: the usual case, nothing written yet, is the all-zero default.
    if (!initialised && storage->uninitialisedBytes() < storage->nbytes()) {
      const std::span<uint8_t> flags = memory.get(id).initializedFlags();
      const size_t esize = static_cast<size_t>(t.elementSize());
      for (int64_t e = 0; e < elements; ++e) flags[e] = storage->isInitialised(static_cast<size_t>(e) * esize, esize);
    }
    return mapped.emplace(storage, Mapped{t, id}).first;
  };
  for (size_t i = 0; i < launch.runtimeArgs.size(); ++i) {
    const Value& v = launch.runtimeArgs[i];
    if (const Tensor* t = tensorOf(v)) {
      auto it = mapStorage(*t, launch.runtimeNames[i]);
      args.push_back(sim::LaunchArg::tensor(it->second.id, t->storageOffset()));
    } else if (v.isFloat()) {
      args.push_back(sim::LaunchArg::real(v.asFloat()));
    } else {
      args.push_back(sim::LaunchArg::integer(v.asInt()));
    }
  }
  // Then every other tensor whose address host code took: the kernel may reach it through one.
  std::vector<sim::AddressWindow> windows;
  if (addresses.makesPointersFromIntegers(launch.kernel)) {
    for (const AddressBook::Entry& e : addresses.live()) {
      char name[48];
      std::snprintf(name, sizeof name, "at 0x%llx", static_cast<unsigned long long>(sim::DeviceAddress::make(e.simulatedId, 0)));
      (void)mapStorage(e.tensor, name);
      const Storage& storage = *e.tensor.storage();
      if (const Storage::DeviceMirror& m = storage.deviceMirror(); m.address)
        windows.push_back({m.address, storage.nbytes(), sim::DeviceAddress::make(e.simulatedId, 0)});
    }
  }

  ProgramState& state = in.extension<ProgramState>();
  const uint64_t launchNumber = ++state.launches;
  sim::LaunchOptions options;
  const LaunchSettings& settings = in.launchSettings();
  const bool inspect = forInspector && in.wantsLaunchRecords();
  const bool traceForInspector = inspect && in.takeLaunchTraceSlot();
  options.trace = !settings.traceDir.empty() || traceForInspector;
  options.recordValues = settings.traceValues || traceForInspector;
  if (settings.traceDir.empty()) options.maxTraceBytes = std::min(options.maxTraceBytes, settings.inspectorTraceBytes);
  if (traceForInspector) options.extraTracedPrograms = in.requestedTracePrograms();
  options.stopOnOutOfBounds = settings.stopOnOutOfBounds;
  options.addressWindows = std::move(windows);
  if (!settings.pidFilter.empty()) {
    sim::PidFilterParseResult f = sim::PidFilter::parse(settings.pidFilter);
    if (!f.filter) throwValueError("--pid-filter '" + settings.pidFilter + "': " + f.error);
    options.pidFilter = *f.filter;
  }
  options.output = [&in](std::string_view line) { in.writeStdout(std::string(line) + "\n"); };
  options.hostCall = [&in](const sim::HostCallEvent& event) { return KernelHostCalls::call(in, event); };

  // The simulator polls the session's cancel flag itself (no watcher thread per launch).
  if (in.cancelToken()) options.cancel.follow(in.cancelToken()->flag());
  KernelHostCalls::setCurrentKernel(in, jit.name());
  sim::LaunchResult result;
  {
    sim::Simulator simulator(memory);
    result = simulator.launch(*launch.kernel, sim::Grid{launch.grid[0], launch.grid[1], launch.grid[2]}, args, options);
  }
  state.simulatorSeconds += result.seconds;

  // The kernel stored straight into the storages; mark what it wrote as initialised, in runs.
  for (auto& [storage, m] : mapped) {
    Storage& s = *m.tensor.storage();
    if (s.fullyInitialised()) continue;
    const std::span<const uint8_t> flags = memory.get(m.id).initializedFlags();
    const size_t esize = static_cast<size_t>(m.tensor.elementSize());
    if (std::memchr(flags.data(), 0, flags.size()) == nullptr) {
      s.markAllWritten();
      continue;
    }
    for (size_t e = 0; e < flags.size();) {
      if (!flags[e]) {
        ++e;
        continue;
      }
      size_t end = e;
      while (end < flags.size() && flags[end]) ++end;
      s.markWritten(e * esize, (end - e) * esize);
      e = end;
    }
  }
  if (result.trace && !settings.traceDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(settings.traceDir, ec);
    const std::string path = (std::filesystem::path(settings.traceDir) /
                              (std::to_string(launchNumber) + "-" + jit.name() + ".tstrace")).string();
    std::string error;
    if (!sim::TraceWriter::writeFile(*result.trace, path, &error)) in.writeStderr("warning: trace not written: " + error + "\n");
  }
  if (inspect) {
    LaunchRecord record{jit.name(), {launch.grid[0], launch.grid[1], launch.grid[2]}, "simulator", 0, {}, {}};
    // An interrupted launch (an endless loop, say) reports no trace: serializing and sending what it
    // recorded would delay the interrupt the user is waiting for.
    if (!traceForInspector) {
      record.untracedReason = "only the first " + std::to_string(in.launchTraceLimit()) + " launches of a cell are traced";
    } else if (result.status == sim::LaunchStatus::Interrupted) {
      record.untracedReason = "the launch was interrupted before it finished";
    } else if (result.trace) {
      record.tracedPrograms = static_cast<int64_t>(result.trace->programs.size());
      record.trace = sim::TraceWriter::write(*result.trace);
    }
    in.reportLaunch(record);
  }
  // A trace holds every tile its programs bound (often tens of MiB in many small blocks): it is freed
  // on another thread instead of on the cell's path. Replacing the future waits for the previous one.
  if (result.trace) state.traceRelease = std::async(std::launch::async, [t = std::move(result.trace)]() mutable { t.reset(); });
  if (std::optional<PyError> hostError = KernelHostCalls::takePendingError(in)) throw *hostError;
  if (result.status == sim::LaunchStatus::Interrupted) {
    in.checkCancelled();
    throw PyError("KeyboardInterrupt", "");
  }
  if (result.status == sim::LaunchStatus::Error) {
    raiseDiagnostics(in, "RuntimeError", "kernel '" + jit.name() + "' failed", result.diagnostics);
  }
  // Warnings (reads of uninitialised memory, ...) go to stderr like Triton's interpreter warnings.
  ProgramState& shown = in.extension<ProgramState>();
  bool readOutside = false;
  for (const lang::Diagnostic& d : result.diagnostics.items()) {
    if (d.severity == lang::Severity::Error) continue;
    readOutside = readOutside || d.message.rfind("out-of-bounds load", 0) == 0;
    const std::string kind = d.message.substr(0, d.message.find(" in kernel"));
    const std::string key = (d.range.valid() ? d.range.file->name() + ":" + std::to_string(d.range.begin) : "") + ":" + kind;
    if (shown.warningsShown.insert(key).second) in.writeStderr(d.render());
  }
  return readOutside;
}

}  // namespace

double KernelLauncher::simulatorSeconds(LaunchContext& in) { return in.extension<ProgramState>().simulatorSeconds; }

Value KernelLauncher::cacheSummary(LaunchContext& in, JitFunction& jit) {
  // Triton: {device: {key: CompiledKernel}}; here the specialization keys of the checked kernels.
  auto perDevice = std::make_shared<DictObject>();
  if (jit.cache) {
    for (const auto& [k, kernel] : jit.cache->kernels)
      perDevice->set(in, makeStr(kernel->specializationKey()), makeStr("<checked kernel " + kernel->name + ">"));
  }
  auto out = std::make_shared<DictObject>();
  out->set(in, Value::integer(0), Value(perDevice));
  return Value(out);
}

}  // namespace tilescope::host
