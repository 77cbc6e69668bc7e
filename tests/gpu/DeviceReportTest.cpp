#include <gtest/gtest.h>

#include "core/gpu/CudaDriver.h"
#include "core/gpu/DeviceReport.h"
#include "core/gpu/Nvrtc.h"

using namespace tilescope::gpu;

TEST(DeviceReport, SaysPlainlyWhichBackendsExist) {
  const DeviceReport report = DeviceReport::probe();
  const std::string text = report.text();
  EXPECT_NE(text.find("GPU:   "), std::string::npos);
  EXPECT_NE(text.find("NVRTC: "), std::string::npos);
  if (report.gpuAvailable) {
    EXPECT_NE(report.statusLine().find("sm_"), std::string::npos);
  } else {
    EXPECT_EQ(report.statusLine().rfind("No CUDA device - simulator mode", 0), 0u) << report.statusLine();
    EXPECT_NE(report.gpuSummary.find("("), std::string::npos) << "the reason must be given";
  }
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

TEST(CudaDriver, EnumeratesTheLentGpu) {
  const CudaDriver& driver = CudaDriver::instance();
  if (!driver.available()) GTEST_SKIP() << "no CUDA device: " << driver.unavailableReason();
  ASSERT_FALSE(driver.devices().empty());
  const GpuDeviceInfo& dev = driver.devices().front();
  EXPECT_FALSE(dev.name.empty());
  EXPECT_GE(dev.computeMajor * 10 + dev.computeMinor, 75);
  EXPECT_GT(dev.multiprocessors, 0);
  EXPECT_GT(dev.totalMemoryBytes, size_t{1} << 30);
}
