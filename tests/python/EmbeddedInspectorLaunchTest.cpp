// Launch records for the GUI's inspector (ExecutionCallbacks::launch) from embedded CPython: each
// launch is reported, the first launches of a run carry their trace (values recorded), later ones
// say why they have none.
#include <gtest/gtest.h>

#include "core/python/PythonExecutor.h"
#include "core/sim/TraceReader.h"

namespace {

TEST(EmbeddedInspectorLaunch, TheFirstLaunchesOfARunCarryTracesTheRestSayWhyNot) {
  tilescope::python::PythonExecutor ex;
  std::vector<tilescope::host::LaunchRecord> records;
  tilescope::host::ExecutionCallbacks cb;
  cb.launch = [&](const tilescope::host::LaunchRecord& r) { records.push_back(r); };
  cb.tracedLaunchLimit = 3;
  tilescope::host::CancelToken cancel;
  const auto o = ex.execute("import torch\nimport triton\nimport triton.language as tl\n"
                            "@triton.jit\ndef inc(x_ptr, n, BLOCK: tl.constexpr):\n"
                            "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                            "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)\n"
                            "x = torch.zeros(10)\nfor i in range(5):\n    inc[(3,)](x, 10, BLOCK=4)\n",
                            "cell", cb, cancel);
  ASSERT_EQ(o.status, tilescope::host::ExecutionOutcome::Status::Ok) << o.errorValue;
  ASSERT_EQ(records.size(), 5u);
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].kernel, "inc");
    EXPECT_EQ(records[i].backend, "simulator");
    EXPECT_EQ(records[i].grid, (std::array<int64_t, 3>{3, 1, 1}));
    if (i < 3) {
      EXPECT_EQ(records[i].untracedReason, "");
      EXPECT_EQ(records[i].tracedPrograms, 3);
      const auto read = tilescope::sim::TraceReader::read(records[i].trace);
      ASSERT_TRUE(read.trace) << read.error;
      EXPECT_TRUE(read.trace->valuesRecorded);
    } else {
      EXPECT_TRUE(records[i].trace.empty());
      EXPECT_EQ(records[i].untracedReason, "only the first 3 launches of a cell are traced");
    }
  }
  // Without the callback nothing is traced or reported.
  tilescope::host::ExecutionCallbacks plain;
  EXPECT_EQ(ex.execute("inc[(3,)](x, 10, BLOCK=4)\n", "cell2", plain, cancel).status, tilescope::host::ExecutionOutcome::Status::Ok);
  EXPECT_EQ(records.size(), 5u);
}

}  // namespace
