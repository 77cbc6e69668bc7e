#pragma once
// Write coverage of each output tensor, derived from a trace's stores: which program wrote each
// element, elements never written, elements written by several programs and those written with
// different values (a race on the GPU). The simulator's own report (core/sim/Coverage) is made from
// its memory during the launch; this one is made from a trace afterwards, so the inspector and
// `tilescope-cli viz` can draw it per element. It is exact only when every program that ran was
// traced (`complete`); otherwise elements written by untraced programs show as never written and the
// note says so. Atomics are exempt (they are meant to meet). Values are compared only when the
// trace recorded them.
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/Coverage.h"
#include "core/sim/Trace.h"

namespace tilescope::viz {

struct OutputCoverage {
  sim::TensorCoverage summary;      // counts and examples, rendered by sim::CoverageReport::render()
  std::vector<int64_t> writer;      // per element (row-major): linear id of the first writer; -1 none
  std::vector<uint8_t> writes;      // per element: number of writing programs, saturated at 255
  std::vector<uint8_t> conflicting; // per element: 1 when two programs wrote different values
};

struct TraceCoverage {
  std::vector<OutputCoverage> tensors;  // tensors stored to, in tensor id order
  bool complete = true;                 // every program that ran was traced
  bool valuesCompared = false;          // the trace had values, so conflicts could be seen
  std::string note;                     // what the report cannot see, in words ("" when complete)

  const OutputCoverage* find(int tensorId) const;
  std::string render() const;  // the sim report's text, plus the note
};

TraceCoverage traceCoverage(const sim::LaunchTrace& trace);

}  // namespace tilescope::viz
