#include "core/base/DynamicLibrary.h"

#include <dlfcn.h>

#include <utility>

namespace tilescope::util {

DynamicLibrary::~DynamicLibrary() {
  if (handle_) dlclose(handle_);
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)), error_(std::move(other.error_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_) dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
    error_ = std::move(other.error_);
  }
  return *this;
}

bool DynamicLibrary::open(const std::vector<std::string>& candidates) {
  error_.clear();
  for (const std::string& candidate : candidates) {
    dlerror();
    // RTLD_NODELETE: the CUDA driver and NVRTC keep threads and caches that outlive a dlclose, so the
    // code stays mapped (and leak reports can name the library their allocations came from).
    if (void* h = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {
      if (handle_) dlclose(handle_);
      handle_ = h;
      path_ = candidate;
      error_.clear();
      return true;
    }
    const char* why = dlerror();
    if (!error_.empty()) error_ += "; ";
    error_ += why ? why : (candidate + ": cannot be loaded");
  }
  return false;
}

void* DynamicLibrary::symbol(const char* name) const {
  return handle_ ? dlsym(handle_, name) : nullptr;
}

}  // namespace tilescope::util
