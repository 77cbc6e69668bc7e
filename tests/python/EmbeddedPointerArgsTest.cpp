// Pointer arguments that are not the built-in torch's tensors, as Triton takes them: objects with
// data_ptr() (and a dtype), __array_interface__ (NumPy), __dlpack__; the simulator uses their memory
// in place (core/python/PointerArguments).
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

const char* kKernel = R"(import ctypes, torch, triton
import triton.language as tl

@triton.jit
def scale(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = i < n
    tl.store(out_ptr + i, tl.load(x_ptr + i, mask=keep) * factor, mask=keep)
)";

}  // namespace

TEST(EmbeddedPointerArgs, ObjectsWithDataPtrAreUsedInPlace) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kKernel) + R"(
class Buffer:
    """Host memory with Triton's pointer protocol: data_ptr() and dtype (and its extent)."""
    def __init__(self, values):
        self.raw = (ctypes.c_float * len(values))(*values)
        self.dtype = torch.float32
        self.device = "cpu"
        self.nbytes = ctypes.sizeof(self.raw)
    def data_ptr(self):
        return ctypes.addressof(self.raw)

x = Buffer([1, 2, 3, 4, 5])
out = Buffer([0] * 5)
scale[(1,)](x, out, 5, 3.0, BLOCK=8)
print(list(out.raw))
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "[3.0, 6.0, 9.0, 12.0, 15.0]\n");
}

TEST(EmbeddedPointerArgs, ArrayInterfaceObjectsAreReadAndWrittenInPlace) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kKernel) + R"(
class Array:
    """NumPy's array interface, without NumPy."""
    def __init__(self, values):
        self.raw = (ctypes.c_float * len(values))(*values)
        self.__array_interface__ = {"version": 3, "typestr": "<f4", "shape": (len(values),), "strides": None,
                                    "data": (ctypes.addressof(self.raw), False)}

x = Array([1, 2, 3])
out = Array([0, 0, 0])
scale[(1,)](x, out, 3, -1.0, BLOCK=4)
print(list(out.raw))
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "[-1.0, -2.0, -3.0]\n");
}

TEST(EmbeddedPointerArgs, NumPyArraysAndDLPackWork) {
  PythonExecutor executor;
  if (!runPython(executor, "import numpy").ok()) GTEST_SKIP() << "NumPy is not installed (python3-numpy)";
  const auto run = runPython(executor, std::string(kKernel) + R"(
import numpy as np
x = np.arange(6, dtype=np.float32)
out = np.zeros(6, dtype=np.float32)
scale[(1,)](x, out, 6, 2.0, BLOCK=8)
print(out.tolist())

class OnlyDLPack:
    def __init__(self, a):
        self.a = a
    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()
    def __dlpack_device__(self):
        return self.a.__dlpack_device__()

out2 = np.zeros(6, dtype=np.float32)
scale[(1,)](OnlyDLPack(x), OnlyDLPack(out2), 6, 0.5, BLOCK=8)
print(out2.tolist())
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "[0.0, 2.0, 4.0, 6.0, 8.0, 10.0]\n[0.0, 0.5, 1.0, 1.5, 2.0, 2.5]\n");
}

TEST(EmbeddedPointerArgs, TheSimulatorChecksBoundsOfBorrowedMemory) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kKernel) + R"(
class Array:
    def __init__(self, n):
        self.raw = (ctypes.c_float * n)()
        self.__array_interface__ = {"version": 3, "typestr": "<f4", "shape": (n,), "data": (ctypes.addressof(self.raw), False)}

scale[(1,)](Array(4), Array(4), 8, 1.0, BLOCK=8)
)");
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.traceback.find("out-of-bounds load in kernel 'scale'"), std::string::npos) << run.traceback;
}

TEST(EmbeddedPointerArgs, ADataPtrWithoutAnExtentSaysWhatToAdd) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kKernel) + R"(
class Bare:
    dtype = torch.float32
    device = "cpu"
    def data_ptr(self):
        return 4096

scale[(1,)](Bare(), Bare(), 4, 1.0, BLOCK=4)
)");
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.traceback.find("TypeError: kernel parameter 'x_ptr': tilescope needs the extent"), std::string::npos)
      << run.traceback;
  EXPECT_NE(run.traceback.find("nbytes"), std::string::npos) << run.traceback;
}
