#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/notebook/NotebookFile.h"

using namespace tilescope::notebook;
namespace fs = std::filesystem;

namespace {
std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("tilescope-nb-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};
}  // namespace

TEST(NotebookFile, BundledExampleRoundTripsByteForByte) {
  const std::string path = TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb";
  LoadResult r = loadNotebook(path);
  ASSERT_TRUE(r.notebook) << r.error;
  EXPECT_EQ(serializeNotebook(*r.notebook), readAll(path));
}

TEST(NotebookFile, SourcesAreSplitIntoLinesAndJoinedBack) {
  Notebook nb;
  nb.appendCell(CellType::Code, "a = 1\nb = 2\n");
  nb.appendCell(CellType::Markdown, "# Title");
  const std::string text = serializeNotebook(nb);
  EXPECT_NE(text.find("\"a = 1\\n\",\n    \"b = 2\\n\""), std::string::npos) << text;
  LoadResult back = parseNotebookJson(text, "x.ipynb");
  ASSERT_TRUE(back.notebook);
  ASSERT_EQ(back.notebook->cells.size(), 2u);
  EXPECT_EQ(back.notebook->cells[0].source, "a = 1\nb = 2\n");
  EXPECT_EQ(back.notebook->cells[1].type, CellType::Markdown);
  EXPECT_EQ(back.notebook->cells[0].id, nb.cells[0].id);
}

TEST(NotebookFile, OlderNotebooksGetCellIds) {
  LoadResult r = parseNotebookJson(
      R"({"cells":[{"cell_type":"code","source":"x","metadata":{},"outputs":[],"execution_count":3}],"metadata":{},"nbformat":4,"nbformat_minor":2})",
      "old.ipynb");
  ASSERT_TRUE(r.notebook) << r.error;
  EXPECT_EQ(r.notebook->cells[0].id.size(), 8u);
  EXPECT_EQ(r.notebook->cells[0].executionCount, 3);
  EXPECT_EQ(r.notebook->nbformatMinor, 5);
}

TEST(NotebookFile, DuplicateCellIdsGetFreshIdsOnLoad) {
  // Hand-edited files repeat ids; every cell must stay findable by its own id.
  LoadResult r = parseNotebookJson(
      R"({"cells":[)"
      R"({"cell_type":"code","id":"same","source":"a = 1","metadata":{},"outputs":[],"execution_count":null},)"
      R"({"cell_type":"code","id":"same","source":"b = 2","metadata":{},"outputs":[],"execution_count":null},)"
      R"({"cell_type":"markdown","id":"other","source":"# t","metadata":{}},)"
      R"({"cell_type":"code","id":"same","source":"c = 3","metadata":{},"outputs":[],"execution_count":null},)"
      R"({"cell_type":"code","source":"d = 4","metadata":{},"outputs":[],"execution_count":null}],)"
      R"("metadata":{},"nbformat":4,"nbformat_minor":5})",
      "dup.ipynb");
  ASSERT_TRUE(r.notebook) << r.error;
  const Notebook& nb = *r.notebook;
  EXPECT_EQ(r.duplicateIdsReplaced, 2) << "the missing id of the last cell is no duplicate";
  EXPECT_EQ(nb.cells[0].id, "same") << "the first cell keeps its id";
  EXPECT_EQ(nb.cells[2].id, "other");
  std::set<std::string> ids;
  for (const Cell& cell : nb.cells) {
    EXPECT_FALSE(cell.id.empty());
    ids.insert(cell.id);
  }
  EXPECT_EQ(ids.size(), nb.cells.size()) << "every id is unique";
  for (size_t i = 0; i < nb.cells.size(); ++i) EXPECT_EQ(nb.indexOfCell(nb.cells[i].id), static_cast<int>(i));
}

TEST(NotebookFile, UniqueIdsAreKeptAndNothingIsReported) {
  Notebook nb;
  nb.appendCell(CellType::Code, "a = 1");
  nb.appendCell(CellType::Code, "b = 2");
  LoadResult back = parseNotebookJson(serializeNotebook(nb), "x.ipynb");
  ASSERT_TRUE(back.notebook);
  EXPECT_EQ(back.duplicateIdsReplaced, 0);
  EXPECT_EQ(back.notebook->cells[0].id, nb.cells[0].id);
  EXPECT_EQ(back.notebook->cells[1].id, nb.cells[1].id);
}

struct BadNotebookCase {
  const char* text;
  const char* expected;
};

class CorruptNotebook : public ::testing::TestWithParam<BadNotebookCase> {};

TEST_P(CorruptNotebook, GivesAClearError) {
  LoadResult r = parseNotebookJson(GetParam().text, "bad.ipynb");
  EXPECT_FALSE(r.notebook);
  EXPECT_NE(r.error.find(GetParam().expected), std::string::npos) << r.error;
  EXPECT_EQ(r.error.rfind("bad.ipynb: ", 0), 0u) << r.error;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CorruptNotebook,
    ::testing::Values(BadNotebookCase{"{\"cells\": [", "the JSON is broken at byte"},
                      BadNotebookCase{"[1, 2]", "not a Jupyter notebook"},
                      BadNotebookCase{R"({"cells":[],"nbformat":3})", "nbformat 3 is not supported"},
                      BadNotebookCase{R"({"cells":[{"source":"x"}],"nbformat":4})", "cell 1 has no cell_type"},
                      BadNotebookCase{R"({"cells":[{"cell_type":"widget"}],"nbformat":4})", "unknown cell_type 'widget'"},
                      // Fields of the wrong type are damage, not crashes (the UI reads outputs unchecked).
                      BadNotebookCase{R"({"cells":[],"nbformat":"4"})", "has a \"nbformat\" that is a string"},
                      BadNotebookCase{R"({"cells":[{"cell_type":"code","source":[],"outputs":[5]}],"nbformat":4})",
                                      "output 1 of cell 1 is not an object"},
                      BadNotebookCase{R"({"cells":[{"cell_type":"code","source":[],"outputs":[{"output_type":"stream","name":"stdout","text":1}]}],"nbformat":4})",
                                      "(a stream) has no text"},
                      BadNotebookCase{R"({"cells":[{"cell_type":"code","source":[],"outputs":[{"output_type":"error","ename":1,"evalue":"x","traceback":[]}]}],"nbformat":4})",
                                      "(an error) has no ename/evalue"},
                      BadNotebookCase{R"({"cells":[{"cell_type":"code","source":[],"outputs":[{"output_type":"display_data","data":"png"}]}],"nbformat":4})",
                                      "(display_data) has no data bundle"},
                      BadNotebookCase{R"({"cells":[{"cell_type":"code","source":[],"outputs":[{"output_type":"plot"}]}],"nbformat":4})",
                                      "unknown output_type 'plot'"}));

TEST(NotebookFile, PythonFileOpensAsOneCodeCell) {
  TempDir dir;
  const std::string path = (dir.path / "k.py").string();
  std::ofstream(path) << "import triton\nprint(1)\n";
  LoadResult r = loadNotebook(path);
  ASSERT_TRUE(r.notebook) << r.error;
  ASSERT_EQ(r.notebook->cells.size(), 1u);
  EXPECT_EQ(r.notebook->cells[0].type, CellType::Code);
  EXPECT_EQ(r.notebook->cells[0].source, "import triton\nprint(1)\n");
}

TEST(NotebookFile, SaveReplacesAtomicallyAndLeavesNoTempFile) {
  TempDir dir;
  const std::string path = (dir.path / "nb.ipynb").string();
  Notebook nb;
  nb.appendCell(CellType::Code, "x = 1\n");
  ASSERT_EQ(saveNotebook(nb, path), "");
  nb.cells[0].source = "x = 2\n";
  ASSERT_EQ(saveNotebook(nb, path), "");
  EXPECT_NE(readAll(path).find("x = 2"), std::string::npos);
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++files;
  EXPECT_EQ(files, 1);
}

TEST(NotebookFile, SaveIntoMissingFolderFailsWithMessage) {
  Notebook nb;
  const std::string error = saveNotebook(nb, "/nonexistent-dir-for-tilescope/nb.ipynb");
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
}

TEST(NotebookFile, MissingFileIsAnError) {
  LoadResult r = loadNotebook("/nonexistent/nb.ipynb");
  EXPECT_FALSE(r.notebook);
  EXPECT_NE(r.error.find("cannot open the file"), std::string::npos);
}

TEST(NotebookFile, CellTagsSayWhichCellsMayFailAndWhichNeedAGpu) {
  const std::string path = (std::filesystem::temp_directory_path() / "tilescope_tags.ipynb").string();
  std::ofstream(path) << R"({"cells": [
    {"cell_type": "code", "id": "a", "metadata": {"tags": ["gpu-only"]}, "source": "", "outputs": [], "execution_count": null},
    {"cell_type": "code", "id": "b", "metadata": {"tags": ["raises-exception", "gpu-only"]}, "source": "", "outputs": [], "execution_count": null},
    {"cell_type": "code", "id": "c", "metadata": {"tags": "gpu-only"}, "source": "", "outputs": [], "execution_count": null},
    {"cell_type": "code", "id": "d", "metadata": {}, "source": "", "outputs": [], "execution_count": null}
  ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})";
  LoadResult loaded = loadNotebook(path);
  ASSERT_TRUE(loaded.notebook) << loaded.error;
  const auto& cells = loaded.notebook->cells;
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_TRUE(cells[0].gpuOnly());
  EXPECT_FALSE(cells[0].raisesException());
  EXPECT_TRUE(cells[1].gpuOnly());
  EXPECT_TRUE(cells[1].raisesException());
  EXPECT_FALSE(cells[2].gpuOnly()) << "tags must be a list, as nbformat says";
  EXPECT_FALSE(cells[3].gpuOnly());
  std::filesystem::remove(path);
}
