// matplotlib on embedded CPython: the Agg backend, and figures shown (plt.show()) or left open when a
// cell ends become image/png display outputs, the path every rich output takes to the worker's
// display_data. Skipped (visibly) where the system's Python has no matplotlib (python3-matplotlib).
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

constexpr const char* kPngBase64Start = "iVBORw0KGgo";  // the PNG signature, base64

bool matplotlibInstalled(PythonExecutor& executor) {
  return runPython(executor, "import importlib.util\nprint(importlib.util.find_spec('matplotlib') is not None)\n", "probe.py", false)
             .out == "True\n";
}

}  // namespace

TEST(EmbeddedFigure, ShownAndOpenFiguresBecomePngOutputs) {
  PythonExecutor executor;
  if (!matplotlibInstalled(executor)) GTEST_SKIP() << "matplotlib is not importable by the embedded Python (python3-matplotlib)";

  const auto shown = runPython(executor,
                               "import matplotlib\n"
                               "import matplotlib.pyplot as plt\n"
                               "plt.plot([1, 2, 3], [1, 4, 9])\n"
                               "plt.show()\n"
                               "print(matplotlib.get_backend())\n");
  ASSERT_TRUE(shown.ok()) << shown.traceback;
  EXPECT_EQ(shown.out, "module://tilescope.mpl_backend\n");
  ASSERT_EQ(shown.displays.size(), 1u);
  const auto& data = shown.displays[0].data;
  ASSERT_TRUE(data.contains("image/png")) << data.dump().substr(0, 200);
  EXPECT_EQ(data["image/png"].get<std::string>().rfind(kPngBase64Start, 0), 0u);
  EXPECT_EQ(data.value("text/plain", ""), "<Figure size 640x480 with 1 Axes>");

  // Left open at the end of the cell: shown once, then closed.
  const auto open = runPython(executor, "fig, axes = plt.subplots(1, 2)\naxes[0].bar([1, 2], [3, 4]);\n");
  ASSERT_TRUE(open.ok()) << open.traceback;
  ASSERT_EQ(open.displays.size(), 1u);
  EXPECT_EQ(open.displays[0].data.value("text/plain", ""), "<Figure size 640x480 with 2 Axes>");
  EXPECT_EQ(runPython(executor, "len(plt.get_fignums())").result(), "0");

  const auto closed = runPython(executor, "f = plt.figure()\nplt.close(f)\n");
  ASSERT_TRUE(closed.ok()) << closed.traceback;
  EXPECT_TRUE(closed.displays.empty());
}
