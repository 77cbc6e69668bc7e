// Coverage derived from traces (core/viz/TraceCoverage) on the practitioners' guide's three copy_k
// versions: the buggy ones leave z[2:6] unwritten.
#include <gtest/gtest.h>

#include "core/viz/TraceCoverage.h"
#include "tests/viz/SeedTraces.h"

namespace tilescope::viz {
namespace {

TEST(TraceCoverage, NamesTheElementsEachBuggyCopyNeverWrites) {
  const auto lines = testing::seedLines(testing::kGuide);
  if (!lines) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  const std::vector<sim::LaunchTrace> traces = testing::copyTraces(*lines);
  ASSERT_EQ(traces.size(), 3u);
  struct Case {
    int version;
    int64_t neverWritten;
    std::vector<std::pair<int64_t, int64_t>> ranges;
    int64_t writtenByMany;
    std::vector<int64_t> writers;  // per element of z
  };
  const Case cases[] = {
      // offs = tl.arange(0, bs): every program writes z[0:2].
      {1, 4, {{2, 6}}, 2, {0, 0, -1, -1, -1, -1}},
      // offs = pid * n + ...: programs 1 and 2 are masked off entirely.
      {2, 4, {{2, 6}}, 0, {0, 0, -1, -1, -1, -1}},
      {3, 0, {}, 0, {0, 0, 1, 1, 2, 2}},
  };
  for (const Case& c : cases) {
    const TraceCoverage cov = traceCoverage(traces[c.version - 1]);
    EXPECT_TRUE(cov.complete);
    EXPECT_TRUE(cov.valuesCompared);
    EXPECT_EQ(cov.note, "");
    ASSERT_EQ(cov.tensors.size(), 1u) << "version " << c.version;
    const OutputCoverage& z = cov.tensors[0];
    EXPECT_EQ(z.summary.argName, "z_ptr");
    EXPECT_EQ(z.summary.elements, 6);
    EXPECT_EQ(z.summary.neverWritten, c.neverWritten) << "version " << c.version;
    EXPECT_EQ(z.summary.neverWrittenRanges, c.ranges) << "version " << c.version;
    EXPECT_EQ(z.summary.writtenByMany, c.writtenByMany) << "version " << c.version;
    EXPECT_EQ(z.summary.conflicting, 0);
    EXPECT_EQ(z.writer, c.writers) << "version " << c.version;
    if (c.neverWritten) {
      EXPECT_NE(cov.render().find("never written: z_ptr[2:6] (4 elements)"), std::string::npos) << cov.render();
    }
  }
}

// Two programs writing different values to one element: a conflict, with both programs named.
TEST(TraceCoverage, DifferentValuesFromTwoProgramsAreAConflict) {
  testing::TracedSession s;
  s.run("import torch\nimport triton\nimport triton.language as tl\n"
        "@triton.jit\ndef last_k(z_ptr):\n    pid = tl.program_id(0)\n    tl.store(z_ptr + 0, pid)\n"
        "z = torch.zeros(2, dtype=torch.int32)\nlast_k[(3,)](z)\n");
  const auto traces = s.takeTraces();
  ASSERT_EQ(traces.size(), 1u);
  const TraceCoverage cov = traceCoverage(traces[0]);
  ASSERT_EQ(cov.tensors.size(), 1u);
  const OutputCoverage& z = cov.tensors[0];
  EXPECT_EQ(z.writes, (std::vector<uint8_t>{3, 0}));
  EXPECT_EQ(z.conflicting, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(z.summary.conflicting, 1);
  ASSERT_FALSE(z.summary.conflicts.empty());
  EXPECT_EQ(z.summary.conflicts[0].firstProgram, (std::array<int64_t, 3>{0, 0, 0}));
  EXPECT_EQ(z.summary.conflicts[0].secondProgram, (std::array<int64_t, 3>{1, 0, 0}));
  EXPECT_EQ(z.summary.neverWrittenRanges, (std::vector<std::pair<int64_t, int64_t>>{{1, 2}}));
}

// A trace that kept only some programs says its coverage is partial.
TEST(TraceCoverage, PartialTracesSaySo) {
  sim::LaunchTrace t;
  t.totalPrograms = 10;
  t.droppedPrograms = 7;
  t.programs.resize(3);
  t.policy = "traced 3 of 10 programs";
  const TraceCoverage cov = traceCoverage(t);
  EXPECT_FALSE(cov.complete);
  EXPECT_NE(cov.note.find("only 3 of 10 programs were traced"), std::string::npos) << cov.note;
}

}  // namespace
}  // namespace tilescope::viz
