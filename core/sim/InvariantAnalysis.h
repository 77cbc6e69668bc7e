#pragma once
// Facts about a kernel computed once per launch:
//  * which expressions are program-invariant (they depend only on literals, runtime parameters,
//    num_programs and aranges), so each worker thread evaluates them once per launch instead of
//    once per program - e.g. tl.arange(0, BLOCK) or the splat of a pointer parameter;
//  * whether the kernel calls host functions (those must run one program at a time).
#include "core/ir/Kernel.h"
#include "core/sim/NodeIndex.h"

namespace tilescope::sim {

struct KernelFacts {
  NodeIndex invariant;  // each invariant node with its slot in a worker's cache
  bool hasHostCalls = false;
  bool hasPrints = false;
};

KernelFacts analyzeKernel(const ir::Kernel& kernel);

}  // namespace tilescope::sim
