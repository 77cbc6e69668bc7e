// IPython syntax in cells on embedded CPython: with IPython installed, `%matplotlib inline`, `%timeit`,
// `!cmd` and `var = !cmd` behave as in Jupyter and line numbers stay the cell's; without it (the import
// blocked), `%matplotlib inline` is ignored with a note and other IPython syntax is a SyntaxError naming
// the cell and line.
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

bool ipythonInstalled(PythonExecutor& executor) {
  const auto probe = runPython(executor,
                               "import importlib.util\n"
                               "print(importlib.util.find_spec('IPython.core.inputtransformer2') is not None)\n",
                               "probe.py", false);
  return probe.ok() && probe.out == "True\n";
}

}  // namespace

TEST(EmbeddedIPython, MagicsAndShellCommandsRunAsInJupyter) {
  PythonExecutor executor;
  if (!ipythonInstalled(executor)) GTEST_SKIP() << "IPython is not importable by the embedded Python (python3-ipython)";

  const auto run = runPython(executor,
                             "%matplotlib inline\n"
                             "x = 21\n"
                             "!echo shell-says-{x * 2}\n"
                             "lines = !printf 'a\\nb\\n'\n"
                             "print(lines)\n"
                             "%timeit -n 3 -r 2 x  *  2\n"
                             "!echo backend=$MPLBACKEND\n"
                             "x\n");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out.rfind("shell-says-42\n['a', 'b']\n", 0), 0u) << run.out;
  EXPECT_NE(run.out.find(" per loop (mean \u00b1 std. dev. of 2 runs, 3 loops each)\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nbackend=Agg\n"), std::string::npos) << run.out;  // shell commands' own matplotlib
  EXPECT_EQ(run.result(), "21");
  EXPECT_EQ(run.err, "");

  const auto cellMagic = runPython(executor, "%%timeit -n 1 -r 1 y = 3\ny * x\n");
  ASSERT_TRUE(cellMagic.ok()) << cellMagic.traceback;
  EXPECT_NE(cellMagic.out.find(" per loop (mean \u00b1 std. dev. of 1 run, 1 loop each)\n"), std::string::npos) << cellMagic.out;

  // An error after IPython syntax points at its own line of the cell.
  const auto failing = runPython(executor, "\n!true\nraise ValueError('here')\n", "Cell [3]");
  ASSERT_FALSE(failing.ok());
  ASSERT_FALSE(failing.outcome.traceback.empty());
  EXPECT_EQ(failing.outcome.traceback.back().file, "Cell [3]");
  EXPECT_EQ(failing.outcome.traceback.back().line, 3);
  EXPECT_EQ(failing.outcome.traceback.back().text, "raise ValueError('here')");

  const auto unknown = runPython(executor, "%who\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.outcome.errorName, "NameError");
  EXPECT_NE(unknown.outcome.errorValue.find("%who is not available in tilescope"), std::string::npos)
      << unknown.outcome.errorValue;
}

TEST(EmbeddedIPython, WithoutIPythonMatplotlibInlineIsIgnoredAndOtherMagicsNameTheirLine) {
  PythonExecutor executor;
  // Hide IPython's input transformer from the import system, as on a machine without IPython.
  ASSERT_TRUE(runPython(executor,
                        "import sys\n"
                        "_hidden = {k: sys.modules.pop(k) for k in list(sys.modules) if k == 'IPython' or k.startswith('IPython.')}\n"
                        "sys.modules['IPython.core.inputtransformer2'] = None\n")
                  .ok());

  const auto inlinePlots = runPython(executor, "a = 1\ny = 3\n%matplotlib inline\nprint(y)\n", "Cell [2]");
  EXPECT_TRUE(inlinePlots.ok()) << inlinePlots.traceback;
  EXPECT_EQ(inlinePlots.out, "3\n");
  EXPECT_EQ(inlinePlots.err.rfind("note: Cell [2], line 3: '%matplotlib inline' ignored: IPython is not installed", 0), 0u)
      << inlinePlots.err;

  const auto timed = runPython(executor, "a = 5\n\n%timeit a + 1\n", "Cell [3]");
  ASSERT_FALSE(timed.ok());
  EXPECT_EQ(timed.outcome.errorName, "SyntaxError");
  EXPECT_NE(timed.outcome.errorValue.find("'%timeit a + 1' is IPython syntax, which needs IPython"), std::string::npos)
      << timed.outcome.errorValue;
  ASSERT_FALSE(timed.outcome.traceback.empty());
  EXPECT_EQ(timed.outcome.traceback.back().file, "Cell [3]");
  EXPECT_EQ(timed.outcome.traceback.back().line, 3);
  EXPECT_NE(timed.traceback.find("Cell [3]\", line 3"), std::string::npos) << timed.traceback;

  const auto shell = runPython(executor, "!ls\n", "Cell [4]");
  ASSERT_FALSE(shell.ok());
  EXPECT_EQ(shell.outcome.errorName, "SyntaxError");

  // Nothing ran of a cell that failed this way: `a` is still 1.
  EXPECT_EQ(runPython(executor, "a").result(), "1");

  ASSERT_TRUE(runPython(executor, "del sys.modules['IPython.core.inputtransformer2']\nsys.modules.update(_hidden)\n").ok());
}

TEST(EmbeddedIPython, SetTraceStandInSaysOnceThatBreakpointsAreNotAvailable) {
  PythonExecutor executor;
  // The stand-in is last on sys.path, so an installed IPython wins; load it by its file here.
  const auto run = runPython(executor,
                             "import importlib.util, os, sys, tilescope\n"
                             "folder = os.path.join(os.path.dirname(os.path.dirname(tilescope.__file__)), 'fallback')\n"
                             "print(sys.path.index(folder) > max(i for i, p in enumerate(sys.path) if 'packages' in p))\n"
                             "spec = importlib.util.spec_from_file_location('standin', os.path.join(folder, 'IPython', 'core', 'debugger.py'))\n"
                             "standin = importlib.util.module_from_spec(spec)\n"
                             "spec.loader.exec_module(standin)\n"
                             "standin.set_trace()\n"
                             "standin.set_trace()\n"
                             "from triton_util import breakpoint_if\n",
                             "standin.py", false);
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out,
            "True\nset_trace(): interactive breakpoints are not available in tilescope; step through the programs of a "
            "launch in the visualizer instead (program stepping)\n");
}
