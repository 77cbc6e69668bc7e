// The stream GPU launches go on (core/python/TorchStream as gpu::LaunchStream's source): installed
// PyTorch's current stream of device 0, read at each launch through torch._C._cuda_getCurrentRawStream;
// the null stream with the built-in torch. An installed PyTorch is played here by a module in
// sys.modules whose accessor returns made-up handles (launching on them needs a GPU: tests/gpu's
// GpuTorchStreamTest runs the real thing).
#include <gtest/gtest.h>

#include <cstdint>

#include "core/gpu/runtime/LaunchStream.h"
#include "core/python/TorchStream.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::gpu::LaunchStream;
using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

uintptr_t currentStream() { return reinterpret_cast<uintptr_t>(LaunchStream::current()); }

}  // namespace

TEST(EmbeddedTorchStream, TheBuiltinTorchKeepsTheNullStream) {
  PythonExecutor executor;
  ASSERT_TRUE(runPython(executor, "import torch\ns = torch.cuda.Stream()\ntorch.cuda.set_stream(s)\n").ok());
  tilescope::python::installTorchStreamSource();
  EXPECT_EQ(currentStream(), 0u);
  EXPECT_EQ(currentStream(), 0u);
}

TEST(EmbeddedTorchStream, LaunchesFollowInstalledPyTorchsCurrentStreamOfDevice0) {
  PythonExecutor executor;
  const auto setUp = runPython(executor, R"(
import sys, types
saved_torch = sys.modules.get("torch")
stand_in = types.ModuleType("torch")
stand_in._C = types.SimpleNamespace()
current = {0: 0x5000, 1: 0x6000}
asked = []
def raw_stream(device):
    asked.append(device)
    return current[device]
stand_in._C._cuda_getCurrentRawStream = raw_stream
sys.modules["torch"] = stand_in
)");
  ASSERT_TRUE(setUp.ok()) << setUp.traceback;
  tilescope::python::installTorchStreamSource();
  EXPECT_EQ(currentStream(), 0x5000u);
  // set_stream between launches: the next launch reads the new stream.
  ASSERT_TRUE(runPython(executor, "current[0] = 0x7000\n").ok());
  EXPECT_EQ(currentStream(), 0x7000u);
  const auto asked = runPython(executor, R"(
print(asked)
current[0] = 0  # the null stream, should anything launch before the source goes
if saved_torch is None:
    del sys.modules["torch"]
else:
    sys.modules["torch"] = saved_torch
)");
  ASSERT_TRUE(asked.ok()) << asked.traceback;
  EXPECT_EQ(asked.out, "[0, 0]\n");
  LaunchStream::setSource(nullptr);  // later tests in this process launch on the null stream
}
