#pragma once
// The CPU simulator: runs every program of a 1-, 2- or 3-D grid of an ir::Kernel against the
// simulated Memory. It defines the semantics GPU results are tested against.
//
//   Memory mem;
//   int x = mem.createFromDoubles("x", ir::DType::FP32, {n}, values);
//   Simulator sim(mem);
//   LaunchResult r = sim.launch(kernel, Grid{blocks}, {LaunchArg::tensor(x), ..., LaunchArg::integer(n)});
//   if (!r.ok()) std::cerr << r.diagnostics.render();
//
// Launches run programs in parallel on the process's simulator threads (WorkerPool: started once,
// LaunchOptions::numThreads or TILESCOPE_SIM_THREADS or every CPU), each worker taking the next
// program id; kernels that call host functions run programs
// one at a time in linear order. Results are identical either way except for the order in which
// float atomics accumulate; printed lines always come out in program order.
//
// A user error in any program (out-of-bounds access, failed device assert, zero range step, a host
// function's error) stops the launch; the error of the lowest failing program id is reported, so
// the report does not depend on thread timing. Cancellation (LaunchOptions::cancel) stops the
// launch within milliseconds with status Interrupted. Nothing throws out of launch() except
// InternalError for a malformed kernel.
#include <cstdint>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/sim/Launch.h"
#include "core/sim/Memory.h"

namespace tilescope::sim {

class Simulator {
public:
  explicit Simulator(Memory& memory) : memory_(memory) {}

  LaunchResult launch(const ir::Kernel& kernel, const Grid& grid, const std::vector<LaunchArg>& args,
                      const LaunchOptions& options = {});

  Memory& memory() { return memory_; }

private:
  Memory& memory_;
  uint64_t launchCounter_ = 0;
};

}  // namespace tilescope::sim
