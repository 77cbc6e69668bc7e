#include "core/gpu/runtime/Nvrtc.h"

#include <cstdlib>
#include <filesystem>

namespace tilescope::gpu {
namespace {
namespace fs = std::filesystem;

template <typename Fn>
bool bind(const util::DynamicLibrary& lib, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(lib.symbol(name));
  return fn != nullptr;
}

void addToolkitCandidates(std::vector<std::string>& out, const std::string& root) {
  if (root.empty()) return;
  for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib"})
    for (const char* so : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"})
      out.push_back((fs::path(root) / sub / so).string());
}
}  // namespace

Nvrtc& Nvrtc::instance() {
  static Nvrtc nvrtc;
  return nvrtc;
}

Nvrtc::Nvrtc() {
  std::vector<std::string> candidates;
  if (const char* explicitPath = std::getenv("TILESCOPE_NVRTC")) candidates.push_back(explicitPath);
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(var)) addToolkitCandidates(candidates, root);
  for (const char* so : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) candidates.push_back(so);
  addToolkitCandidates(candidates, TILESCOPE_CUDA_DEFAULT_ROOT);
  if (!loadFrom(candidates)) return;
  api_.nvrtcVersion(&major_, &minor_);
  available_ = true;
}

bool Nvrtc::loadFrom(const std::vector<std::string>& candidates) {
  std::string errors;
  for (const std::string& candidate : candidates) {
    const fs::path path(candidate);
    if (path.is_absolute()) {
      if (!fs::exists(path)) continue;
      // NVRTC dlopens libnvrtc-builtins by soname; without an ld.so.conf entry for this folder that
      // fails at the first compile, so load it from the same folder first.
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(path.parent_path(), ec)) {
        const std::string file = entry.path().filename().string();
        if (file.rfind("libnvrtc-builtins.so.", 0) == 0 && builtins_.open({entry.path().string()})) break;
      }
    }
    if (!library_.open({candidate})) {
      errors += (errors.empty() ? "" : "; ") + library_.error();
      continue;
    }
    const bool ok = bind(library_, api_.nvrtcVersion, "nvrtcVersion") &&
                    bind(library_, api_.nvrtcGetErrorString, "nvrtcGetErrorString") &&
                    bind(library_, api_.nvrtcCreateProgram, "nvrtcCreateProgram") &&
                    bind(library_, api_.nvrtcDestroyProgram, "nvrtcDestroyProgram") &&
                    bind(library_, api_.nvrtcCompileProgram, "nvrtcCompileProgram") &&
                    bind(library_, api_.nvrtcGetPTXSize, "nvrtcGetPTXSize") &&
                    bind(library_, api_.nvrtcGetPTX, "nvrtcGetPTX") &&
                    bind(library_, api_.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize") &&
                    bind(library_, api_.nvrtcGetProgramLog, "nvrtcGetProgramLog");
    bind(library_, api_.nvrtcGetCUBINSize, "nvrtcGetCUBINSize");
    bind(library_, api_.nvrtcGetCUBIN, "nvrtcGetCUBIN");
    bind(library_, api_.nvrtcGetNumSupportedArchs, "nvrtcGetNumSupportedArchs");
    bind(library_, api_.nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs");
    if (ok) return true;
    errors += (errors.empty() ? "" : "; ") + candidate + " lacks NVRTC entry points";
  }
  reason_ = "NVRTC not found (" + (errors.empty() ? std::string("no candidate library exists") : errors) +
            "); set TILESCOPE_NVRTC to the path of libnvrtc.so";
  return false;
}

std::vector<int> Nvrtc::supportedArchs() const {
  std::vector<int> archs;
  int n = 0;
  if (available_ && api_.nvrtcGetNumSupportedArchs && api_.nvrtcGetSupportedArchs &&
      api_.nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0) {
    archs.resize(static_cast<size_t>(n));
    if (api_.nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) archs.clear();
  }
  return archs;
}

NvrtcOutput Nvrtc::compileToPtx(const std::string& source, const std::string& name, const std::string& arch,
                                const std::vector<std::string>& extraOptions) const {
  std::vector<std::string> options = {"-arch=compute_" + arch.substr(arch.find('_') + 1), "-std=c++17", "-lineinfo"};
  options.insert(options.end(), extraOptions.begin(), extraOptions.end());
  return run(source, name, std::move(options), Want::Ptx);
}

NvrtcOutput Nvrtc::compileToCubin(const std::string& source, const std::string& name, const std::string& arch,
                                  const std::vector<std::string>& extraOptions) const {
  std::vector<std::string> options = {"-arch=sm_" + arch.substr(arch.find('_') + 1), "-std=c++17", "-lineinfo"};
  options.insert(options.end(), extraOptions.begin(), extraOptions.end());
  return run(source, name, std::move(options), Want::PtxAndCubin);
}

NvrtcOutput Nvrtc::assembleWithReport(const std::string& source, const std::string& name, const std::string& arch,
                                      const std::vector<std::string>& extraOptions) const {
  std::vector<std::string> options = {"-arch=sm_" + arch.substr(arch.find('_') + 1), "-std=c++17", "-Xptxas=-v"};
  options.insert(options.end(), extraOptions.begin(), extraOptions.end());
  return run(source, name, std::move(options), Want::Log);
}

NvrtcOutput Nvrtc::run(const std::string& source, const std::string& name, std::vector<std::string> options,
                       Want want) const {
  NvrtcOutput out;
  if (!available_) {
    out.error = reason_;
    return out;
  }
  nvrtcProgram program = nullptr;
  nvrtcResult r = api_.nvrtcCreateProgram(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS) {
    out.error = std::string("nvrtcCreateProgram: ") + api_.nvrtcGetErrorString(r);
    return out;
  }
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  r = api_.nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  size_t logSize = 0;
  if (api_.nvrtcGetProgramLogSize(program, &logSize) == NVRTC_SUCCESS && logSize > 1) {
    out.log.resize(logSize);
    api_.nvrtcGetProgramLog(program, out.log.data());
    out.log.resize(logSize - 1);
  }
  if (r != NVRTC_SUCCESS) {
    out.error = std::string("nvrtcCompileProgram: ") + api_.nvrtcGetErrorString(r);
  } else if (want == Want::Log) {
    out.ok = true;
  } else {
    size_t ptxSize = 0;
    api_.nvrtcGetPTXSize(program, &ptxSize);
    out.ptx.resize(ptxSize);
    if (ptxSize > 0) api_.nvrtcGetPTX(program, out.ptx.data());
    while (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
    out.ok = !out.ptx.empty();
    if (!out.ok) out.error = "NVRTC produced no PTX";
    size_t cubinSize = 0;
    if (out.ok && want == Want::PtxAndCubin) {
      if (api_.nvrtcGetCUBINSize && api_.nvrtcGetCUBINSize(program, &cubinSize) == NVRTC_SUCCESS && cubinSize > 0) {
        out.cubin.resize(cubinSize);
        api_.nvrtcGetCUBIN(program, out.cubin.data());
      } else {
        out.ok = false;
        out.error = "NVRTC produced no device binary (cubin)";
      }
    }
  }
  api_.nvrtcDestroyProgram(&program);
  return out;
}

}  // namespace tilescope::gpu
