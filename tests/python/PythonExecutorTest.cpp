// Host code on embedded CPython: real Python (what the hand-written interpreter lacks), cells with
// Jupyter's display of a trailing expression, linecache registration, tracebacks and interrupts.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/python/ExecutionBackend.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::host::ExecutionOutcome;
using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

TEST(PythonExecutor, RunsPythonTheSubsetInterpreterLacks) {
  PythonExecutor executor;
  const auto run = runPython(executor, R"(import itertools

class Accumulator:
    def __init__(self, start):
        self.total = start
    def add(self, *values):
        self.total += sum(values)
        return self

acc = Accumulator(1.5).add(2, 3)
pairs = list(itertools.combinations("abc", 2))
print(f"{acc.total:>8.3f}|{len(pairs):03d}|{pairs[-1]!r}|{0.25:.1%}")
gen = (n * n for n in range(4))
print({n % 3 for n in gen})
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "   6.500|003|('b', 'c')|25.0%\n{0, 1}\n");
}

TEST(PythonExecutor, CellShowsItsTrailingExpressionUnlessSemicolon) {
  PythonExecutor executor;
  EXPECT_EQ(runPython(executor, "x = [1, 2]\nx + [3]").result(), "[1, 2, 3]");
  const auto quiet = runPython(executor, "x + [3];");
  EXPECT_TRUE(quiet.ok());
  EXPECT_FALSE(quiet.outcome.result.has_value());
  // Scripts show nothing.
  EXPECT_FALSE(runPython(executor, "x", "script.py", false).outcome.result.has_value());
}

TEST(PythonExecutor, CellsShareANamespaceThatOtherExecutorsDoNotSee) {
  PythonExecutor first;
  ASSERT_TRUE(runPython(first, "secret = 41").ok());
  EXPECT_EQ(runPython(first, "secret + 1", "Cell [2]").result(), "42");
  PythonExecutor second;
  const auto run = runPython(second, "secret");
  EXPECT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.outcome.errorName, "NameError");
}

TEST(PythonExecutor, InspectFindsTheSourceOfFunctionsDefinedInCells) {
  PythonExecutor executor;
  ASSERT_TRUE(runPython(executor, "\ndef twice(v):\n    return 2 * v\n", "Cell [4]").ok());
  const auto run = runPython(executor, "import inspect\nprint(inspect.getsource(twice), end='')\nprint(twice.__code__.co_filename)",
                             "Cell [5]");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "def twice(v):\n    return 2 * v\nCell [4]\n");
}

TEST(PythonExecutor, ErrorsCarryTracebackFramesNamingTheCell) {
  PythonExecutor executor;
  ASSERT_TRUE(runPython(executor, "def fail(n):\n    return {}[n]\n", "Cell [1]").ok());
  const auto run = runPython(executor, "x = 1\nfail('key')", "Cell [2]");
  ASSERT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.outcome.errorName, "KeyError");
  EXPECT_EQ(run.outcome.errorValue, "'key'");
  ASSERT_EQ(run.outcome.traceback.size(), 2u);
  EXPECT_EQ(run.outcome.traceback[0].file, "Cell [2]");
  EXPECT_EQ(run.outcome.traceback[0].line, 2);
  EXPECT_EQ(run.outcome.traceback[1].file, "Cell [1]");
  EXPECT_EQ(run.outcome.traceback[1].line, 2);
  EXPECT_EQ(run.outcome.traceback[1].text, "return {}[n]");
  EXPECT_NE(run.traceback.find("File \"Cell [1]\", line 2, in fail"), std::string::npos) << run.traceback;
  EXPECT_NE(run.traceback.find("KeyError: 'key'"), std::string::npos) << run.traceback;
}

TEST(PythonExecutor, SyntaxErrorNamesFileLineAndColumn) {
  PythonExecutor executor;
  const auto run = runPython(executor, "a = 1\nb = (2 +\n", "Cell [7]");
  ASSERT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.outcome.errorName, "SyntaxError");
  ASSERT_FALSE(run.outcome.traceback.empty());
  EXPECT_EQ(run.outcome.traceback.back().file, "Cell [7]");
  EXPECT_EQ(run.outcome.traceback.back().line, 2);
  EXPECT_GT(run.outcome.traceback.back().column, 0);
}

TEST(PythonExecutor, CancelTokenInterruptsAnEndlessLoop) {
  PythonExecutor executor;
  tilescope::host::CancelToken cancel;
  std::thread stopper([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  const auto run = runPython(executor, "while True:\n    pass\n", "Cell [1]", true, &cancel);
  stopper.join();
  EXPECT_EQ(run.outcome.status, ExecutionOutcome::Status::Cancelled);
  EXPECT_EQ(run.outcome.errorName, "KeyboardInterrupt");
  // The interrupt was for that cell only.
  cancel.reset();
  EXPECT_TRUE(runPython(executor, "for i in range(100000): pass", "Cell [2]", true, &cancel).ok());
}

TEST(PythonExecutor, EmbedsTheSystemPythonWithItsStandardLibrary) {
  PythonExecutor executor;
  const auto run = runPython(executor, "import sys, json, os\nprint(sys.base_prefix, json.dumps([1]), sys.version_info >= (3, 8))");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, std::string(TILESCOPE_PYTHON_HOME) + " [1] True\n");
}

TEST(PythonExecutor, AnExceptionWhoseMessageCannotBeShownIsStillReported) {
  PythonExecutor executor;
  const auto run = runPython(executor, R"(
class Opaque(Exception):
    def __str__(self):
        raise ValueError("no text")

raise Opaque()
)");
  ASSERT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.outcome.errorName, "Opaque");
  EXPECT_NE(run.traceback.find("Opaque"), std::string::npos) << run.traceback;
  EXPECT_TRUE(runPython(executor, "1 + 1").ok());
}

// The worker's stdin is its protocol pipe: user code that reads input must see end of input at once,
// never the app's messages (and never wait for a line that will not come).
TEST(PythonExecutor, InputSeesEndOfInputInsteadOfTheProtocolPipe) {
  PythonExecutor executor;
  const auto run = runPython(executor, "try:\n    input('name? ')\nexcept EOFError:\n    print('no input')\n");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_NE(run.out.find("no input"), std::string::npos) << run.out;
}

// The executor asks the one backend rule (ExecutionBackend) whether kernels run on a GPU (gpu-only cells).
TEST(PythonExecutor, RunsKernelsOnTheGpuExactlyWhereTheBackendRuleSays) {
  PythonExecutor executor;
  for (tilescope::host::Backend choice : {tilescope::host::Backend::Simulator, tilescope::host::Backend::Gpu, tilescope::host::Backend::Auto}) {
    executor.setBackend(choice);
    EXPECT_EQ(executor.runsKernelsOnGpu(), tilescope::host::resolvesToGpu(choice)) << tilescope::host::backendName(choice);
  }
}
