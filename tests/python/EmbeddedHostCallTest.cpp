// Host calls from kernels on embedded CPython: a kernel calling a plain Python function runs it once per
// program with its tiles, printing them as Triton's interpreter (TRITON_INTERPRET=1) does; the tiles index, compare
// and convert like one-dimensional arrays, and an error in the function stops the launch with its type.
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

const char* kHostCallCode =
    "import torch, triton\n"
    "import triton.language as tl\n"
    "def show(txt, tag):\n"
    "    print(txt, tag)\n"
    "def first_program(pid_0):\n"
    "    if pid_0[0] == 0 and len(pid_0) == 1 and int(pid_0) < 1 and pid_0.tolist() == [0]:\n"
    "        print('first', pid_0.shape, f'{pid_0}')\n"
    "@triton.jit\n"
    "def k(x_ptr, n, bs: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * bs + tl.arange(0, bs)\n"
    "    mask = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask)\n"
    "    show(f'pid = {pid} | offs = {offs}, mask = {mask}, x = {x}', 'tag')\n"
    "    first_program(pid)\n"
    "x = torch.tensor([1.5, 2, 3, 4, 5, 6])\n"
    "k[(3,)](x, 6, bs=4)\n";

}  // namespace

TEST(EmbeddedHostCall, KernelsCallPythonFunctionsPerProgramWithNumPyLikeTiles) {
  PythonExecutor embedded;
  const auto run = runPython(embedded, kHostCallCode, "host_calls.py", false);
  ASSERT_TRUE(run.ok()) << run.traceback;

  EXPECT_EQ(run.out,
            "pid = [0] | offs = [0 1 2 3], mask = [ True  True  True  True], x = [1.5 2.  3.  4. ] tag\n"
            "first (1,) [0]\n"
            "pid = [1] | offs = [4 5 6 7], mask = [ True  True False False], x = [5. 6. 0. 0.] tag\n"
            "pid = [2] | offs = [ 8  9 10 11], mask = [False False False False], x = [0. 0. 0. 0.] tag\n");
  EXPECT_NE(run.out.find("pid = [1] | offs = [4 5 6 7], mask = [ True  True False False], x = [5. 6. 0. 0.] tag\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("first (1,) [0]\n"), std::string::npos) << run.out;
}

TEST(EmbeddedHostCall, AnErrorInTheFunctionStopsTheLaunchWithItsType) {
  PythonExecutor embedded;
  const auto run = runPython(embedded,
                             "import torch, triton\n"
                             "import triton.language as tl\n"
                             "def check(pid):\n"
                             "    if pid[0] == 1:\n"
                             "        raise KeyError('program one')\n"
                             "@triton.jit\n"
                             "def k(p):\n"
                             "    check(tl.program_id(0))\n"
                             "k[(2,)](torch.zeros(1))\n",
                             "host_error.py", false);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.outcome.errorName, "KeyError");
  EXPECT_NE(run.outcome.errorValue.find("program one"), std::string::npos) << run.outcome.errorValue;
}

TEST(EmbeddedHostCall, TritonUtilsPrintIfRunsInKernels) {
  PythonExecutor embedded;
  const auto run = runPython(embedded,
                             "import torch, triton\n"
                             "import triton.language as tl\n"
                             "from triton_util import print_if, cdiv\n"
                             "@triton.jit\n"
                             "def k(p):\n"
                             "    pid = tl.program_id(0)\n"
                             "    print_if(f'pid {pid}', '=1', pid_0=pid)\n"
                             "k[(cdiv(5, 2),)](torch.zeros(1))\n",
                             "triton_util_calls.py", false);
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "pid [1]\n");
}
