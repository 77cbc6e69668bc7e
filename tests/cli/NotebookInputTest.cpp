// tilescope-cli run on notebooks that are damaged or hostile: a clear message naming the file and
// exit code 1, never an abort, and the file left as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "tests/cli/CliRunner.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;

namespace {
std::string notebookFile(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("tilescope_input_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

const char* kCell = R"nb({"cell_type":"code","id":"c1","metadata":{},"source":"print(1)","outputs":[],"execution_count":null})nb";

void expectRefused(const std::string& name, const std::string& text, const std::string& expected) {
  SCOPED_TRACE(name);
  const std::string path = notebookFile(name, text);
  const std::string out = path + ".out.ipynb";
  const CliRun r = runCli("run " + path + " --out " + out);
  EXPECT_EQ(r.exitCode, 1) << "not a clean refusal (an abort exits 134): " << r.output;
  EXPECT_NE(r.output.find("tilescope-cli run: " + path + ": not a valid notebook: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(expected), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("terminate called"), std::string::npos) << r.output;
  EXPECT_EQ(readFile(path), text) << "the notebook was changed";
  EXPECT_FALSE(std::filesystem::exists(out)) << "wrote a notebook from a refused one";
  std::filesystem::remove(path);
}
}  // namespace

TEST(NotebookInput, AWrongTypeInTheOutOfBoundsPolicyIsAClearError) {
  // Used to abort with an uncaught nlohmann type_error.
  expectRefused("oob.ipynb",
                std::string(R"nb({"cells":[)nb") + kCell + R"nb(],"metadata":{"tilescope":{"out_of_bounds":1}},"nbformat":4,"nbformat_minor":5})nb",
                "tilescope.out_of_bounds to 1; it must be \"stop\" or \"warn\"");
}

TEST(NotebookInput, ASourceThatIsANumberIsRefused) {
  // Used to run as an empty cell and be saved as "source": [].
  expectRefused("source.ipynb",
                R"nb({"cells":[{"cell_type":"code","id":"c1","metadata":{},"source":42,"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5})nb",
                "cell 1 has a \"source\" that is a number");
}

TEST(NotebookInput, DeeplyNestedMetadataIsRefusedWithoutCrashing) {
  // 100,000 levels used to overflow the stack.
  const size_t levels = 100'000;
  expectRefused("deep.ipynb",
                std::string(R"nb({"cells":[)nb") + kCell + R"nb(],"nbformat":4,"nbformat_minor":5,"metadata":{"deep":)nb" +
                    std::string(levels, '[') + std::string(levels, ']') + "}}",
                "nests objects and lists more than 512 levels deep");
}
