// A notebook written by tilescope must pass Jupyter's own validator (nbformat, the official
// JSON schema). Skipped, saying why, where Python's nbformat is not installed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "core/notebook/CellOutputs.h"
#include "core/notebook/NotebookFile.h"

using namespace tilescope::notebook;
namespace fs = std::filesystem;

namespace {
std::pair<int, std::string> run(const std::string& command) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, ""};
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// The first Python that has nbformat: python3 on PATH, else the system's (a pyenv python3 may lack
// the Debian package python3-nbformat).
std::string pythonWithNbformat() {
  for (const char* python : {"python3", "/usr/bin/python3"})
    if (run(std::string(python) + " -c 'import nbformat'").first == 0) return python;
  return {};
}

Notebook everyKindOfCell() {
  Notebook nb;
  nb.metadata = {{"kernelspec", {{"display_name", "tilescope"}, {"language", "python"}, {"name", "tilescope"}}},
                 {"language_info", {{"name", "python"}}}};
  nb.appendCell(CellType::Markdown, "# Title\n\nMath: $a_i$\n");
  Cell& code = nb.appendCell(CellType::Code, "print('hi')\nx = 1\n");
  code.executionCount = 2;
  appendStreamOutput(code.outputs, "stdout", "hi\n");
  appendStreamOutput(code.outputs, "stderr", "careful\n");
  code.outputs.push_back(displayDataOutput({{"text/plain", "<Figure>"}, {"image/png", "iVBORw0KGgo="}}, nlohmann::json::object()));
  code.outputs.push_back(executeResultOutput(2, {{"text/plain", "1"}}, nlohmann::json::object()));
  code.outputs.push_back(errorOutput("TypeError", "bad", {"<cell:x>:1:1: here"}));
  nb.appendCell(CellType::Code, "");  // never run: execution_count null, no outputs
  nb.appendCell(CellType::Raw, "raw text");
  return nb;
}
}  // namespace

TEST(NbformatValidation, TilescopeNotebooksPassJupytersValidator) {
  const std::string python = pythonWithNbformat();
  if (python.empty())
    GTEST_SKIP() << "Python's nbformat is not installed (apt-get install python3-nbformat); not validated";
  const fs::path dir = fs::temp_directory_path() / ("tilescope-nbformat-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "all.ipynb").string();
  ASSERT_EQ(saveNotebook(everyKindOfCell(), path), "");
  const auto [code, output] =
      run(python + " -c 'import nbformat, sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=nbformat.NO_CONVERT)); "
                   "print(\"valid\")' " + path);
  EXPECT_EQ(code, 0) << output;
  EXPECT_NE(output.find("valid"), std::string::npos) << output;

  // Every bundled example, after a load/save round trip, too.
  int examples = 0;
  for (const auto& entry : fs::directory_iterator(TILESCOPE_SOURCE_DIR "/examples")) {
    if (entry.path().extension() != ".ipynb") continue;
    SCOPED_TRACE(entry.path().filename().string());
    ++examples;
    LoadResult example = loadNotebook(entry.path().string());
    ASSERT_TRUE(example.notebook) << example.error;
    const std::string examplePath = (dir / entry.path().filename()).string();
    ASSERT_EQ(saveNotebook(*example.notebook, examplePath), "");
    const auto [exampleCode, exampleOutput] =
        run(python + " -c 'import nbformat, sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))' " + examplePath);
    EXPECT_EQ(exampleCode, 0) << exampleOutput;
  }
  EXPECT_GE(examples, 2);

  // And the validator does catch a broken notebook: this test can fail.
  Notebook broken = everyKindOfCell();
  broken.cells[1].outputs.push_back({{"output_type", "stream"}, {"name", "stdout"}});  // no "text"
  const std::string brokenPath = (dir / "broken.ipynb").string();
  ASSERT_EQ(saveNotebook(broken, brokenPath), "");
  EXPECT_NE(run(python + " -c 'import nbformat, sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))' " +
                brokenPath).first, 0);
  fs::remove_all(dir);
}
