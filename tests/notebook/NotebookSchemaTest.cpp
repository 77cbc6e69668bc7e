// Fields of the wrong type anywhere in a notebook are refused with a message that names the cell
// and the field (nbformat 4's schema for what tilescope reads), never dropped on the next save and
// never an exception escaping to whoever reads the notebook.
#include <gtest/gtest.h>

#include <string>

#include "core/notebook/NotebookFile.h"

using namespace tilescope::notebook;

namespace {
struct WrongTypeCase {
  const char* name;
  const char* notebook;   // the JSON text
  const char* expected;   // part of the message
};

class WrongFieldType : public ::testing::TestWithParam<WrongTypeCase> {};

}  // namespace

TEST_P(WrongFieldType, IsAClearErrorNamingTheField) {
  LoadResult r;
  EXPECT_NO_THROW(r = parseNotebookJson(GetParam().notebook, "nb.ipynb"));
  EXPECT_FALSE(r.notebook) << "loaded a notebook that nbformat 4 does not allow";
  EXPECT_EQ(r.error.rfind("nb.ipynb: not a valid notebook: ", 0), 0u) << r.error;
  EXPECT_NE(r.error.find(GetParam().expected), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("The file was not changed"), std::string::npos) << r.error;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, WrongFieldType,
    ::testing::Values(
        // A number as the source used to load as an empty cell, and the next save wrote [].
        WrongTypeCase{"SourceNumber", R"({"cells":[{"cell_type":"code","source":42,"metadata":{},"outputs":[]}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has a \"source\" that is a number; nbformat 4 needs text"},
        WrongTypeCase{"SourceLineNumber", R"({"cells":[{"cell_type":"markdown","source":["a\n",7],"metadata":{}}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has a \"source\" that is a list"},
        // The out-of-bounds policy used to abort `tilescope-cli run` with an uncaught type_error.
        WrongTypeCase{"OutOfBoundsNumber", R"({"cells":[],"metadata":{"tilescope":{"out_of_bounds":1}},"nbformat":4,"nbformat_minor":5})",
                      "tilescope.out_of_bounds to 1; it must be \"stop\" or \"warn\""},
        WrongTypeCase{"OutOfBoundsUnknown", R"({"cells":[],"metadata":{"tilescope":{"out_of_bounds":"ignore"}},"nbformat":4,"nbformat_minor":5})",
                      "tilescope.out_of_bounds to \"ignore\""},
        WrongTypeCase{"TilescopeMetadataList", R"({"cells":[],"metadata":{"tilescope":[]},"nbformat":4,"nbformat_minor":5})",
                      "\"tilescope\" entry that is a list"},
        WrongTypeCase{"NotebookMetadataString", R"({"cells":[],"metadata":"none","nbformat":4,"nbformat_minor":5})",
                      "the notebook has a \"metadata\" that is a string"},
        WrongTypeCase{"NbformatString", R"({"cells":[],"metadata":{},"nbformat":"4","nbformat_minor":5})",
                      "the notebook has a \"nbformat\" that is a string"},
        WrongTypeCase{"NbformatMinorNegative", R"({"cells":[],"metadata":{},"nbformat":4,"nbformat_minor":-1})",
                      "\"nbformat_minor\" that is a number; nbformat 4 needs a whole number >= 0"},
        WrongTypeCase{"CellMetadataList", R"({"cells":[{"cell_type":"raw","source":"","metadata":[]}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has a \"metadata\" that is a list"},
        WrongTypeCase{"CellIdNumber", R"({"cells":[{"cell_type":"code","id":5,"source":"","metadata":{},"outputs":[]}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has a \"id\" that is a number"},
        WrongTypeCase{"CellIdWithSpaces", R"({"cells":[{"cell_type":"code","id":"a b","source":"","metadata":{},"outputs":[]}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has the id \"a b\""},
        WrongTypeCase{"OutputsObject", R"({"cells":[{"cell_type":"code","source":"","metadata":{},"outputs":{}}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has a \"outputs\" that is an object; nbformat 4 needs a list"},
        WrongTypeCase{"ExecutionCountString", R"({"cells":[{"cell_type":"code","source":"","metadata":{},"outputs":[],"execution_count":"3"}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has an execution_count of \"3\""},
        WrongTypeCase{"ExecutionCountHuge", R"({"cells":[{"cell_type":"code","source":"","metadata":{},"outputs":[],"execution_count":99999999999}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has an execution_count of 99999999999"},
        WrongTypeCase{"AttachmentsList", R"({"cells":[{"cell_type":"markdown","source":"","metadata":{},"attachments":[1]}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1 has a \"attachments\" that is a list"},
        WrongTypeCase{"AttachmentDataNumber", R"({"cells":[{"cell_type":"markdown","source":"","metadata":{},"attachments":{"a.png":{"image/png":5}}}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "cell 1's attachment 'a.png' has image/png data that is a number"},
        WrongTypeCase{"OutputDataNumber", R"({"cells":[{"cell_type":"code","source":"","metadata":{},"outputs":[{"output_type":"display_data","data":{"text/plain":5},"metadata":{}}]}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "output 1 of cell 1 (display_data) has text/plain data that is a number"},
        WrongTypeCase{"StreamNameNumber", R"({"cells":[{"cell_type":"code","source":"","metadata":{},"outputs":[{"output_type":"stream","name":1,"text":""}]}],"metadata":{},"nbformat":4,"nbformat_minor":5})",
                      "output 1 of cell 1 (a stream) has no name"}),
    [](const ::testing::TestParamInfo<WrongTypeCase>& info) { return std::string(info.param.name); });

TEST(NotebookSchema, FieldsOfTheRightTypeLoad) {
  // JSON MIME types hold any JSON; a list of lines is text; null execution counts are "never run".
  LoadResult r = parseNotebookJson(
      R"nb({"cells":[{"cell_type":"code","id":"A-b_9","source":["x = 1\n","y"],"metadata":{"tags":[]},"execution_count":null,
           "outputs":[{"output_type":"execute_result","execution_count":2,"metadata":{},
                       "data":{"application/json":{"a":[1,2]},"application/vnd.x+json":3,"text/plain":["1\n","2"]}}]},
          {"cell_type":"markdown","source":"![a](attachment:a.png)","metadata":{},"attachments":{"a.png":{"image/png":"iVBO"}}}],
         "metadata":{"tilescope":{"out_of_bounds":"warn"}},"nbformat":4,"nbformat_minor":5})nb",
      "ok.ipynb");
  ASSERT_TRUE(r.notebook) << r.error;
  EXPECT_EQ(r.notebook->cells[0].source, "x = 1\ny");
  EXPECT_TRUE(r.notebook->warnsOnOutOfBounds());
}

TEST(NotebookSchema, TheOutOfBoundsAccessorIsTypeSafe) {
  // A notebook built in memory is not checked by the reader: its accessor must not throw either.
  Notebook nb;
  for (const nlohmann::json& tilescope : {nlohmann::json(1), nlohmann::json::array(), nlohmann::json({{"out_of_bounds", 1}}),
                                         nlohmann::json({{"out_of_bounds", nullptr}}), nlohmann::json({{"out_of_bounds", "stop"}})}) {
    nb.metadata = {{"tilescope", tilescope}};
    bool warns = true;
    EXPECT_NO_THROW(warns = nb.warnsOnOutOfBounds()) << tilescope.dump();
    EXPECT_FALSE(warns) << tilescope.dump();
  }
  nb.metadata = {{"tilescope", {{"out_of_bounds", "warn"}}}};
  EXPECT_TRUE(nb.warnsOnOutOfBounds());
}

TEST(NotebookSchema, OverDeepJsonIsRefusedBeforeItCanOverflowTheStack) {
  // 100,000 levels in the metadata used to crash the CLI; copying or writing such a tree recurses
  // once per level.
  const size_t levels = 100'000;
  const std::string text = R"({"cells":[],"nbformat":4,"nbformat_minor":5,"metadata":{"deep":)" + std::string(levels, '[') +
                           std::string(levels, ']') + "}}";
  LoadResult r = parseNotebookJson(text, "deep.ipynb");
  ASSERT_FALSE(r.notebook);
  EXPECT_NE(r.error.find("deep.ipynb: not a valid notebook: its JSON nests objects and lists more than 512 levels deep"),
            std::string::npos)
      << r.error;
  // Nesting as deep as the limit allows still loads, writes and reads back.
  const size_t allowed = 512 - 2;  // the document and its metadata are two levels
  const std::string fits = R"({"cells":[],"nbformat":4,"nbformat_minor":5,"metadata":{"deep":)" + std::string(allowed, '[') +
                           std::string(allowed, ']') + "}}";
  LoadResult ok = parseNotebookJson(fits, "fits.ipynb");
  ASSERT_TRUE(ok.notebook) << ok.error;
  EXPECT_TRUE(parseNotebookJson(serializeNotebook(*ok.notebook), "again.ipynb").notebook);
  EXPECT_FALSE(parseNotebookJson(R"({"cells":[],"metadata":{"deep":)" + std::string(allowed + 1, '[') +
                                     std::string(allowed + 1, ']') + "}}",
                                 "over.ipynb")
                   .notebook);
}
