#pragma once
// cupy.RawKernel: a kernel written in CUDA C++ by the user, compiled by NVRTC and launched on the GPU
// backend, as CuPy users know it:
//
//   add = cupy.RawKernel(r'''extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {...}''', 'add')
//   add((blocks,), (256,), (x, y, out, n))
//
// Tensors pass their device copies (DeviceMemory); scalars are converted to the type the kernel's
// signature declares. The simulator runs only @triton.jit kernels: calling a RawKernel there is a
// clear error.
#include <optional>
#include <string>
#include <vector>

#include "core/python/Value.h"

namespace tilescope::host {

// One parameter of a __global__ function's signature.
struct RawKernelParam {
  enum class Kind { Pointer, SignedInt, UnsignedInt, Float, Bool };
  Kind kind = Kind::Pointer;
  int bytes = 8;
  std::string name;  // as written ("n"), or "" when unnamed
  std::string text;  // the declaration, for messages ("const float* __restrict__ x")
};

// Finds `__global__ void name(...)` in the code and parses its parameters; nullopt when the function
// is missing, error (when given) says why.
std::optional<std::vector<RawKernelParam>> parseRawKernelSignature(const std::string& code, const std::string& name,
                                                                   std::string* error = nullptr);

// The kernel object: calling it with (grid, block, args, shared_mem=0) compiles it once and launches.
Value makeRawKernel(const std::string& code, const std::string& name, std::vector<std::string> options);

}  // namespace tilescope::host
