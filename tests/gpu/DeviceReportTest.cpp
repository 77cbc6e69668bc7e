// What the device report says about the GPU and NVRTC, and NVRTC compiling without a GPU. GpuDevice
// tests need a CUDA device (ctest label gpu); the others run without one (label nvrtc).
#include <gtest/gtest.h>

#include "core/gpu/runtime/CudaDriver.h"
#include "core/gpu/runtime/DeviceReport.h"
#include "core/gpu/runtime/Nvrtc.h"

using namespace tilescope::gpu;

// The report has a GPU branch and a no-GPU branch: one test each, the other skipped, so the result
// says which one ran.
TEST(DeviceReport, WithoutAGpuSaysSimulatorModeAndWhy) {
  const DeviceReport report = DeviceReport::probe();
  if (report.gpuAvailable) GTEST_SKIP() << "a CUDA device is present: GpuDevice.ReportNamesTheGpuAndItsArch covers it";
  const std::string text = report.text();
  EXPECT_NE(text.find("GPU:   "), std::string::npos);
  EXPECT_NE(text.find("NVRTC: "), std::string::npos);
  EXPECT_EQ(report.statusLine().rfind("No CUDA device - simulator mode", 0), 0u) << report.statusLine();
  EXPECT_NE(report.gpuSummary.find("("), std::string::npos) << "the reason must be given";
}

TEST(GpuDevice, ReportNamesTheGpuAndItsArch) {
  const DeviceReport report = DeviceReport::probe();
  if (!report.gpuAvailable) GTEST_SKIP() << "no CUDA device: " << CudaDriver::instance().unavailableReason();
  const std::string text = report.text();
  EXPECT_NE(text.find("GPU:   "), std::string::npos);
  EXPECT_NE(text.find("NVRTC: "), std::string::npos);
  EXPECT_NE(report.statusLine().find("sm_"), std::string::npos) << report.statusLine();
}

TEST(Nvrtc, CompilesCudaToPtxWithoutAGpu) {
  const Nvrtc& nvrtc = Nvrtc::instance();
  if (!nvrtc.available()) GTEST_SKIP() << "NVRTC not available: " << nvrtc.unavailableReason();
  const std::string source =
      "extern \"C\" __global__ void scale(float* x, float a, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) x[i] *= a;\n"
      "}\n";
  const NvrtcOutput out = nvrtc.compileToPtx(source, "scale.cu", "sm_90");
  ASSERT_TRUE(out.ok) << out.error << "\n" << out.log;
  EXPECT_NE(out.ptx.find(".target sm_90"), std::string::npos);
  EXPECT_NE(out.ptx.find(".entry scale"), std::string::npos);
}

TEST(Nvrtc, ReportsCompileErrorsWithTheLog) {
  const Nvrtc& nvrtc = Nvrtc::instance();
  if (!nvrtc.available()) GTEST_SKIP() << "NVRTC not available: " << nvrtc.unavailableReason();
  const NvrtcOutput out = nvrtc.compileToPtx("__global__ void k() { undefined_name = 1; }\n", "bad.cu", "sm_80");
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.log.find("undefined_name"), std::string::npos) << out.log;
}

TEST(GpuDevice, DriverEnumeratesTheLentGpu) {
  const CudaDriver& driver = CudaDriver::instance();
  if (!driver.available()) GTEST_SKIP() << "no CUDA device: " << driver.unavailableReason();
  ASSERT_FALSE(driver.devices().empty());
  const GpuDeviceInfo& dev = driver.devices().front();
  EXPECT_FALSE(dev.name.empty());
  EXPECT_GE(dev.computeMajor * 10 + dev.computeMinor, 75);
  EXPECT_GT(dev.multiprocessors, 0);
  EXPECT_GT(dev.totalMemoryBytes, size_t{1} << 30);
}
