// The one backend rule (host/ExecutionBackend): the user's Simulator / Gpu / Auto resolved to the
// simulator or the CUDA backend. Where a branch depends on this machine's GPU, both are asserted,
// each on its own machine kind (here: no GPU; on the GPU machine: an H100).
#include "core/python/ExecutionBackend.h"

#include <gtest/gtest.h>

#include "core/python/PyError.h"

namespace tilescope::host {
namespace {

TEST(ExecutionBackend, SimulatorIsTheSimulatorEverywhere) {
  const ExecutionBackend& b = resolveBackend(Backend::Simulator);
  EXPECT_FALSE(b.isGpu());
  EXPECT_EQ(b.gpuRuntime(), nullptr);
  EXPECT_STREQ(b.name(), "simulator");
  EXPECT_NO_THROW(b.synchronize("test"));
  EXPECT_FALSE(resolvesToGpu(Backend::Simulator));
}

TEST(ExecutionBackend, AutoTakesTheGpuOnlyWhenOneIsUsable) {
  const ExecutionBackend& b = resolveBackend(Backend::Auto);
  EXPECT_EQ(b.isGpu(), gpuUsable());
  EXPECT_STREQ(b.name(), gpuUsable() ? "gpu" : "simulator");
  EXPECT_EQ(resolvesToGpu(Backend::Auto), gpuUsable());
}

TEST(ExecutionBackend, AutoKeepsTheSimulatorWhenTheCallerNeedsIt) {
  // A trace is recorded only by the simulator.
  EXPECT_FALSE(resolveBackend(Backend::Auto, true).isGpu());
}

TEST(ExecutionBackend, GpuWithoutADeviceSaysWhyAndWhatToRunInstead) {
  if (gpuUsable()) {
    EXPECT_TRUE(resolveBackend(Backend::Gpu).isGpu());
    EXPECT_TRUE(resolveBackend(Backend::Gpu, true).isGpu()) << "an explicit --backend gpu is not overruled";
    EXPECT_TRUE(resolvesToGpu(Backend::Gpu));
    return;
  }
  try {
    resolveBackend(Backend::Gpu);
    FAIL() << "--backend gpu resolved on a machine without a GPU";
  } catch (const PyError& e) {
    EXPECT_EQ(e.type(), "RuntimeError");
    EXPECT_EQ(e.message(), "--backend gpu needs a CUDA device: " + gpuUnusableReason() + "; run with --backend sim or auto");
  }
  EXPECT_FALSE(resolvesToGpu(Backend::Gpu)) << "the non-raising question answers no";
}

// The executor asking the same rule: tests/python/PythonExecutorTest.cpp.

}  // namespace
}  // namespace tilescope::host
