#include <cstdio>

#include "app/cli/Commands.h"
#include "core/gpu/runtime/DeviceReport.h"

namespace tilescope::cli {

// Exit 0 with or without a GPU: "no GPU" is a fact to report, not a failure.
int runDevices(const Args& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::printf("usage: tilescope-cli devices\n\nPrints the CUDA device and NVRTC tilescope would use.\n");
    return 0;
  }
  std::fputs(gpu::DeviceReport::probe().text().c_str(), stdout);
  return 0;
}

}  // namespace tilescope::cli
