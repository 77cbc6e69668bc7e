#include "core/gpu/GpuCompiler.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>

#include "core/gpu/CudaDriver.h"
#include "core/gpu/Nvrtc.h"

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

std::vector<std::string> GpuCompiler::nvrtcOptions() {
  // No FMA contraction: the simulator rounds every float op separately (tl.fma is explicit).
  return {"--fmad=false"};
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

std::shared_ptr<const CompiledKernel> GpuCompiler::compile(const ir::Kernel& kernel, const std::string& arch,
                                                           const CudaCodegenOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto out = std::make_shared<CompiledKernel>();
  out->cuda = CudaCodegen::generate(kernel, optionsFor(arch, options));
  out->arch = arch;
  const Nvrtc& nvrtc = Nvrtc::instance();
  if (!nvrtc.available()) throw std::runtime_error(nvrtc.unavailableReason());
  std::string keyText = out->cuda.source + '\0' + arch + '\0' + nvrtc.version();
  for (const std::string& o : nvrtcOptions()) keyText += '\0' + o;
  out->cacheKey = hashText(keyText);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = memory_.find(out->cacheKey); it != memory_.end()) {
      auto hit = std::make_shared<CompiledKernel>(*it->second);
      hit->cacheHit = "memory";
      hit->compileSeconds = 0;
      return hit;
    }
  }
  const std::string dir = cacheDirectory();
  const fs::path file = dir.empty() ? fs::path() : fs::path(dir) / (out->cacheKey + ".ptx");
  std::error_code ec;
  if (!dir.empty() && fs::exists(file, ec)) {
    std::ifstream in(file, std::ios::binary);
    out->ptx.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!out->ptx.empty()) out->cacheHit = "disk";
  }
  if (out->ptx.empty()) {
    const NvrtcOutput r = nvrtc.compileToPtx(out->cuda.source, kernel.name + ".cu", arch, nvrtcOptions());
    out->nvrtcLog = r.log;
    if (!r.ok)
      throw lang::InternalError("the CUDA C++ generated for kernel '" + kernel.name + "' does not compile (" + r.error +
                                "); this is a tilescope bug. NVRTC said:\n" + r.log.substr(0, 4000));
    out->ptx = r.ptx;
    if (!dir.empty()) {
      fs::create_directories(dir, ec);
      const fs::path tmp = file.string() + ".tmp" + std::to_string(reinterpret_cast<uintptr_t>(out.get()));
      {
        std::ofstream o(tmp, std::ios::binary);
        o << out->ptx;
      }
      fs::rename(tmp, file, ec);
      if (ec) fs::remove(tmp, ec);
    }
  }
  out->compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::lock_guard<std::mutex> lock(mutex_);
  memory_[out->cacheKey] = out;
  return out;
}

}  // namespace tilescope::gpu
