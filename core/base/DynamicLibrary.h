#pragma once
// RAII wrapper over dlopen/dlsym. CUDA's driver and NVRTC are loaded this way so that tilescope
// starts, and stays fully usable in simulator mode, on machines without them.
#include <string>
#include <vector>

namespace tilescope::util {

class DynamicLibrary {
public:
  DynamicLibrary() = default;
  ~DynamicLibrary();
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;

  // Tries each candidate in order; on failure error() lists every dlerror() text.
  bool open(const std::vector<std::string>& candidates);
  bool isOpen() const { return handle_ != nullptr; }
  void* symbol(const char* name) const;
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }

private:
  void* handle_ = nullptr;
  std::string path_;
  std::string error_;
};

}  // namespace tilescope::util
