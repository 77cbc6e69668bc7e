// Kernel launches from host code on embedded CPython, as the hand-written interpreter's launch tests
// checked them (they were tests/host/HostTritonTest, removed): grids and meta-parameters, views, integer
// specialization, the kernel cache, argument and grid errors, out-of-bounds and compile errors with
// file:line:col, host calls, autotune, heuristics, traces and pid filters.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/gpu/runtime/GpuRuntime.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::host::ExecutionOutcome;
using tilescope::python::PythonExecutor;
using tilescope::testing::PythonRun;
using tilescope::testing::kAddKernel;
using tilescope::testing::kPrelude;
using tilescope::testing::runPython;

namespace {

PythonRun runScript(PythonExecutor& executor, const std::string& code) {
  return runPython(executor, code, "launch.py", false);
}

PythonRun withAdd(const std::string& code) {
  PythonExecutor executor;
  return runScript(executor, std::string(kPrelude) + kAddKernel + code);
}

PythonRun scriptRun(const std::string& code) { return tilescope::testing::runScript(code); }

std::string addOut(const std::string& code) {
  const PythonRun run = withAdd(code);
  EXPECT_TRUE(run.ok()) << run.traceback;
  return run.out;
}

}  // namespace

TEST(EmbeddedLaunch, GridsTakeTuplesOrFunctionsOfAllArgumentsByName) {
  EXPECT_EQ(addOut("x = torch.arange(10, dtype=torch.float32)\ny = torch.ones(10)\nout = torch.empty_like(x)\n"
                   "grid = lambda meta: (triton.cdiv(10, meta['BLOCK_SIZE']),)\nadd_kernel[grid](x, y, out, 10, BLOCK_SIZE=4)\nprint(out)"),
            "tensor([ 1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10.])\n");
  EXPECT_EQ(addOut("x = torch.arange(6)\nout = torch.zeros_like(x)\nadd_kernel[(3,)](x, x, out, 6, 2)\nprint(out)"),
            "tensor([ 0,  2,  4,  6,  8, 10])\n");
  EXPECT_EQ(addOut("x = torch.ones(4)\nout = torch.zeros(4)\ndef grid(meta):\n    print(sorted(meta.keys()), meta['n_elements'], meta['BLOCK_SIZE'])\n    return (1,)\n"
                   "add_kernel[grid](x, x, out, 4, BLOCK_SIZE=4)"),
            "['BLOCK_SIZE', 'n_elements', 'output_ptr', 'x_ptr', 'y_ptr'] 4 4\n");
}

TEST(EmbeddedLaunch, ViewsWithOffsetsArePassedAsPointers) {
  EXPECT_EQ(addOut("x = torch.arange(8, dtype=torch.float32)\nout = torch.zeros(8)\nadd_kernel[(1,)](x[4:], x[4:], out[2:], 4, BLOCK_SIZE=4)\nprint(out)"),
            "tensor([ 0.,  0.,  8., 10., 12., 14.,  0.,  0.])\n");
}

TEST(EmbeddedLaunch, IntArgumentsSpecializeLikeTritonAndEachSpecializationIsCheckedOnce) {
  EXPECT_EQ(addOut("x = torch.ones(32)\no = torch.zeros(32)\nadd_kernel[(1,)](x, x, o, 4, BLOCK_SIZE=4)\n"
                   "add_kernel[(1,)](x, x, o, 2**40, BLOCK_SIZE=4)\nadd_kernel[(1,)](x, x, o, 32, BLOCK_SIZE=32)\n"
                   "for _ in range(3): add_kernel[(1,)](x, x, o, 3, BLOCK_SIZE=32)\n"
                   "print(sorted(add_kernel.cache[0].keys()))"),
            "['add_kernel[*fp32:16,*fp32:16,*fp32:16,i32,BLOCK_SIZE=32]', 'add_kernel[*fp32:16,*fp32:16,*fp32:16,i32,BLOCK_SIZE=4]', "
            "'add_kernel[*fp32:16,*fp32:16,*fp32:16,i32:16,BLOCK_SIZE=32]', 'add_kernel[*fp32:16,*fp32:16,*fp32:16,i64:16,BLOCK_SIZE=4]']\n");
}

TEST(EmbeddedLaunch, NumWarpsAndStagesAreAcceptedAndALaunchReturnsNone) {
  EXPECT_EQ(addOut("x = torch.ones(4)\no = torch.zeros(4)\nr = add_kernel[(1,)](x, x, o, 4, BLOCK_SIZE=4, num_warps=2, num_stages=1)\n"
                   "print(o.sum().item(), r)"),
            "8.0 None\n");
}

TEST(EmbeddedLaunch, ArgumentAndGridMistakesAreTypeErrorsNamingTheKernel) {
  const PythonRun missing = withAdd("x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, BLOCK_SIZE=4)");
  EXPECT_EQ(missing.outcome.errorName, "TypeError");
  EXPECT_NE(missing.outcome.errorValue.find("n_elements"), std::string::npos) << missing.outcome.errorValue;
  const PythonRun called = withAdd("add_kernel(1, 2, 3, 4, 5)");
  EXPECT_FALSE(called.ok());
  EXPECT_NE(called.outcome.errorValue.find("add_kernel[grid]"), std::string::npos) << called.outcome.errorValue;
  const PythonRun grid = withAdd("x = torch.ones(4)\nadd_kernel[(4 / 2,)](x, x, x, 4, BLOCK_SIZE=4)");
  EXPECT_FALSE(grid.ok());
  EXPECT_NE(grid.outcome.errorValue.find("grid"), std::string::npos) << grid.outcome.errorValue;
  const PythonRun constexpr_ = withAdd("x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=x)");
  EXPECT_FALSE(constexpr_.ok());
  EXPECT_NE(constexpr_.outcome.errorValue.find("BLOCK_SIZE"), std::string::npos) << constexpr_.outcome.errorValue;
}

TEST(EmbeddedLaunch, OutOfBoundsIsARuntimeErrorNamingTheLaunchLineAndTheKernelSpot) {
  const PythonRun run = withAdd("x = torch.ones(4)\nadd_kernel[(2,)](x, x, x, 8, BLOCK_SIZE=4)\n");
  EXPECT_EQ(run.outcome.errorName, "RuntimeError");
  EXPECT_NE(run.outcome.errorValue.find("out-of-bounds load"), std::string::npos) << run.outcome.errorValue;
  EXPECT_NE(run.traceback.find("File \"launch.py\", line 14, in <module>\n    add_kernel[(2,)](x, x, x, 8, BLOCK_SIZE=4)\n"),
            std::string::npos)
      << run.traceback;
  EXPECT_NE(run.traceback.find("launch.py:10:"), std::string::npos) << "the load in the kernel: " << run.traceback;
  EXPECT_NE(run.traceback.find("^"), std::string::npos) << run.traceback;
}

TEST(EmbeddedLaunch, ACompileErrorIsRenderedClangStyleAtItsFileLineAndColumn) {
  PythonExecutor executor;
  const PythonRun run = runScript(executor, std::string(kPrelude) +
                                                "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, undefined_thing)\nx = torch.ones(1)\nk[(1,)](x)\n");
  EXPECT_EQ(run.outcome.errorName, "CompilationError");
  EXPECT_NE(run.traceback.find("launch.py:6:21: error:"), std::string::npos) << run.traceback;
  EXPECT_NE(run.traceback.find("undefined_thing"), std::string::npos) << run.traceback;
  EXPECT_NE(run.traceback.find("    k[(1,)](x)\n"), std::string::npos) << run.traceback;
}

TEST(EmbeddedLaunch, AnEmptyGridLaunchesNothing) {
  EXPECT_EQ(addOut("x = torch.ones(4)\nadd_kernel[(0,)](x, x, x, 4, BLOCK_SIZE=4)\nprint(x)"), "tensor([1., 1., 1., 1.])\n");
}

TEST(EmbeddedLaunch, HostCallsPrintTilesLikeNumpy) {
  PythonExecutor executor;
  const PythonRun run = runScript(executor, std::string(kPrelude) +
                                                "def show(txt, conds, pid_0=[0]):\n    print(txt)\n"
                                                "@triton.jit\ndef k(src, n, B: tl.constexpr):\n    p = tl.program_id(0)\n    idx = p * B + tl.arange(0, B)\n"
                                                "    live = idx < n\n    v = tl.load(src + idx, live)\n    show(f'program {p}: idx {idx} live {live} v {v}', '')\n"
                                                "t = torch.tensor([1, 2, 3])\nk[(2,)](t, 3, 2)\n");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "program [0]: idx [0 1] live [ True  True] v [1 2]\nprogram [1]: idx [2 3] live [ True False] v [3 0]\n");
}

TEST(EmbeddedLaunch, AutotuneTakesTheFirstConfigThatChecksAndSaysSoOnce) {
  PythonExecutor executor;
  const PythonRun run = runScript(
      executor, std::string(kPrelude) +
                    "@triton.autotune(configs=[triton.Config({'BS': 3}), triton.Config({'BS': 4}, num_warps=2), triton.Config({'BS': 8})], key=['n'])\n"
                    "@triton.jit\ndef k(x_ptr, n, BS: tl.constexpr):\n    offs = tl.program_id(0) * BS + tl.arange(0, BS)\n"
                    "    tl.store(x_ptr + offs, offs, mask=offs < n)\n"
                    "x = torch.zeros(8, dtype=torch.int32)\ngrid = lambda meta: (triton.cdiv(8, meta['BS']),)\nk[grid](x, 8)\nk[grid](x, 8)\nprint(x)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_NE(run.out.find("tensor([0, 1, 2, 3, 4, 5, 6, 7], dtype=torch.int32)\n"), std::string::npos) << run.out;
  const std::string all = run.out + run.err;
  const size_t note = all.find("BS: 4");
  EXPECT_NE(note, std::string::npos) << "the note names the config taken: " << all;
  EXPECT_EQ(all.find("BS: 4", note + 1), std::string::npos) << "said once: " << all;
}

TEST(EmbeddedLaunch, HeuristicsComputeMetaParametersAndTlDtypesAreConstexprs) {
  PythonExecutor executor;
  const PythonRun run = runScript(
      executor, std::string(kPrelude) +
                    "@triton.heuristics({'BS': lambda args: triton.next_power_of_2(args['n'])})\n"
                    "@triton.jit\ndef k(x_ptr, n, BS: tl.constexpr):\n    offs = tl.arange(0, BS)\n    tl.store(x_ptr + offs, offs + 1, mask=offs < n)\n"
                    "x = torch.zeros(5, dtype=torch.int32)\nk[(1,)](x, 5)\nprint(x)\n"
                    "@triton.jit\ndef h(x_ptr, DT: tl.constexpr):\n    offs = tl.arange(0, 2)\n    tl.store(x_ptr + offs, (offs + 0.5).to(DT))\n"
                    "y = torch.zeros(2, dtype=torch.float16)\nh[(1,)](y, tl.float16)\nprint(y)\n");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "tensor([1, 2, 3, 4, 5], dtype=torch.int32)\ntensor([0.5000, 1.5000], dtype=torch.float16)\n");
}

TEST(EmbeddedLaunch, ATraceDirReceivesOneFilePerLaunchAndABadPidFilterIsAValueError) {
  const std::string dir = (std::filesystem::temp_directory_path() / ("tilescope_embedded_trace_" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  {
    PythonExecutor executor;
    executor.launchSettings().traceDir = dir;
    const PythonRun run = runScript(executor, std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=4)\n");
    ASSERT_TRUE(run.ok()) << run.traceback;
    EXPECT_TRUE(std::filesystem::exists(dir + "/1-add_kernel.tstrace"));
  }
  std::filesystem::remove_all(dir);
  PythonExecutor executor;
  executor.launchSettings().pidFilter = "pid_7 > x";
  const PythonRun bad = runScript(executor, std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=4)\n");
  EXPECT_EQ(bad.outcome.errorName, "ValueError");
}

// A kernel parameter named like a launch option (the fused-softmax tutorial's `num_stages:
// tl.constexpr`) receives the value, which is also the launch option, as in Triton.
TEST(EmbeddedLaunch, ALaunchOptionThatIsAlsoAParameterReachesTheKernel) {
  PythonExecutor executor;
  const PythonRun run = runScript(executor, std::string(kPrelude) +
                                                "@triton.jit\n"
                                                "def k(out_ptr, num_stages: tl.constexpr):\n"
                                                "    for i in tl.range(0, 4, 1, num_stages=num_stages):\n"
                                                "        tl.store(out_ptr + i, num_stages * 10 + i)\n"
                                                "out = torch.zeros(4, dtype=torch.int32)\n"
                                                "k[(1,)](out, num_stages=3, num_warps=2)\n"
                                                "print(out)\n");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "tensor([30, 31, 32, 33], dtype=torch.int32)\n");
}

// Triton 3.6 compiles a run-time int of 1 as the constant 1 (its signature says 'constexpr');
// do_not_specialize keeps it a run-time i32 and drops the divisibility too. One body, two defs.
std::string strideKernels() {
  const std::string params = "(x_ptr, out_ptr, s, n, BLOCK: tl.constexpr):\n";
  const std::string body = R"(    o = tl.arange(0, BLOCK)
    s64 = s.to(tl.int64)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n):
        acc += tl.load(x_ptr + o * s64 + i)
    q = n // s + n % s - (s << 1) + tl.cdiv(n, s) + (s == 1)
    tl.store(out_ptr + o, acc + q)
)";
  return "\n@triton.jit\ndef strided" + params + body + "\n@triton.jit(do_not_specialize=['s', 3])\ndef strided_runtime" + params + body;
}

TEST(EmbeddedLaunch, AnIntOfOneIsSpecializedAndComputesAsARuntimeInt) {
  const PythonRun r = scriptRun(std::string(kPrelude) + strideKernels() +
                        "x = torch.arange(64, dtype=torch.float32)\n"
                        "for s, n in [(1, 1), (1, 3), (2, 1), (2, 32)]:\n"
                        "    a = torch.zeros(8)\n"
                        "    b = torch.zeros(8)\n"
                        "    strided[(1,)](x, a, s, n, BLOCK=8)\n"
                        "    strided_runtime[(1,)](x, b, s, n, BLOCK=8)\n"
                        "    print(s, n, a.tolist(), torch.equal(a, b))\n"
                        "print(sorted(strided.cache[0].keys()))\n"
                        "print(sorted(strided_runtime.cache[0].keys()))\n");
  ASSERT_TRUE(r.ok()) << r.outcome.errorValue;
  // s = 1, n = 1: acc = x[o], q = 1 + 0 - 2 + 1 + 1 = 1; n = 3: acc = 3o + 3, q = 5. s = 2, n = 1: acc = 2o,
  // q = 0 + 1 - 4 + 1 + 0 = -2; n = 32: acc = sum over i < 32 of
  // x[2o + i] = 64o + 496, q = 16 + 0 - 4 + 16 + 0 = 28.
  EXPECT_EQ(r.out,
            "1 1 [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0] True\n"
            "1 3 [8.0, 11.0, 14.0, 17.0, 20.0, 23.0, 26.0, 29.0] True\n"
            "2 1 [-2.0, 0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0] True\n"
            "2 32 [524.0, 588.0, 652.0, 716.0, 780.0, 844.0, 908.0, 972.0] True\n"
            "['strided[*fp32:16,*fp32:16,i32,i32:16,BLOCK=8]', 'strided[*fp32:16,*fp32:16,i32,n=1,BLOCK=8]', "
            "'strided[*fp32:16,*fp32:16,s=1,i32,BLOCK=8]', 'strided[*fp32:16,*fp32:16,s=1,n=1,BLOCK=8]']\n"
            "['strided_runtime[*fp32:16,*fp32:16,i32,i32,BLOCK=8]']\n");
}

TEST(EmbeddedLaunch, DoNotSpecializeNamesMustBeParameters) {
  const PythonRun r = scriptRun(std::string(kPrelude) + "@triton.jit(do_not_specialize=['stride'])\ndef k(x_ptr, n):\n    pass\n");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.outcome.errorName, "ValueError");
  EXPECT_EQ(r.outcome.errorValue, "triton.jit(do_not_specialize=...): kernel 'k' has no parameter 'stride' (its parameters: x_ptr, n)");
  const PythonRun i = scriptRun(std::string(kPrelude) + "@triton.jit(do_not_specialize_on_alignment=[2])\ndef k(x_ptr, n):\n    pass\n");
  EXPECT_FALSE(i.ok());
  EXPECT_EQ(i.outcome.errorValue, "triton.jit(do_not_specialize_on_alignment=...): kernel 'k' has 2 parameters; index 2 is out of range");
}

TEST(EmbeddedLaunch, DoNotSpecializeOnAlignmentKeepsTheSpecializationOnOne) {
  EXPECT_EQ(addOut("@triton.jit(do_not_specialize_on_alignment=['x_ptr', 'n'])\n"
                      "def k(x_ptr, n, s, BLOCK: tl.constexpr):\n"
                      "    o = tl.arange(0, BLOCK)\n"
                      "    tl.store(x_ptr + o * s, o + n)\n"
                      "x = torch.zeros(16, dtype=torch.int32)\n"
                      "k[(1,)](x, 16, 1, BLOCK=16)\nk[(1,)](x, 1, 1, BLOCK=16)\n"
                      "print(x.tolist()[:3], sorted(k.cache[0].keys()))"),
            "[1, 2, 3] ['k[*i32,i32,s=1,BLOCK=16]', 'k[*i32,n=1,s=1,BLOCK=16]']\n");
}

// --backend gpu with and without a device: one test each, the other skipped, so the result says
// which branch ran.
namespace {
PythonRun addOnTheGpuBackend() {
  PythonExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  return runScript(ex, std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=4)\nprint(x.tolist())\n");
}
}  // namespace
TEST(EmbeddedLaunch, GpuBackendRunsOnTheGpu) {
  if (!tilescope::gpu::GpuRuntime::instance().available())
    GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();
  const PythonRun r = addOnTheGpuBackend();
  EXPECT_TRUE(r.ok()) << r.outcome.errorValue;
  EXPECT_EQ(r.out, "[2.0, 2.0, 2.0, 2.0]\n");
}
TEST(EmbeddedLaunch, GpuBackendWithoutAGpuSaysWhyNot) {
  if (tilescope::gpu::GpuRuntime::instance().available()) GTEST_SKIP() << "a CUDA device is present: GpuBackendRunsOnTheGpu covers it";
  const PythonRun r = addOnTheGpuBackend();
  EXPECT_EQ(r.outcome.errorName, "RuntimeError");
  EXPECT_EQ(r.outcome.errorValue.rfind("--backend gpu needs a CUDA device: ", 0), 0u) << r.outcome.errorValue;
  EXPECT_NE(r.outcome.errorValue.find("run with --backend sim or auto"), std::string::npos) << r.outcome.errorValue;
}

