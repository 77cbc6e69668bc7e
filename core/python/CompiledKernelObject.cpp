#include "core/python/CompiledKernelObject.h"

#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/Containers.h"
#include "core/python/ExecutionBackend.h"
#include "core/python/Function.h"
#include "core/python/LaunchContext.h"
#include "core/python/PyError.h"
#include "core/base/Diagnostic.h"

namespace tilescope::host {

namespace {

// The resources of each specialization warmed up, by its checked kernel: the fused-softmax tutorial
// warms its kernel up before every launch, and generating and hashing its CUDA each time (or, without
// a GPU, running ptxas) cost more than the kernel itself.
struct WarmedUp {
  std::weak_ptr<const ir::Kernel> kernel;  // the key's kernel while alive (a new one may reuse its address)
  gpu::KernelResources resources;
};
using WarmUpKey = std::tuple<const ir::Kernel*, std::string, bool>;  // kernel, arch, on a GPU
std::mutex warmedUpMutex;
std::map<WarmUpKey, WarmedUp> warmedUp;

std::optional<gpu::KernelResources> warmedUpResources(const WarmUpKey& key, const ir::KernelPtr& kernel) {
  std::lock_guard<std::mutex> lock(warmedUpMutex);
  auto it = warmedUp.find(key);
  if (it == warmedUp.end() || it->second.kernel.lock() != kernel) return std::nullopt;
  return it->second.resources;
}

void rememberWarmedUp(const WarmUpKey& key, const ir::KernelPtr& kernel, const gpu::KernelResources& resources) {
  std::lock_guard<std::mutex> lock(warmedUpMutex);
  if (warmedUp.size() >= 256) std::erase_if(warmedUp, [](const auto& entry) { return entry.second.kernel.expired(); });
  warmedUp[key] = WarmedUp{kernel, resources};
}

}  // namespace

Value CompiledKernelObject::warmUp(LaunchContext& in, const std::shared_ptr<JitFunction>& jit, CallArgs args) {
  std::optional<Value> grid = args.takeKeyword("grid");
  if (!grid) throwTypeError("warmup() missing required keyword argument 'grid'");
  const PreparedLaunch prepared = KernelLauncher::prepare(in, *jit, *grid, args);
  auto out = std::make_shared<CompiledKernelObject>();
  out->jit = jit;
  out->numWarps = prepared.numWarps;
  out->numStages = prepared.numStages;
  out->kernel = prepared.kernel;
  const std::string arch = gpu::GpuCompiler::defaultArch();
  gpu::CudaCodegenOptions options;
  gpu::GpuRuntime* rt = backendOf(in).gpuRuntime();
  const WarmUpKey key{prepared.kernel.get(), arch, rt != nullptr};
  if (std::optional<gpu::KernelResources> known = warmedUpResources(key, prepared.kernel)) {
    out->resources = *known;
    return Value(out);
  }
  try {
    if (rt) {
      out->resources = rt->resources(*gpu::GpuCompiler::instance().compile(*prepared.kernel, arch, options));
    } else {
      out->resources = gpu::GpuCompiler::assembledResources(*prepared.kernel, arch, options);
    }
    rememberWarmedUp(key, prepared.kernel, out->resources);
  } catch (const lang::CompileError& e) {
    PyError err("CompilationError", e.diagnostic().range.str() + ": " + e.diagnostic().message);
    err.setDiagnostics(e.diagnostic());
    throw err;
  } catch (const gpu::GpuError& e) {
    throw PyError("RuntimeError", e.what());
  } catch (const std::runtime_error& e) {  // NVRTC missing
    throw PyError("RuntimeError", std::string("warmup() reports the compiled kernel's registers and shared memory, which needs "
                                              "the CUDA compiler library (NVRTC): ") +
                                      e.what() + ". Launch the kernel directly instead: " + jit->name() + "[grid](...)");
  }
  return Value(out);
}

std::string CompiledKernelObject::repr(LaunchContext&) const { return "<CompiledKernel " + jit->name() + ">"; }

std::optional<Value> CompiledKernelObject::getAttr(LaunchContext& in, const std::string& name) {
  if (name == "n_regs") return Value::integer(resources.registers);
  // Triton counts spilled 4-byte words: the local memory per thread over 4.
  if (name == "n_spills") return Value::integer(resources.localBytes / 4);
  if (name == "n_max_threads") return Value::integer(resources.maxThreadsPerBlock);
  if (name == "name") return makeStr(jit->name());
  if (name == "metadata") {
    auto m = std::make_shared<NamespaceObject>("KernelMetadata", "KernelMetadata");
    m->attrs["shared"] = Value::integer(resources.staticSharedBytes + resources.dynamicSharedBytes);
    m->attrs["num_warps"] = Value::integer(numWarps);
    m->attrs["num_stages"] = Value::integer(numStages);
    m->attrs["name"] = makeStr(jit->name());
    return Value(m);
  }
  if (name == "asm") {
    // Triton's asm holds each stage's text ('ttir', ..., 'ptx'); ours has the CUDA C++ and the PTX
    // of the build the GPU launches (the optimized one).
    if (!asm_) {
      std::shared_ptr<const gpu::CompiledKernel> compiled;
      try {
        compiled = gpu::GpuCompiler::instance().compile(*kernel, gpu::GpuCompiler::defaultArch(), {});
      } catch (const std::runtime_error& e) {  // NVRTC missing
        throw PyError("RuntimeError", std::string("asm needs the CUDA compiler library (NVRTC): ") + e.what());
      }
      auto d = std::make_shared<DictObject>();
      d->set(in, makeStr("cuda"), makeStr(compiled->cuda.source));
      d->set(in, makeStr("ptx"), makeStr(compiled->ptx));
      asm_ = Value(d);
    }
    return asm_;
  }
  return std::nullopt;
}

std::optional<Value> CompiledKernelObject::getItem(LaunchContext&, const Value& grid) {
  auto self = std::static_pointer_cast<CompiledKernelObject>(shared_from_this());
  return makeBuiltin(jit->name(), [self, grid](LaunchContext& in, CallArgs& args) {
    // Every parameter positionally, constexprs included, as Triton's compiled kernels take them; the
    // launch options are the warm-up's.
    // A parameter named like a launch option (the tutorial's `num_stages: tl.constexpr`) is passed
    // as that keyword, which sets both.
    CallArgs c;
    const auto& params = self->jit->fn->signature.params();
    bool byName = false;  // from the first such parameter on, the rest go by name too
    for (size_t i = 0; i < args.positional.size(); ++i) {
      byName = byName || (i < params.size() && (params[i].name == "num_warps" || params[i].name == "num_stages"));
      if (byName && i < params.size()) c.keywords.emplace_back(params[i].name, args.positional[i]);
      else c.positional.push_back(args.positional[i]);
    }
    c.keywords.insert(c.keywords.end(), args.keywords.begin(), args.keywords.end());
    if (!c.keyword("num_warps")) c.keywords.emplace_back("num_warps", Value::integer(self->numWarps));
    if (!c.keyword("num_stages")) c.keywords.emplace_back("num_stages", Value::integer(self->numStages));
    const PreparedLaunch prepared = KernelLauncher::prepare(in, *self->jit, grid, c);
    KernelLauncher::run(in, *self->jit, prepared);
    return Value();
  });
}

}  // namespace tilescope::host
