#pragma once
// NVRTC, loaded at run time. It needs no GPU, so CUDA C++ -> PTX works on any machine that has the
// library, including CI.
#include <string>
#include <vector>

#include "core/gpu/runtime/CudaApi.h"
#include "core/base/DynamicLibrary.h"

namespace tilescope::gpu {

struct NvrtcOutput {
  bool ok = false;
  std::string ptx;
  std::string cubin;  // the device binary (compileToCubin only)
  std::string log;    // compiler messages (errors and warnings)
  std::string error;  // why it failed, when !ok
};

class Nvrtc {
public:
  // Searches $TILESCOPE_NVRTC, $CUDA_HOME/$CUDA_PATH, the loader path, then the build's CUDA root.
  static Nvrtc& instance();

  bool available() const { return available_; }
  const std::string& unavailableReason() const { return reason_; }
  const std::string& libraryPath() const { return library_.path(); }
  int versionMajor() const { return major_; }
  int versionMinor() const { return minor_; }
  std::string version() const { return std::to_string(major_) + "." + std::to_string(minor_); }
  // Architectures this NVRTC accepts for -arch, e.g. {75, 80, ..., 121}.
  std::vector<int> supportedArchs() const;

  NvrtcOutput compileToPtx(const std::string& source, const std::string& name, const std::string& arch,
                           const std::vector<std::string>& extraOptions = {}) const;
  // Compiles for the real architecture `arch` ("sm_90a"): NVRTC runs ptxas itself and keeps both
  // the PTX (for the compiled-code view) and the device binary, which the driver loads without
  // compiling again.
  NvrtcOutput compileToCubin(const std::string& source, const std::string& name, const std::string& arch,
                             const std::vector<std::string>& extraOptions = {}) const;
  // Compiles for the real architecture (`sm_90`: NVRTC runs ptxas itself) with ptxas's verbose
  // report in the log ("Used 38 registers", "... bytes stack frame"); `ptx` stays empty.
  NvrtcOutput assembleWithReport(const std::string& source, const std::string& name, const std::string& arch,
                                 const std::vector<std::string>& extraOptions = {}) const;

private:
  Nvrtc();
  enum class Want { Log, Ptx, PtxAndCubin };
  NvrtcOutput run(const std::string& source, const std::string& name, std::vector<std::string> options, Want want) const;
  bool loadFrom(const std::vector<std::string>& candidates);

  util::DynamicLibrary builtins_;  // loaded first from the same folder; NVRTC dlopens it itself
  util::DynamicLibrary library_;
  bool available_ = false;
  std::string reason_;
  int major_ = 0;
  int minor_ = 0;

  struct Api {
    nvrtcResult (*nvrtcVersion)(int*, int*) = nullptr;
    const char* (*nvrtcGetErrorString)(nvrtcResult) = nullptr;
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                                      const char* const*) = nullptr;
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram*) = nullptr;
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, size_t*) = nullptr;
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t*) = nullptr;
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t*) = nullptr;
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int*) = nullptr;
    nvrtcResult (*nvrtcGetSupportedArchs)(int*) = nullptr;
  } api_;
};

}  // namespace tilescope::gpu
