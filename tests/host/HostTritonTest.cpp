// triton as host code sees it: @jit launches with grids and meta-parameters, autotune, heuristics,
// host calls from kernels, kernel errors, do_bench and perf_report.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "core/host/BenchmarkRunner.h"
#include "core/host/ExecutionBackend.h"
#include "core/host/Interpreter.h"
#include "tests/host/InterpTestUtil.h"

using tilescope::testing::PyRun;
using tilescope::testing::pyError;
using tilescope::testing::pyOut;
using tilescope::testing::runPy;

namespace {

const char* kPrelude = "import torch\nimport triton\nimport triton.language as tl\n";

const char* kAddKernel = R"(
@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)
)";

std::string tritonOut(const std::string& code) { return pyOut(std::string(kPrelude) + kAddKernel + code); }
PyRun tritonRun(const std::string& code) { return runPy(std::string(kPrelude) + kAddKernel + code); }

}  // namespace

TEST(HostTriton, VectorAddWithGridLambda) {
  EXPECT_EQ(tritonOut("x = torch.arange(10, dtype=torch.float32)\ny = torch.ones(10)\nout = torch.empty_like(x)\n"
                      "grid = lambda meta: (triton.cdiv(10, meta['BLOCK_SIZE']),)\nadd_kernel[grid](x, y, out, 10, BLOCK_SIZE=4)\nprint(out)"),
            "tensor([ 1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10.])\n");
}
TEST(HostTriton, GridTupleAndConstexprByPosition) {
  EXPECT_EQ(tritonOut("x = torch.arange(6)\nout = torch.zeros_like(x)\nadd_kernel[(3,)](x, x, out, 6, 2)\nprint(out)"), "tensor([ 0,  2,  4,  6,  8, 10])\n");
}
TEST(HostTriton, GridReceivesAllArgumentsByName) {
  EXPECT_EQ(tritonOut("x = torch.ones(4)\nout = torch.zeros(4)\ndef grid(meta):\n    print(sorted(meta.keys()), meta['n_elements'], meta['BLOCK_SIZE'])\n    return (1,)\n"
                      "add_kernel[grid](x, x, out, 4, BLOCK_SIZE=4)"),
            "['BLOCK_SIZE', 'n_elements', 'output_ptr', 'x_ptr', 'y_ptr'] 4 4\n");
}
TEST(HostTriton, ViewsWithOffsetsArePassedAsPointers) {
  EXPECT_EQ(tritonOut("x = torch.arange(8, dtype=torch.float32)\nout = torch.zeros(8)\nadd_kernel[(1,)](x[4:], x[4:], out[2:], 4, BLOCK_SIZE=4)\nprint(out)"),
            "tensor([ 0.,  0.,  8., 10., 12., 14.,  0.,  0.])\n");
}
TEST(HostTriton, IntArgumentsSpecializeLikeTriton) {
  EXPECT_EQ(tritonOut("x = torch.ones(4)\no = torch.zeros(4)\nadd_kernel[(1,)](x, x, o, 4, BLOCK_SIZE=4)\nadd_kernel[(1,)](x, x, o, 2**40, BLOCK_SIZE=4)\n"
                      "print(sorted(add_kernel.cache[0].keys()))"),
            "['add_kernel[*fp32:16,*fp32:16,*fp32:16,i32,BLOCK_SIZE=4]', 'add_kernel[*fp32:16,*fp32:16,*fp32:16,i64:16,BLOCK_SIZE=4]']\n");
}
TEST(HostTriton, AMultipleOf16AndAnotherIntAreDifferentSpecializations) {
  // n = 32 then n = 3: the second launch must not reuse the kernel checked for a multiple of 16.
  const PyRun r = tritonRun("x = torch.ones(32)\no = torch.zeros(32)\nadd_kernel[(1,)](x, x, o, 32, BLOCK_SIZE=32)\n"
                            "add_kernel[(1,)](x, x, o, 3, BLOCK_SIZE=32)\nprint(sorted(add_kernel.cache[0].keys()))");
  EXPECT_TRUE(r.ok) << r.errorValue;
  EXPECT_EQ(r.out, "['add_kernel[*fp32:16,*fp32:16,*fp32:16,i32,BLOCK_SIZE=32]', "
                   "'add_kernel[*fp32:16,*fp32:16,*fp32:16,i32:16,BLOCK_SIZE=32]']\n");
  EXPECT_EQ(r.err.find("specialized as a multiple of 16"), std::string::npos) << r.err;
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

TEST(HostTriton, AnIntOfOneIsSpecializedAndComputesAsARuntimeInt) {
  const PyRun r = runPy(std::string(kPrelude) + strideKernels() +
                        "x = torch.arange(64, dtype=torch.float32)\n"
                        "for s, n in [(1, 1), (1, 3), (2, 1), (2, 32)]:\n"
                        "    a = torch.zeros(8)\n"
                        "    b = torch.zeros(8)\n"
                        "    strided[(1,)](x, a, s, n, BLOCK=8)\n"
                        "    strided_runtime[(1,)](x, b, s, n, BLOCK=8)\n"
                        "    print(s, n, a.tolist(), torch.equal(a, b))\n"
                        "print(sorted(strided.cache[0].keys()))\n"
                        "print(sorted(strided_runtime.cache[0].keys()))\n");
  ASSERT_TRUE(r.ok) << r.errorValue;
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

TEST(HostTriton, DoNotSpecializeNamesMustBeParameters) {
  const PyRun r = runPy(std::string(kPrelude) + "@triton.jit(do_not_specialize=['stride'])\ndef k(x_ptr, n):\n    pass\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errorName, "ValueError");
  EXPECT_EQ(r.errorValue, "triton.jit(do_not_specialize=...): kernel 'k' has no parameter 'stride' (its parameters: x_ptr, n)");
  const PyRun i = runPy(std::string(kPrelude) + "@triton.jit(do_not_specialize_on_alignment=[2])\ndef k(x_ptr, n):\n    pass\n");
  EXPECT_FALSE(i.ok);
  EXPECT_EQ(i.errorValue, "triton.jit(do_not_specialize_on_alignment=...): kernel 'k' has 2 parameters; index 2 is out of range");
}

TEST(HostTriton, DoNotSpecializeOnAlignmentKeepsTheSpecializationOnOne) {
  EXPECT_EQ(tritonOut("@triton.jit(do_not_specialize_on_alignment=['x_ptr', 'n'])\n"
                      "def k(x_ptr, n, s, BLOCK: tl.constexpr):\n"
                      "    o = tl.arange(0, BLOCK)\n"
                      "    tl.store(x_ptr + o * s, o + n)\n"
                      "x = torch.zeros(16, dtype=torch.int32)\n"
                      "k[(1,)](x, 16, 1, BLOCK=16)\nk[(1,)](x, 1, 1, BLOCK=16)\n"
                      "print(x.tolist()[:3], sorted(k.cache[0].keys()))"),
            "[1, 2, 3] ['k[*i32,i32,s=1,BLOCK=16]', 'k[*i32,n=1,s=1,BLOCK=16]']\n");
}

TEST(HostTriton, CheckedKernelsAreCachedPerSpecialization) {
  EXPECT_EQ(tritonOut("x = torch.ones(4)\no = torch.zeros(4)\nfor _ in range(3): add_kernel[(1,)](x, x, o, 4, BLOCK_SIZE=4)\nprint(len(add_kernel.cache[0]))"), "1\n");
}
TEST(HostTriton, NumWarpsAndStagesAccepted) {
  EXPECT_EQ(tritonOut("x = torch.ones(4)\no = torch.zeros(4)\nadd_kernel[(1,)](x, x, o, 4, BLOCK_SIZE=4, num_warps=2, num_stages=1)\nprint(o.sum().item())"), "8.0\n");
}
TEST(HostTriton, MissingKernelArgumentIsTypeError) {
  EXPECT_EQ(tritonRun("x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, BLOCK_SIZE=4)").errorValue,
            "add_kernel() missing 1 required positional argument: 'n_elements'");
}
TEST(HostTriton, CallingAJitFunctionDirectlyIsAnError) {
  EXPECT_EQ(tritonRun("add_kernel(1, 2, 3, 4, 5)").errorValue,
            "Cannot call @triton.jit'd outside of the scope of a kernel: launch it with add_kernel[grid](...) from host code");
}
TEST(HostTriton, FloatGridIsAnError) {
  EXPECT_EQ(tritonRun("x = torch.ones(4)\nadd_kernel[(4 / 2,)](x, x, x, 4, BLOCK_SIZE=4)").errorValue,
            "grid dimension 0 must be an int, not float (use triton.cdiv)");
}
TEST(HostTriton, BadConstexprValue) {
  EXPECT_EQ(tritonRun("x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=x)").errorValue,
            "add_kernel(): constexpr parameter 'BLOCK_SIZE' got a Tensor; constexprs must be int, float, bool, str, None or a tl dtype");
}
TEST(HostTriton, OutOfBoundsBecomesAPythonErrorWithKernelCaret) {
  PyRun r = tritonRun("x = torch.ones(4)\nadd_kernel[(2,)](x, x, x, 8, BLOCK_SIZE=4)\n");
  EXPECT_EQ(r.errorName, "RuntimeError");
  EXPECT_NE(r.errorValue.find("out-of-bounds load"), std::string::npos) << r.errorValue;
  EXPECT_NE(r.traceback.find("  File \"test.py\", line 14, in <module>\n    add_kernel[(2,)](x, x, x, 8, BLOCK_SIZE=4)\n"), std::string::npos) << r.traceback;
  EXPECT_NE(r.traceback.find("^"), std::string::npos) << r.traceback;
}
TEST(HostTriton, CompileErrorIsRenderedClangStyle) {
  PyRun r = runPy(std::string(kPrelude) + "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, undefined_thing)\nx = torch.ones(1)\nk[(1,)](x)\n");
  EXPECT_EQ(r.errorName, "CompilationError");
  EXPECT_NE(r.traceback.find("test.py:6:21: error:"), std::string::npos) << r.traceback;
  EXPECT_NE(r.traceback.find("undefined_thing"), std::string::npos) << r.traceback;
  EXPECT_NE(r.traceback.find("    k[(1,)](x)\n"), std::string::npos) << r.traceback;
}
TEST(HostTriton, EmptyGridLaunchesNothing) { EXPECT_EQ(tritonOut("x = torch.ones(4)\nadd_kernel[(0,)](x, x, x, 4, BLOCK_SIZE=4)\nprint(x)"), "tensor([1., 1., 1., 1.])\n"); }
TEST(HostTriton, HostCallsPrintTilesLikeNumpy) {
  EXPECT_EQ(pyOut(std::string(kPrelude) +
                  "def show(txt, conds, pid_0=[0]):\n    print(txt)\n"
                  "@triton.jit\ndef k(src, n, B: tl.constexpr):\n    p = tl.program_id(0)\n    idx = p * B + tl.arange(0, B)\n"
                  "    live = idx < n\n    v = tl.load(src + idx, live)\n    show(f'program {p}: idx {idx} live {live} v {v}', '')\n"
                  "t = torch.tensor([1, 2, 3])\nk[(2,)](t, 3, 2)\n"),
            "program [0]: idx [0 1] live [ True  True] v [1 2]\nprogram [1]: idx [2 3] live [ True False] v [3 0]\n");
}
TEST(HostTriton, HostCallErrorsCarryTheirTraceback) {
  PyRun r = runPy(std::string(kPrelude) + "def boom(t):\n    raise ValueError('bad ' + t)\n@triton.jit\ndef k(x_ptr):\n    boom('value')\nx = torch.ones(1)\nk[(1,)](x)\n");
  EXPECT_EQ(r.errorName, "ValueError");
  EXPECT_EQ(r.errorValue, "bad value");
  EXPECT_NE(r.traceback.find("in boom\n    raise ValueError('bad ' + t)"), std::string::npos) << r.traceback;
  EXPECT_NE(r.traceback.find("in k\n"), std::string::npos) << r.traceback;
}
TEST(HostTriton, AutotuneOnAutoNamesTheBackendItResolvedTo) {
  tilescope::host::HostExecutor ex;
  ex.setBackend(tilescope::host::Backend::Auto);
  const PyRun r = runPy(ex, std::string(kPrelude) +
                                "@triton.autotune(configs=[triton.Config({'BS': 4}), triton.Config({'BS': 8})], key=['n'])\n"
                                "@triton.jit\ndef k(x_ptr, n, BS: tl.constexpr):\n    offs = tl.program_id(0) * BS + tl.arange(0, BS)\n"
                                "    tl.store(x_ptr + offs, offs, mask=offs < n)\n"
                                "x = torch.zeros(8, dtype=torch.int32)\nk[lambda meta: (triton.cdiv(8, meta['BS']),)](x, 8)\n");
  ASSERT_TRUE(r.ok) << r.errorValue;
  EXPECT_EQ(r.out.find("autotune: the auto backend"), std::string::npos) << r.out;
  if (!tilescope::host::resolvesToGpu(tilescope::host::Backend::Auto)) {
    EXPECT_EQ(r.out.rfind("autotune: the simulator backend does not time configs", 0), 0u) << r.out;
  }
}
TEST(HostTriton, AutotuneUsesFirstConfigAndSaysSoOnce) {
  EXPECT_EQ(pyOut(std::string(kPrelude) +
                  "@triton.autotune(configs=[triton.Config({'BS': 4}, num_warps=2), triton.Config({'BS': 8})], key=['n'])\n"
                  "@triton.jit\ndef k(x_ptr, n, BS: tl.constexpr):\n    offs = tl.program_id(0) * BS + tl.arange(0, BS)\n"
                  "    tl.store(x_ptr + offs, offs, mask=offs < n)\n"
                  "x = torch.zeros(8, dtype=torch.int32)\ngrid = lambda meta: (triton.cdiv(8, meta['BS']),)\nk[grid](x, 8)\nk[grid](x, 8)\nprint(x)"),
            "autotune: the simulator backend does not time configs; k uses the first config that checks: BS: 4, num_warps: 2, num_ctas: 1, "
            "num_stages: 3\ntensor([0, 1, 2, 3, 4, 5, 6, 7], dtype=torch.int32)\n");
}
TEST(HostTriton, AutotuneSkipsConfigsThatDoNotCheck) {
  EXPECT_EQ(pyOut(std::string(kPrelude) +
                  "@triton.autotune(configs=[triton.Config({'BS': 3}), triton.Config({'BS': 4})], key=[])\n"
                  "@triton.jit\ndef k(x_ptr, BS: tl.constexpr):\n    offs = tl.arange(0, BS)\n    tl.store(x_ptr + offs, offs)\n"
                  "x = torch.zeros(4, dtype=torch.int32)\nk[(1,)](x)\nprint(x)"),
            "autotune: the simulator backend does not time configs; k uses the first config that checks: BS: 4, num_warps: 4, num_ctas: 1, "
            "num_stages: 3\ntensor([0, 1, 2, 3], dtype=torch.int32)\n");
}
TEST(HostTriton, HeuristicsComputeMetaParameters) {
  EXPECT_EQ(pyOut(std::string(kPrelude) +
                  "@triton.heuristics({'BS': lambda args: triton.next_power_of_2(args['n'])})\n"
                  "@triton.jit\ndef k(x_ptr, n, BS: tl.constexpr):\n    offs = tl.arange(0, BS)\n    tl.store(x_ptr + offs, offs + 1, mask=offs < n)\n"
                  "x = torch.zeros(5, dtype=torch.int32)\nk[(1,)](x, 5)\nprint(x)"),
            "tensor([1, 2, 3, 4, 5], dtype=torch.int32)\n");
}
TEST(HostTriton, TlDtypeAsConstexpr) {
  EXPECT_EQ(pyOut(std::string(kPrelude) +
                  "@triton.jit\ndef k(x_ptr, DT: tl.constexpr):\n    offs = tl.arange(0, 2)\n    tl.store(x_ptr + offs, (offs + 0.5).to(DT))\n"
                  "x = torch.zeros(2, dtype=torch.float16)\nk[(1,)](x, tl.float16)\nprint(x, tl.float16)"),
            "tensor([0.5000, 1.5000], dtype=torch.float16) fp16\n");
}
TEST(HostTriton, CdivAndNextPowerOfTwo) { EXPECT_EQ(pyOut("import triton\nprint(triton.cdiv(10, 3), triton.cdiv(9, 3), triton.next_power_of_2(100), triton.next_power_of_2(1))"), "4 3 128 1\n"); }
TEST(HostTriton, DoBenchReturnsMillisecondsAndQuantiles) {
  EXPECT_EQ(pyOut("import triton\nms = triton.testing.do_bench(lambda: sum(range(100)))\nq = triton.testing.do_bench(lambda: None, quantiles=[0.5, 0.2, 0.8])\n"
                  "print(type(ms).__name__, ms > 0, len(q), q[1] <= q[0] <= q[2])"),
            "float True 3 True\n");
}
TEST(HostTriton, DoBenchRejectsUnknownReturnMode) {
  EXPECT_EQ(pyError("import triton\ntriton.testing.do_bench(lambda: None, return_mode='fast')"),
            "ValueError: return_mode must be one of 'min', 'max', 'mean', 'median', 'all', not 'fast'");
}
TEST(HostTriton, PerfReportPrintsTableWritesCsvAndEmitsSeries) {
  const std::string dir = (std::filesystem::temp_directory_path() / "tilescope_perf_test").string();
  std::filesystem::remove_all(dir);
  PyRun r = runPy(std::string(kPrelude) +
                  "@triton.testing.perf_report(triton.testing.Benchmark(x_names=['size'], x_vals=[2**i for i in range(2, 5)], line_arg='provider',\n"
                  "    line_vals=['a', 'b'], line_names=['A', 'B'], styles=[('blue', '-'), ('green', '--')], ylabel='GB/s', plot_name='demo', args={'k': 2}))\n"
                  "def bench(size, provider, k):\n    v = size * k if provider == 'a' else size / 3\n    return v, v - 1, v + 1\n"
                  "bench.run(print_data=True, show_plots=True, save_path='" + dir + "')\n");
  ASSERT_TRUE(r.ok) << r.traceback;
  // On the simulator the times are the CPU's: the table says so in its title line.
  EXPECT_EQ(r.out,
            "demo (simulated: CPU times, not GPU figures):\n"
            "   size     A         B\n"
            "0   4.0   8.0  1.333333\n"
            "1   8.0  16.0  2.666667\n"
            "2  16.0  32.0  5.333333\n");
  std::ifstream csv(dir + "/demo.csv");
  std::stringstream text;
  text << csv.rdbuf();
  EXPECT_EQ(text.str(), "size,A,B\n4.000000,8.000000,1.333333\n8.000000,16.000000,2.666667\n16.000000,32.000000,5.333333\n");
  EXPECT_NE(r.displayMime.find("application/vnd.tilescope.benchmark+json"), std::string::npos);
  EXPECT_NE(r.displayJson.find("\"y_min\":[7.0,15.0,31.0]"), std::string::npos) << r.displayJson;
  EXPECT_NE(r.displayJson.find("\"simulated\":true"), std::string::npos) << r.displayJson;
  std::filesystem::remove_all(dir);
}
TEST(HostTriton, PandasStyleFloatColumns) {
  using tilescope::host::BenchmarkRunner;
  EXPECT_EQ(BenchmarkRunner::formatFloatColumn({4096.0, 8192.0}), (std::vector<std::string>{"4096.0", "8192.0"}));
  EXPECT_EQ(BenchmarkRunner::formatFloatColumn({8.0, 15.999999}), (std::vector<std::string>{"8.000000", "15.999999"}));
  EXPECT_EQ(BenchmarkRunner::formatFloatColumn({0.5, 0.25}), (std::vector<std::string>{"0.50", "0.25"}));
}
TEST(HostTriton, KernelLaunchReturnsNone) { EXPECT_EQ(runPy(std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=4)", true).result, ""); }
TEST(HostTriton, TraceDirReceivesOneFilePerLaunch) {
  const std::string dir = (std::filesystem::temp_directory_path() / "tilescope_trace_test").string();
  std::filesystem::remove_all(dir);
  tilescope::host::HostExecutor ex;
  ex.launchSettings().traceDir = dir;
  PyRun r = runPy(ex, std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=4)\n");
  ASSERT_TRUE(r.ok) << r.traceback;
  EXPECT_TRUE(std::filesystem::exists(dir + "/1-add_kernel.tstrace"));
  std::filesystem::remove_all(dir);
}
TEST(HostTriton, BadPidFilterIsValueError) {
  tilescope::host::HostExecutor ex;
  ex.launchSettings().pidFilter = "pid_7 > x";
  PyRun r = runPy(ex, std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=4)\n");
  EXPECT_EQ(r.errorName, "ValueError");
}
// --backend gpu with and without a device: one test each, the other skipped, so the result says
// which branch ran.
namespace {
PyRun addOnTheGpuBackend() {
  tilescope::host::HostExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  return runPy(ex, std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel[(1,)](x, x, x, 4, BLOCK_SIZE=4)\nprint(x.tolist())\n");
}
}  // namespace
TEST(HostTriton, GpuBackendRunsOnTheGpu) {
  if (!tilescope::gpu::GpuRuntime::instance().available())
    GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();
  const PyRun r = addOnTheGpuBackend();
  EXPECT_TRUE(r.ok) << r.errorValue;
  EXPECT_EQ(r.out, "[2.0, 2.0, 2.0, 2.0]\n");
}
TEST(HostTriton, GpuBackendWithoutAGpuSaysWhyNot) {
  if (tilescope::gpu::GpuRuntime::instance().available()) GTEST_SKIP() << "a CUDA device is present: GpuBackendRunsOnTheGpu covers it";
  const PyRun r = addOnTheGpuBackend();
  EXPECT_EQ(r.errorName, "RuntimeError");
  EXPECT_EQ(r.errorValue.rfind("--backend gpu needs a CUDA device: ", 0), 0u) << r.errorValue;
  EXPECT_NE(r.errorValue.find("run with --backend sim or auto"), std::string::npos) << r.errorValue;
}

// What Triton's tutorials ask of the active driver, as they ask it (01 vector add, 02 fused softmax,
// 03 matmul): the torch device, the target, the device's properties.
TEST(HostTriton, TheTutorialsDriverQueriesWork) {
  const std::string out = tritonOut(
      "from triton.runtime import driver\n"
      "DEVICE = triton.runtime.driver.active.get_active_torch_device()\n"
      "x = torch.ones(4, device=DEVICE)\n"
      "print(DEVICE, x.device, driver.active is triton.runtime.driver.active)\n"
      "target = triton.runtime.driver.active.get_current_target()\n"
      "print(target.backend, target.warp_size, target.arch >= 70)\n"
      "props = driver.active.utils.get_device_properties(DEVICE.index)\n"
      "print(sorted(props.keys()), props['max_num_regs'], props['warpSize'], props['multiprocessor_count'] > 0,\n"
      "      props['max_shared_mem'] >= 49152)\n"
      "print(driver.active.get_current_device(), driver.active.get_device_interface().device_count())\n");
  EXPECT_EQ(out, "cuda:0 cuda:0 True\ncuda 32 True\n"
                 "['max_num_regs', 'max_shared_mem', 'multiprocessor_count', 'warpSize'] 65536 32 True True\n0 1\n");
}

// A kernel parameter named like a launch option (the fused-softmax tutorial's `num_stages:
// tl.constexpr`) receives the value, which is also the launch option, as in Triton.
TEST(HostTriton, ALaunchOptionThatIsAlsoAParameterReachesTheKernel) {
  EXPECT_EQ(pyOut(std::string(kPrelude) +
                  "@triton.jit\n"
                  "def k(out_ptr, num_stages: tl.constexpr):\n"
                  "    for i in tl.range(0, 4, 1, num_stages=num_stages):\n"
                  "        tl.store(out_ptr + i, num_stages * 10 + i)\n"
                  "out = torch.zeros(4, dtype=torch.int32)\n"
                  "k[(1,)](out, num_stages=3, num_warps=2)\n"
                  "print(out)\n"),
            "tensor([30, 31, 32, 33], dtype=torch.int32)\n");
}

// Triton's fused-softmax tutorial sizes its persistent grid from a warmed-up kernel's registers and
// shared memory, then launches the compiled kernel with every parameter positionally.
TEST(HostTriton, WarmupReportsResourcesAndTheCompiledKernelLaunches) {
  if (!tilescope::gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not found: " << tilescope::gpu::Nvrtc::instance().unavailableReason();
  const PyRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float('inf'))
        num = tl.exp(row - tl.max(row, axis=0))
        tl.store(output_ptr + row_idx * output_row_stride + col_offsets, num / tl.sum(num, axis=0), mask=mask)

x = torch.randn(37, 300)
y = torch.empty_like(x)
kernel = softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), 37, 300, BLOCK_SIZE=512, num_stages=2, num_warps=8, grid=(1, ))
kernel._init_handles()
print(0 < kernel.n_regs <= 255, kernel.n_spills, kernel.metadata.shared > 0, kernel.metadata.num_warps, kernel.metadata.num_stages, kernel.name)
occupancy = min(65536 // (kernel.n_regs * 32 * 8), 232448 // kernel.metadata.shared)
kernel[(min(5 * occupancy, 37), 1, 1)](y, x, x.stride(0), y.stride(0), 37, 300, 512, 2)
print(torch.allclose(y, torch.softmax(x, axis=1), atol=1e-6))
cuda, ptx = kernel.asm['cuda'], kernel.asm['ptx']
print(sorted(kernel.asm.keys()), 'void __launch_bounds__(256) ts_softmax_kernel(' in cuda, '.entry ts_softmax_kernel(' in ptx)
)");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback;
  EXPECT_EQ(r.out, "True 0 True 8 2 softmax_kernel\nTrue\n['cuda', 'ptx'] True True\n");
  EXPECT_EQ(pyError(std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel.warmup(x, x, x, 4, BLOCK_SIZE=4)"),
            "TypeError: warmup() missing required keyword argument 'grid'");
}

// The race check knows Triton's spin-lock idiom (layer-norm backward's partial sums): stores made
// while holding the same lock are ordered by it; the same stores without the lock, or after it is
// released, are still races.
TEST(HostTriton, StoresUnderOneSpinLockAreNotRaces) {
  const std::string kernel = R"(
@triton.jit
def accumulate(Acc, Lock, LOCKED: tl.constexpr, RELEASE_FIRST: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, 8)
    if LOCKED:
        while tl.atomic_cas(Lock, 0, 1) == 1:
            pass
        if RELEASE_FIRST:
            tl.atomic_xchg(Lock, 0)
    acc = tl.load(Acc + offs)
    tl.store(Acc + offs, acc + pid + 1)
    if LOCKED and not RELEASE_FIRST:
        tl.debug_barrier()
        tl.atomic_xchg(Lock, 0)

def run(locked, release_first):
    acc = torch.zeros(8, dtype=torch.int32)
    lock = torch.zeros(1, dtype=torch.int32)
    accumulate[(6,)](acc, lock, LOCKED=locked, RELEASE_FIRST=release_first)
    return acc.tolist() == [21] * 8
)";
  const std::string race = "were written by more than one program";
  PyRun r = runPy(std::string(kPrelude) + kernel + "print(run(True, False))");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback;
  EXPECT_EQ(r.out, "True\n");
  EXPECT_EQ(r.err.find(race), std::string::npos) << r.err;
  for (const char* unprotected : {"run(False, False)", "run(True, True)"}) {
    r = runPy(std::string(kPrelude) + kernel + unprotected);
    ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback;
    EXPECT_NE(r.err.find(race), std::string::npos) << unprotected << "\n" << r.err;
  }
}

// CUDA's libdevice as kernels reach it: tl.extra.cuda.libdevice, and the imports of both spellings.
TEST(HostTriton, LibdeviceFunctionsAreTheMatchingTlBuiltins) {
  const PyRun r = runPy(std::string(kPrelude) + R"(
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice

@triton.jit
def k(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.extra.cuda.libdevice.tanh(x) + libdevice.fabs(x) + cuda_libdevice.fmax(x, 0.25) + libdevice.sqrt(libdevice.fabs(x))
    tl.store(Y + offs, y)

x = torch.linspace(-1, 1, 8)
y = torch.empty(8)
k[(1,)](x, y, N=8)
ref = torch.tanh(x) + x.abs() + torch.maximum(x, torch.tensor(0.25)) + x.abs().sqrt()
print(torch.allclose(y, ref, atol=1e-6), x[0].item(), x[7].item(), abs(x[3].item() - (-1 + 3 * 2 / 7)) < 1e-7, x.dtype)
)");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback;
  // linspace ends exactly on its bounds.
  EXPECT_EQ(r.out, "True -1.0 1.0 True torch.float32\n");
}

// tl.join / tl.split / tl.interleave, bit for bit (-0.0 and NaN survive a split), for floats, bools
// and scalars.
TEST(HostTriton, JoinSplitAndInterleave) {
  const PyRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def k(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    a, b = tl.split(tl.reshape(x, (N // 2, 2)))
    tl.store(Y + offs, tl.reshape(tl.join(b, a), (N,)))
    tl.store(Z + offs, tl.interleave(a * 10, b))

@triton.jit
def flags(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    p, q = tl.split(tl.reshape(tl.load(X + offs) > 0, (N // 2, 2)))
    tl.store(Y + tl.arange(0, N // 2), (p & ~q).to(tl.int8))

@triton.jit
def scalars(X, Y):
    a, b = tl.split(tl.join(tl.load(X), tl.load(X + 1)))
    tl.store(Y, b)
    tl.store(Y + 1, a)

x = torch.tensor([0.0, -0.0, 1.5, float('nan'), -2.0, 3.0, 4.0, 5.0])
y = torch.empty(8)
z = torch.empty(8)
k[(1,)](x, y, z, N=8)
print(y.tolist(), z.tolist())
f = torch.empty(4, dtype=torch.int8)
flags[(1,)](torch.tensor([1, 0, 1, 1, 0, 1, 0, 0], dtype=torch.int32), f, N=8)
s = torch.empty(2, dtype=torch.int16)
scalars[(1,)](torch.tensor([7, 9], dtype=torch.int16), s)
print(f.tolist(), s.tolist())
)");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback;
  EXPECT_EQ(r.out, "[-0.0, 0.0, nan, 1.5, 3.0, -2.0, 5.0, 4.0] [0.0, -0.0, 15.0, nan, -20.0, 3.0, 40.0, 5.0]\n[1, 0, 0, 0] [9, 7]\n");
}

// Block pointers (tl.make_block_ptr / tl.advance) as Triton's block-pointer matmul uses them: the
// K loop carries them, boundary_check masks the ragged edges (K = 72 is not a multiple of BK),
// padding_option fills what lies outside, and a block pointer can go into a helper.
TEST(HostTriton, BlockPointersLoadAdvanceAndStoreWithBoundaryChecks) {
  PyRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def load_block(bp):
    return tl.load(bp, boundary_check=(0, 1), padding_option="zero")

@triton.jit
def bp_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak), offsets=(pid_m * BM, 0),
                             block_shape=(BM, BK), order=(1, 0))
    b_bp = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn), offsets=(0, pid_n * BN),
                             block_shape=(BK, BN), order=(0, 1))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(load_block(a_bp), load_block(b_bp), input_precision="ieee")
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn), offsets=(pid_m * BM, pid_n * BN),
                             block_shape=(BM, BN), order=(1, 0))
    tl.store(c_bp, acc, boundary_check=(0, 1))

@triton.jit
def padded(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x_bp = tl.make_block_ptr(x_ptr, (n,), (1,), (tl.program_id(0) * BLOCK,), (BLOCK,), (0,))
    x = tl.load(x_bp, boundary_check=(0,), padding_option="nan")
    tl.store(y_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), x)

torch.manual_seed(0)
M, N, K = 50, 40, 72
a = torch.randn((M, K))
b = torch.randn((N, K)).t()  # column-major B: strides (1, K)
c = torch.full((M, N), 5.0)
bp_matmul[(triton.cdiv(M, 32), triton.cdiv(N, 32))](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                                     c.stride(0), c.stride(1), BM=32, BN=32, BK=16)
print((c.double() - a.double() @ b.double()).abs().max().item() < 1e-4)

x = torch.arange(100, dtype=torch.float32)
y = torch.zeros(128)
padded[(2,)](x, y, 100, BLOCK=64)
print(torch.equal(y[:100], x), torch.isnan(y[100:]).all().item())
)");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True\nTrue True\n");
}

// tl.flip, tl.sort (bitonic, ascending and descending, with ties) and tl.cat, against torch's.
TEST(HostTriton, FlipSortAndCatMatchTorch) {
  PyRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def reorder(x_ptr, flip_ptr, flip0_ptr, sort_ptr, sortd_ptr, cat_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(flip_ptr + offs, tl.flip(x, 1))
    tl.store(flip0_ptr + offs, tl.flip(x, dim=0))
    tl.store(sort_ptr + offs, tl.sort(x))
    tl.store(sortd_ptr + offs, tl.sort(x, descending=True))
    c = tl.cat(x, x * 2, can_reorder=True)
    tl.store(cat_ptr + tl.arange(0, 2 * R)[:, None] * C + tl.arange(0, C)[None, :], c)

torch.manual_seed(0)
for dtype in [torch.float32, torch.int32, torch.float16]:
    R, C = 4, 16
    x = (torch.randn(R, C) * 10).to(dtype)
    x[0, :4] = x[0, 4:8]
    outs = [torch.empty(R, C, dtype=dtype) for _ in range(4)]
    cat = torch.empty(2 * R, C, dtype=dtype)
    reorder[(1,)](x, *outs, cat, R=R, C=C)
    print(torch.equal(outs[0], x.flip(1)), torch.equal(outs[1], x.flip(0)),
          torch.equal(outs[2], torch.sort(x, dim=1).values), torch.equal(outs[3], torch.sort(x, dim=1, descending=True).values),
          torch.equal(cat, torch.cat([x, x * 2], 0)))
)");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True True True\nTrue True True True True\nTrue True True True True\n");
}

// tl.topk: the k largest along the last dim, largest first (torch.topk's values); k = n is the
// descending sort; -0.0 keeps its sign.
TEST(HostTriton, TopkMatchesTorch) {
  PyRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def top(x_ptr, t4_ptr, t1_ptr, t16_ptr, R: tl.constexpr, C: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])
    tl.store(t4_ptr + tl.arange(0, R)[:, None] * 4 + tl.arange(0, 4)[None, :], tl.topk(x, 4))
    tl.store(t1_ptr + tl.arange(0, R)[:, None] + tl.arange(0, 1)[None, :], tl.topk(x, 1, dim=1))
    tl.store(t16_ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :], tl.topk(x, C))

torch.manual_seed(4)
for dtype in [torch.float32, torch.int32, torch.float16]:
    R, C = 4, 16
    x = (torch.randn(R, C) * 10).to(dtype)
    x[1, :3] = x[1, 5]  # ties
    t4 = torch.empty(R, 4, dtype=dtype); t1 = torch.empty(R, 1, dtype=dtype); t16 = torch.empty(R, C, dtype=dtype)
    top[(1,)](x, t4, t1, t16, R=R, C=C)
    print(torch.equal(t4, torch.topk(x, 4, dim=1).values), torch.equal(t1, x.max(dim=1, keepdim=True).values),
          torch.equal(t16, torch.sort(x, dim=1, descending=True).values))
z = -torch.zeros(1, 16)
z[0, 0] = -1.0
t4 = torch.empty(1, 4); t1 = torch.empty(1, 1); t16 = torch.empty(1, 16)
top[(1,)](z, t4, t1, t16, R=1, C=16)
print((1.0 / t4 == float('-inf')).all().item(), (t4 == 0).all().item())
)");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True\nTrue True True\nTrue True True\nTrue True\n");
}

// tl.reduce and tl.associative_scan with user combine functions that are one operation (a + b,
// tl.maximum, a * b): results as torch's, in the input's dtype (int8 wraps).
TEST(HostTriton, ReduceAndScanWithCombineFunctions) {
  PyRun r = runPy(std::string(kPrelude) + R"(

@triton.jit
def add(a, b):
    return a + b


@triton.jit
def mul(x, y):
    "product"
    return y * x


@triton.jit
def bigger(a, b):
    return tl.maximum(a, b)


@triton.jit
def k(x_ptr, i_ptr, s_ptr, m_ptr, c_ptr, p_ptr, x8_ptr, s8_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(s_ptr, tl.reduce(x, 0, add))
    tl.store(m_ptr, tl.reduce(x, axis=0, combine_fn=bigger))
    tl.store(c_ptr + offs, tl.associative_scan(x, 0, add))
    tl.store(p_ptr + offs, tl.associative_scan(x, 0, mul, reverse=True))
    x8 = tl.load(x8_ptr + offs)
    tl.store(s8_ptr, tl.reduce(x8, 0, add))


x = torch.rand(16) + 0.5
x8 = torch.arange(16, dtype=torch.int8) * 20
s = torch.empty(1); m = torch.empty(1); c = torch.empty(16); p = torch.empty(16); s8 = torch.empty(1, dtype=torch.int8)
k[(1,)](x, None, s, m, c, p, x8, s8, N=16)
print(torch.allclose(s, x.sum()), m.item() == x.max().item(), torch.allclose(c, x.cumsum(0)),
      torch.allclose(p, x.flip(0).cumprod(0).flip(0)), s8.dtype, s8.item() == ((x8.int().sum().item() + 128) % 256) - 128)
)");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True True torch.int8 True\n");
}

// tl.gather along either axis (bit for bit: -0.0 survives) and tl.histogram with and without a mask.
TEST(HostTriton, GatherAndHistogramMatchTorch) {
  PyRun r = runPy(std::string(kPrelude) + R"(

@triton.jit
def k(src_ptr, idx_ptr, out_ptr, out2_ptr, h_ptr, hm_ptr, R: tl.constexpr, C: tl.constexpr, B: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    src = tl.load(src_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(src, idx % C, 1))
    tl.store(out2_ptr + offs, tl.gather(src, idx % R, axis=0))
    tl.store(h_ptr + tl.arange(0, B), tl.histogram(idx, B))
    tl.store(hm_ptr + tl.arange(0, B), tl.histogram(idx, B, mask=idx < 5))


R, C, B = 8, 16, 16
src = torch.randn(R, C)
src[0, 0] = -0.0
idx = torch.randint(0, 20, (R, C), dtype=torch.int32)
out = torch.empty(R, C); out2 = torch.empty(R, C)
h = torch.empty(B, dtype=torch.int32); hm = torch.empty(B, dtype=torch.int32)
k[(1,)](src, idx, out, out2, h, hm, R=R, C=C, B=B)
ref_h = torch.tensor([(idx == b).sum().item() for b in range(B)], dtype=torch.int32)
ref_hm = torch.tensor([(idx == b).sum().item() if b < 5 else 0 for b in range(B)], dtype=torch.int32)
print(torch.equal(out, torch.gather(src, 1, (idx % C).long())), torch.equal(out2, torch.gather(src, 0, (idx % R).long())),
      torch.equal(h, ref_h), torch.equal(hm, ref_hm))
)");
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True True\n");
}
