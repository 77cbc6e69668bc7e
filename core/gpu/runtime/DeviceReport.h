#pragma once
// The one-paragraph answer to "what will my kernels run on?", shown by `tilescope-cli devices` and
// the GUI's status bar.
#include <string>

namespace tilescope::gpu {

struct DeviceReport {
  bool gpuAvailable = false;
  std::string gpuSummary;    // "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.6 GiB)" or the reason
  bool nvrtcAvailable = false;
  std::string nvrtcSummary;  // "NVRTC 13.0 (/usr/local/cuda/lib/libnvrtc.so.13)" or the reason

  static DeviceReport probe();
  // One line for the status bar.
  std::string statusLine() const;
  // With a GPU and NVRTC, starts the compiler's warm-up and the CUDA context's creation on background
  // threads (once per process), so the first kernel run pays for neither.
  void warmUp() const;
  // Several lines for the CLI.
  std::string text() const;
};

}  // namespace tilescope::gpu
