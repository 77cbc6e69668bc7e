// kernel.warmup() on embedded CPython: the compiled kernel's figures (registers, spills, threads, shared
// memory, options), its asm with the CUDA C++ and PTX, and handle[grid](*params) launching it.
// Skipped (visibly) without a GPU and without NVRTC, where warmup() cannot compile.
#include <gtest/gtest.h>

#include <regex>

#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

const char* kWarmupCode =
    "import torch, triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def scale(x_ptr, n, f, B: tl.constexpr, num_stages: tl.constexpr):\n"
    "    offs = tl.program_id(0) * B + tl.arange(0, B)\n"
    "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * f, mask=offs < n)\n"
    "x = torch.ones(100)\n"
    "h = scale.warmup(x, 100, 2.0, B=64, num_stages=2, num_warps=2, grid=(1,))\n"
    "h._init_handles()\n"
    "print(h.n_regs > 0, h.n_spills, h.n_max_threads > 0, h.metadata.shared, h.metadata.num_warps, h.metadata.num_stages)\n"
    "print(h.n_regs)\n"
    "h[(2, 1, 1)](x, 100, 3.0, 64, 2)\n"
    "print(x.sum().item())\n";

}  // namespace

TEST(EmbeddedWarmup, CompiledKernelReportsItsFiguresAndLaunches) {
  PythonExecutor embedded;
  const auto run = runPython(embedded, kWarmupCode, "warmup.py", false);
  if (!run.ok() && run.outcome.errorValue.find("NVRTC") != std::string::npos)
    GTEST_SKIP() << "warmup() needs a GPU or NVRTC: " << run.outcome.errorValue;
  ASSERT_TRUE(run.ok()) << run.traceback;

  EXPECT_EQ(run.out.rfind("True 0 True ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find(" 2 2\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n300.0\n"), std::string::npos) << run.out;
  // The warm-up's num_warps and num_stages, and n_regs a positive count.
  EXPECT_TRUE(std::regex_match(run.out, std::regex("True 0 True [0-9]+ 2 2\n[1-9][0-9]*\n300\\.0\n"))) << run.out;

  const auto asm_ = runPython(embedded, "print(sorted(h.asm), '.entry' in h.asm['ptx'], 'scale' in h.asm['cuda'])\n");
  ASSERT_TRUE(asm_.ok()) << asm_.traceback;
  EXPECT_EQ(asm_.out, "['cuda', 'ptx'] True True\n");
}
