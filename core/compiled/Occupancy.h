#pragma once
// How many programs (CTAs) of a kernel fit on one SM of a target at once, and which limit binds:
// the CUDA occupancy calculator's rules (register allocation per warp in units of 256, shared
// memory per SM less 1 KiB reserved per block from sm_80 on, warp and block slots per SM).
#include <string>

namespace tilescope::compiled {

struct SmLimits {
  int computeCapability = 90;  // 90 for sm_90
  int maxWarps = 64;
  int maxBlocks = 32;
  int registers = 65536;
  int maxRegistersPerThread = 255;
  int sharedBytes = 233472;       // usable per SM (228 KiB on sm_90)
  int reservedSharedPerBlock = 1024;
};

// The limits of "sm_90", "sm_90a", "compute_80" (the nearest known architecture at or below it).
SmLimits smLimitsFor(const std::string& arch);

struct Occupancy {
  int blocksPerSm = 0;
  int warpsPerSm = 0;
  int maxWarpsPerSm = 0;
  std::string limitedBy;  // "registers", "shared memory", "warps", "blocks"
  double fraction() const { return maxWarpsPerSm > 0 ? static_cast<double>(warpsPerSm) / maxWarpsPerSm : 0.0; }
  std::string str() const;  // "2 programs (8 of 64 warps, 13%) per SM, limited by registers"
};

Occupancy occupancyFor(const SmLimits& sm, int threadsPerBlock, int registersPerThread, int sharedBytesPerBlock);

}  // namespace tilescope::compiled
