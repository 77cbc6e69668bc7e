#pragma once
// What the GPU passes may depend on: the GPU the kernel is compiled for.
namespace tilescope::gpu::passes {

struct GpuTarget {
  int smArch = 80;            // compute capability times ten
  bool archSpecific = false;  // sm_90a and the like
  bool tma = true;            // sm_90a's pipelined wgmma loops may copy descriptor boxes with TMA
};

}  // namespace tilescope::gpu::passes
