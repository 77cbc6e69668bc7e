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

// Outputs built in memory are not checked like loaded ones: reading a malformed one must not throw
// (nlohmann's value() threw type_error for a field of another type, or on a non-object).
TEST(CellOutputs, MalformedOutputsReadAsEmptyWithoutThrowing) {
  using nlohmann::json;
  for (const json& output : {json(5), json::array(), json({{"output_type", 3}}), json({{"output_type", "error"}, {"ename", 1}, {"evalue", json::array()}, {"traceback", "x"}}),
                             json({{"output_type", "display_data"}, {"data", "png"}}), json({{"output_type", "stream"}, {"text", 7}})}) {
    std::string text = "unset";
    EXPECT_NO_THROW(text = outputPlainText(output)) << output.dump();
    EXPECT_NE(text, "unset");
  }
  EXPECT_EQ(outputPlainText({{"output_type", "error"}, {"ename", 1}, {"evalue", "v"}, {"traceback", {"a", 2}}}), "Error: v\na");
  json outputs = json::array({json({{"output_type", 1}, {"name", "stdout"}})});
  EXPECT_NO_THROW(appendStreamOutput(outputs, "stdout", "x\n"));
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputPlainText(outputs[1]), "x\n");
}
