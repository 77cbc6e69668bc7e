#include "core/compiled/Occupancy.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace tilescope::compiled {

SmLimits smLimitsFor(const std::string& arch) {
  int cc = 90;
  const size_t us = arch.find('_');
  if (us != std::string::npos) {
    int v = 0;
    bool any = false;
    for (size_t i = us + 1; i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])); ++i) {
      v = v * 10 + (arch[i] - '0');
      any = true;
    }
    if (any) cc = v;
  }
  SmLimits s;
  s.computeCapability = cc;
  // From the CUDA programming guide's table of compute capabilities.
  if (cc < 80) {  // Turing (sm_75) and older tables are alike enough for a rough figure
    s.maxWarps = 32, s.maxBlocks = 16, s.sharedBytes = 65536, s.reservedSharedPerBlock = 0;
  } else if (cc == 80) {
    s.maxWarps = 64, s.maxBlocks = 32, s.sharedBytes = 167936;
  } else if (cc < 90) {  // sm_86, sm_87, sm_89
    s.maxWarps = 48, s.maxBlocks = cc == 89 ? 24 : 16, s.sharedBytes = cc == 87 ? 167936 : 102400;
  } else if (cc < 120) {  // Hopper, datacenter Blackwell
    s.maxWarps = 64, s.maxBlocks = 32, s.sharedBytes = 233472;
  } else {  // consumer Blackwell
    s.maxWarps = 48, s.maxBlocks = 32, s.sharedBytes = 102400;
  }
  return s;
}

Occupancy occupancyFor(const SmLimits& sm, int threadsPerBlock, int registersPerThread, int sharedBytesPerBlock) {
  Occupancy o;
  o.maxWarpsPerSm = sm.maxWarps;
  const int warps = std::max(1, (threadsPerBlock + 31) / 32);
  auto consider = [&](int blocks, const char* why) {
    if (o.limitedBy.empty() || blocks < o.blocksPerSm) {
      o.blocksPerSm = blocks;
      o.limitedBy = why;
    }
  };
  consider(sm.maxBlocks, "blocks");
  consider(sm.maxWarps / warps, "warps");
  if (registersPerThread > 0) {
    // Registers go to warps in units of 256 (8 per thread).
    const int perWarp = (registersPerThread * 32 + 255) / 256 * 256;
    consider(registersPerThread > sm.maxRegistersPerThread ? 0 : sm.registers / (perWarp * warps), "registers");
  }
  if (sharedBytesPerBlock > 0) {
    const int perBlock = sharedBytesPerBlock + sm.reservedSharedPerBlock;
    consider(sm.sharedBytes / perBlock, "shared memory");
  }
  o.blocksPerSm = std::max(0, o.blocksPerSm);
  o.warpsPerSm = o.blocksPerSm * warps;
  return o;
}

std::string Occupancy::str() const {
  const int percent = static_cast<int>(std::lround(fraction() * 100));
  return std::to_string(blocksPerSm) + (blocksPerSm == 1 ? " program (" : " programs (") + std::to_string(warpsPerSm) +
         " of " + std::to_string(maxWarpsPerSm) + " warps, " + std::to_string(percent) + "%) per SM, limited by " + limitedBy;
}

}  // namespace tilescope::compiled
