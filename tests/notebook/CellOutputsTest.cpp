#include <gtest/gtest.h>

#include "core/notebook/CellOutputs.h"
#include "core/notebook/Notebook.h"

using namespace tilescope::notebook;
using nlohmann::json;

TEST(CellOutputs, LinesSplitAndJoinBack) {
  EXPECT_EQ(splitLines("a\nb\n"), json({"a\n", "b\n"}));
  EXPECT_EQ(splitLines("a\nb"), json({"a\n", "b"}));
  EXPECT_EQ(splitLines(""), json::array());
  EXPECT_EQ(joinLines(json({"a\n", "b"})), "a\nb");
  EXPECT_EQ(joinLines(json("plain")), "plain");
  EXPECT_EQ(joinLines(json(42)), "");
}

TEST(CellOutputs, ConsecutiveStreamWritesMerge) {
  json outputs = json::array();
  appendStreamOutput(outputs, "stdout", "par");
  appendStreamOutput(outputs, "stdout", "tial\nnext\n");
  appendStreamOutput(outputs, "stderr", "warn\n");
  appendStreamOutput(outputs, "stdout", "again\n");
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_EQ(outputs[0]["text"], json({"partial\n", "next\n"}));
  EXPECT_EQ(outputs[1]["name"], "stderr");
  EXPECT_EQ(outputPlainText(outputs[2]), "again\n");
}

TEST(CellOutputs, MimeBundlesAreStoredLikeJupyter) {
  const json bundle = normalizedMimeBundle(
      {{"text/plain", "x\ny"}, {"image/png", "iVBORw0KGgo="}, {"application/json", {{"a", 1}}}, {"image/svg+xml", "<svg/>\n"}});
  EXPECT_EQ(bundle["text/plain"], json({"x\n", "y"}));
  EXPECT_EQ(bundle["image/png"], "iVBORw0KGgo=") << "base64 stays one string";
  EXPECT_EQ(bundle["application/json"], json({{"a", 1}}));
  EXPECT_EQ(bundle["image/svg+xml"], json({"<svg/>\n"}));
  const json result = executeResultOutput(3, {{"text/plain", "42"}}, json::object());
  EXPECT_EQ(result["execution_count"], 3);
  EXPECT_EQ(outputPlainText(result), "42");
}

TEST(CellOutputs, ErrorTextHasNameValueAndTraceback) {
  const json error = errorOutput("TypeError", "bad operand", {"<cell:a>:2:5: here"});
  EXPECT_EQ(outputPlainText(error), "TypeError: bad operand\n<cell:a>:2:5: here");
}

TEST(Notebook, InsertCellAndFindItById) {
  Notebook nb;
  nb.appendCell(CellType::Code, "a");
  nb.appendCell(CellType::Code, "c");
  Cell& b = nb.insertCell(1, CellType::Markdown, "b");
  EXPECT_EQ(b.source, "b");
  EXPECT_EQ(nb.indexOfCell(nb.cells[1].id), 1);
  EXPECT_EQ(nb.cells[2].source, "c");
  EXPECT_EQ(nb.indexOfCell("no-such-id"), -1);
  nb.insertCell(99, CellType::Code, "end");
  EXPECT_EQ(nb.cells.back().source, "end");
}
