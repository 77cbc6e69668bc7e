#include "core/gpu/runtime/GpuCompiler.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>

#include "core/gpu/runtime/CudaDriver.h"
#include "core/gpu/runtime/Nvrtc.h"

namespace tilescope::gpu {

namespace fs = std::filesystem;

std::string KernelResources::str() const {
  return std::to_string(registers) + " registers, " + std::to_string(staticSharedBytes) + "+" +
         std::to_string(dynamicSharedBytes) + " bytes shared, " + std::to_string(localBytes) + " bytes local (spills/stack)";
}

KernelResources GpuCompiler::assembledResources(const ir::Kernel& kernel, const std::string& arch,
                                                const CudaCodegenOptions& options) {
  const CudaKernelSource cuda = CudaCodegen::generate(kernel, optionsFor(arch, options));
  const Nvrtc& nvrtc = Nvrtc::instance();
  if (!nvrtc.available()) throw std::runtime_error(nvrtc.unavailableReason());
  std::string realArch = arch;
  if (realArch.rfind("compute_", 0) == 0) realArch = "sm_" + realArch.substr(8);
  const NvrtcOutput r = nvrtc.assembleWithReport(cuda.source, kernel.name + ".cu", realArch, nvrtcOptions());
  if (!r.ok)
    throw lang::InternalError("the CUDA C++ generated for kernel '" + kernel.name + "' does not compile (" + r.error +
                              "); this is a tilescope bug. NVRTC said:\n" + r.log.substr(0, 4000));
  // ptxas info    : Used 72 registers, used 0 barriers, 128 bytes smem
  // ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  auto numberBefore = [&](const std::string& unit) {
    const size_t at = r.log.find(unit);
    if (at == std::string::npos) return 0;
    size_t begin = at;
    while (begin > 0 && r.log[begin - 1] == ' ') --begin;
    size_t digits = begin;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(r.log[digits - 1]))) --digits;
    return digits < begin ? std::stoi(r.log.substr(digits, begin - digits)) : 0;
  };
  KernelResources out;
  out.registers = numberBefore(" registers");
  out.staticSharedBytes = numberBefore(" bytes smem");
  out.localBytes = numberBefore(" bytes stack frame");
  out.dynamicSharedBytes = static_cast<int>(cuda.dynamicSharedBytes);
  out.maxThreadsPerBlock = cuda.numThreads;
  if (out.registers == 0)
    throw lang::InternalError("ptxas's report for kernel '" + kernel.name + "' has no register count:\n" + r.log.substr(0, 2000));
  return out;
}

GpuCompiler& GpuCompiler::instance() {
  static GpuCompiler compiler;
  return compiler;
}

std::string GpuCompiler::defaultArch() {
  const CudaDriver& driver = CudaDriver::instance();
  if (driver.available() && !driver.devices().empty()) return driver.devices().front().arch();
  return "sm_90";
}

void GpuCompiler::warmUpInBackground(const std::string& arch) {
  static std::once_flag once;
  std::call_once(once, [arch] {
    static std::thread worker([arch] {
      const Nvrtc& nvrtc = Nvrtc::instance();
      if (nvrtc.available())
        nvrtc.compileToPtx("extern \"C\" __global__ void ts_warm_up(float* p) { p[threadIdx.x] = 0.0f; }\n", "warm_up.cu",
                           arch, nvrtcOptions());
    });
    // Registered after the thread's own destructor, so it runs first: a short program waits for the
    // warm-up instead of ending with a joinable thread.
    std::atexit([] {
      if (worker.joinable()) worker.join();
    });
  });
}

CudaCodegenOptions GpuCompiler::optionsFor(const std::string& arch, CudaCodegenOptions base) {
  // "sm_90", "compute_80", "sm_90a": the digits are the compute capability times ten.
  std::string digits;
  for (char ch : arch)
    if (ch >= '0' && ch <= '9') digits += ch;
  if (!digits.empty() && digits.size() <= 4) base.smArch = std::stoi(digits);
  base.archSpecific = !arch.empty() && arch.back() == 'a';
  return base;
}

std::vector<std::string> GpuCompiler::nvrtcOptions(CompileTier tier) {
  // No FMA contraction: the simulator rounds every float op separately (tl.fma is explicit).
  // --minimal: the generated code uses no texture, surface or device-runtime API, whose
  // declarations NVRTC would otherwise parse for every kernel (a fifth of a small kernel's compile).
  std::vector<std::string> options = {"--fmad=false", "--minimal"};
  // Fewer optimizations in NVVM and ptxas; the rounding of every operation stays as written.
  if (tier == CompileTier::Quick) options.push_back("--Ofast-compile=mid");
  return options;
}

std::string GpuCompiler::cacheDirectory() {
  if (const char* dir = std::getenv("TILESCOPE_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return (fs::path(xdg) / "tilescope" / "ptx").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".cache" / "tilescope" / "ptx").string();
  return "";
}

std::string GpuCompiler::hashText(const std::string& text) {
  uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
  for (unsigned char c : text) {
    h1 = (h1 ^ c) * 0x100000001b3ull;
    h2 = (h2 ^ c) * 0x100000001b3ull;
    h2 ^= h2 >> 29;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h1), static_cast<unsigned long long>(h2));
  return buf;
}

std::string GpuCompiler::cacheKey(const std::string& source, const std::string& arch, CompileTier tier) {
  std::string keyText = source + '\0' + arch + '\0' + Nvrtc::instance().version();
  for (const std::string& o : nvrtcOptions(tier)) keyText += '\0' + o;
  return hashText(keyText);
}

namespace {

std::string readFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Written to a temporary name first, so that a reader in another process never sees half a file.
void writeFileAtomically(const fs::path& file, const std::string& bytes, const void* unique) {
  std::error_code ec;
  const fs::path tmp = file.string() + ".tmp" + std::to_string(reinterpret_cast<uintptr_t>(unique));
  {
    std::ofstream o(tmp, std::ios::binary);
    o << bytes;
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

}  // namespace

std::shared_ptr<const CompiledKernel> GpuCompiler::cached(const std::string& key, const CudaKernelSource& cuda,
                                                          const std::string& arch, CompileTier tier) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = memory_.find(key); it != memory_.end()) {
      auto hit = std::make_shared<CompiledKernel>(*it->second);
      hit->cacheHit = "memory";
      hit->compileSeconds = 0;
      hit->nvrtcSeconds = 0;
      return hit;
    }
  }
  const std::string dir = cacheDirectory();
  if (dir.empty()) return nullptr;
  const fs::path ptxFile = fs::path(dir) / (key + ".ptx");
  std::error_code ec;
  if (!fs::exists(ptxFile, ec)) return nullptr;
  auto out = std::make_shared<CompiledKernel>();
  out->cuda = cuda;
  out->arch = arch;
  out->tier = tier;
  out->cacheKey = key;
  out->ptx = readFile(ptxFile);
  if (out->ptx.empty()) return nullptr;
  if (const fs::path cubinFile = fs::path(dir) / (key + ".cubin"); fs::exists(cubinFile, ec)) out->cubin = readFile(cubinFile);
  out->cacheHit = "disk";
  std::lock_guard<std::mutex> lock(mutex_);
  memory_[key] = out;
  return out;
}

std::shared_ptr<const CompiledKernel> GpuCompiler::build(const CudaKernelSource& cuda, const std::string& kernelName,
                                                         const std::string& arch, CompileTier tier, bool wantCubin,
                                                         std::chrono::steady_clock::time_point started) {
  const Nvrtc& nvrtc = Nvrtc::instance();
  auto out = std::make_shared<CompiledKernel>();
  out->cuda = cuda;
  out->arch = arch;
  out->tier = tier;
  out->cacheKey = cacheKey(cuda.source, arch, tier);
  const auto nvrtcStarted = std::chrono::steady_clock::now();
  const NvrtcOutput r = wantCubin ? nvrtc.compileToCubin(cuda.source, kernelName + ".cu", arch, nvrtcOptions(tier))
                                  : nvrtc.compileToPtx(cuda.source, kernelName + ".cu", arch, nvrtcOptions(tier));
  out->nvrtcSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - nvrtcStarted).count();
  out->nvrtcLog = r.log;
  if (!r.ok)
    throw lang::InternalError("the CUDA C++ generated for kernel '" + kernelName + "' does not compile (" + r.error +
                              "); this is a tilescope bug. NVRTC said:\n" + r.log.substr(0, 4000));
  out->ptx = r.ptx;
  out->cubin = r.cubin;
  if (const std::string dir = cacheDirectory(); !dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    writeFileAtomically(fs::path(dir) / (out->cacheKey + ".ptx"), out->ptx, out.get());
    if (!out->cubin.empty()) writeFileAtomically(fs::path(dir) / (out->cacheKey + ".cubin"), out->cubin, out.get());
  }
  out->compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::lock_guard<std::mutex> lock(mutex_);
  memory_[out->cacheKey] = out;
  return out;
}

GpuCompiler::Pending GpuCompiler::pending(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = background_.find(key);
  return it == background_.end() ? Pending() : it->second;
}

void GpuCompiler::waitForBackgroundBuilds() {
  std::map<std::string, Pending> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    all = background_;
  }
  for (auto& [key, build] : all) build.wait();
}

std::shared_ptr<const CompiledKernel> GpuCompiler::compile(const ir::Kernel& kernel, const std::string& arch,
                                                           const CudaCodegenOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const CudaKernelSource cuda = CudaCodegen::generate(kernel, optionsFor(arch, options));
  const Nvrtc& nvrtc = Nvrtc::instance();
  if (!nvrtc.available()) throw std::runtime_error(nvrtc.unavailableReason());
  const std::string key = cacheKey(cuda.source, arch, CompileTier::Optimized);
  if (auto hit = cached(key, cuda, arch, CompileTier::Optimized)) return hit;
  if (Pending inFlight = pending(key); inFlight.valid()) return inFlight.get();
  return build(cuda, kernel.name, arch, CompileTier::Optimized, false, started);
}

void GpuCompiler::startInBackground(const CudaKernelSource& cuda, const std::string& kernelName,
                                    const std::string& arch, bool quickFirst) {
  // Registered once NVRTC exists, so it runs before NVRTC's destructor: a program that ends
  // while a build is in flight waits for it instead of pulling the library from under it.
  static std::once_flag joinAtExit;
  std::call_once(joinAtExit, [] { std::atexit([] { GpuCompiler::instance().waitForBackgroundBuilds(); }); });
  auto quick = std::make_shared<std::promise<std::shared_ptr<const CompiledKernel>>>();
  Pending optimized = std::async(std::launch::async, [this, cuda, kernelName, arch, quickFirst, quick] {
                        if (quickFirst) {
                          try {
                            quick->set_value(build(cuda, kernelName, arch, CompileTier::Quick, true, std::chrono::steady_clock::now()));
                          } catch (...) {
                            quick->set_exception(std::current_exception());
                          }
                        }
                        return build(cuda, kernelName, arch, CompileTier::Optimized, true, std::chrono::steady_clock::now());
                      }).share();
  std::lock_guard<std::mutex> lock(mutex_);
  background_[cacheKey(cuda.source, arch, CompileTier::Optimized)] = optimized;
  if (quickFirst) background_[cacheKey(cuda.source, arch, CompileTier::Quick)] = quick->get_future().share();
}

void GpuCompiler::prefetchForLaunch(const ir::Kernel& kernel, const std::string& arch, const CudaCodegenOptions& options) {
  const CudaKernelSource cuda = CudaCodegen::generate(kernel, optionsFor(arch, options));
  if (!Nvrtc::instance().available() || arch.rfind("sm_", 0) != 0) return;
  const std::string key = cacheKey(cuda.source, arch, CompileTier::Optimized);
  if (pending(key).valid() || cached(key, cuda, arch, CompileTier::Optimized)) return;
  const bool quickFirst = cuda.usesTensorCores && !cached(cacheKey(cuda.source, arch, CompileTier::Quick), cuda, arch, CompileTier::Quick);
  startInBackground(cuda, kernel.name, arch, quickFirst);
}

std::shared_ptr<const CompiledKernel> GpuCompiler::compileForLaunch(const ir::Kernel& kernel, const std::string& arch,
                                                                    const CudaCodegenOptions& options, bool allowQuick) {
  const auto started = std::chrono::steady_clock::now();
  const CudaKernelSource cuda = CudaCodegen::generate(kernel, optionsFor(arch, options));
  const Nvrtc& nvrtc = Nvrtc::instance();
  if (!nvrtc.available()) throw std::runtime_error(nvrtc.unavailableReason());
  const bool realArch = arch.rfind("sm_", 0) == 0;
  const std::string key = cacheKey(cuda.source, arch, CompileTier::Optimized);
  if (auto hit = cached(key, cuda, arch, CompileTier::Optimized)) return hit;
  const bool tiered = allowQuick && realArch && cuda.usesTensorCores;
  // The quick build: cached, or in flight (a prefetch), or built now.
  auto quickBuild = [&] {
    const std::string quickKey = cacheKey(cuda.source, arch, CompileTier::Quick);
    if (auto hit = cached(quickKey, cuda, arch, CompileTier::Quick)) return hit;
    if (Pending quick = pending(quickKey); quick.valid()) return quick.get();
    return build(cuda, kernel.name, arch, CompileTier::Quick, true, started);
  };
  if (Pending inFlight = pending(key); inFlight.valid()) {
    // Started earlier (a prefetch, or an earlier launch's background build): waiting for it is
    // quicker than starting again, unless a quick build is at hand.
    if (inFlight.wait_for(std::chrono::seconds(0)) == std::future_status::ready || !tiered) {
      std::shared_ptr<const CompiledKernel> optimized = inFlight.get();  // rethrows the build's error
      std::lock_guard<std::mutex> lock(mutex_);
      background_.erase(key);
      return optimized;
    }
    return quickBuild();
  }
  if (!tiered) return build(cuda, kernel.name, arch, CompileTier::Optimized, realArch, started);
  // The quick build first, alone: run beside the optimized build, it would share the CPU and
  // NVRTC with it and come later.
  std::shared_ptr<const CompiledKernel> quick = quickBuild();
  startInBackground(cuda, kernel.name, arch, false);
  return quick;
}

}  // namespace tilescope::gpu
