#pragma once
// Traces of the seeds' matmul and softmax kernels with small, exactly representable inputs, for the
// Dot and Reduce views' tests: the practitioners' guide's naive matmul (Example 3) on a 32x48 A and
// a 48x32 B of small integers (2x2 programs of 16x16 blocks, 3 K steps; every sum exact in fp16), and
// the from-zero tutorial's softmax on a 3x5 input.
#include "tests/viz/SeedTraces.h"

namespace tilescope::viz::testing {

inline const char* kZero = "triton-from-zero.md";

// a[m, k] = (m * 48 + k) % 7, b[k, n] = (k * 32 + n) % 5.
inline double matmulA(int64_t m, int64_t k) { return static_cast<double>((m * 48 + k) % 7); }
inline double matmulB(int64_t k, int64_t n) { return static_cast<double>((k * 32 + n) % 5); }

inline std::vector<sim::LaunchTrace> naiveMatmulTraces(const std::vector<std::string>& guide) {
  TracedSession s;
  size_t pos = static_cast<size_t>(std::find(guide.begin(), guide.end(), "# Example 3: Matmul") - guide.begin());
  s.run(seedSpan(guide, pos, "import os", "from triton_util import cdiv, breakpoint_if, print_if, check_tensors_gpu_ready"));
  s.run(seedSpan(guide, pos, "@triton.jit", "    return (tl.expand_dims(offs_0, 1) < max_0) & (tl.expand_dims(offs_1, 0) < max_1)"));
  s.run(seedSpan(guide, pos, "@triton.jit", "    tl.store(c, acc, mask=mask)"));
  s.run(seedSpan(guide, pos, "from functools import partial", "naive_matmul = partial(matmul, matmul_k_fn=naive_matmul_k)"));
  s.run("a = (torch.arange(32 * 48, device='cuda') % 7).reshape(32, 48).float()\n"
        "b = (torch.arange(48 * 32, device='cuda') % 5).reshape(48, 32).float()\n"
        "c = naive_matmul(a, b)\n");
  return s.takeTraces();
}

// x[r, c] = (5r + c) * 7 % 11: rows [0 7 3 10 6], [2 9 5 1 8], [4 0 7 3 10]; row maxima 10, 9, 10.
inline std::vector<sim::LaunchTrace> softmaxTraces(const std::vector<std::string>& zero) {
  TracedSession s;
  size_t pos = static_cast<size_t>(std::find(zero.begin(), zero.end(), "### 4.2 Softmax") - zero.begin());
  s.run("import torch\nimport triton\nimport triton.language as tl\n");
  s.run(seedSpan(zero, pos, "@triton.jit", "    return y"));
  s.run("x = (torch.arange(15, device='cuda') * 7 % 11).reshape(3, 5).float()\ny = softmax(x)\n");
  return s.takeTraces();
}

}  // namespace tilescope::viz::testing
