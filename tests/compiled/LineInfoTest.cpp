// Reading the line information of each stage's text (core/compiled/LineInfo) and the map built from
// it (SourceLineMap), on small hand-written texts in the formats NVRTC, nvdisasm and the generator write.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/compiled/LineInfo.h"
#include "core/compiled/SourceLineMap.h"

using namespace tilescope::compiled;

namespace {
const char* kCuda =
    "// prelude\n"                    // 1
    "__device__ int helper() {}\n"    // 2
    "#line 7 \"<cell:ab\\\"c>\"\n"    // 3
    "  int a = 1;\n"                  // 4
    "  int b = 2;\n"                  // 5
    "#line 9 \"<cell:ab\\\"c>\"\n"    // 6
    "  store(a, b);\n";               // 7
}

TEST(LineInfo, EachCudaLineBelongsToTheStatementOfItsLineSection) {
  const auto lines = cudaSourceLines(kCuda);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_FALSE(lines[0].valid());
  EXPECT_FALSE(lines[1].valid());
  EXPECT_FALSE(lines[2].valid());  // the directive itself
  EXPECT_EQ(lines[3], (SourceLine{"<cell:ab\"c>", 7}));
  EXPECT_EQ(lines[4], (SourceLine{"<cell:ab\"c>", 7}));  // not 8: the whole statement is line 7
  EXPECT_EQ(lines[6], (SourceLine{"<cell:ab\"c>", 9}));
  const std::string blanked = withoutLineDirectives(kCuda);
  EXPECT_EQ(splitLines(blanked).size(), 7u);
  EXPECT_EQ(blanked.find("#line"), std::string::npos);
  EXPECT_EQ(splitLines(blanked)[6], "  store(a, b);");
}

TEST(LineInfo, PtxLocDirectivesNameCudaLinesAndInlinedHelpersCountAtTheirCaller) {
  const auto cuda = cudaSourceLines(kCuda);
  const std::string ptx =
      ".visible .entry k(\n"                                                    // 1
      ")\n"                                                                     // 2
      "{\n"                                                                     // 3
      "\t.loc\t1 4 3\n"                                                         // 4
      "\tmov.u32 \t%r1, 1;\n"                                                   // 5
      "\t.loc\t1 2 3, function_name $L__info_string0, inlined_at 1 7 5\n"      // 6: helper called from line 7
      "\tld.global.f32 \t%f1, [%rd1];\n"                                        // 7
      "\t.loc\t1 1 3, function_name $L__info_string1, inlined_at 1 2 3\n"      // 8: helper in the helper
      "\tst.global.f32 \t[%rd1], %f1;\n"                                        // 9
      "\t.loc\t2 5 1\n"                                                         // 10: another file
      "\tret;\n"                                                                // 11
      "}\n"                                                                     // 12
      "\t.file\t1 \"/home/u/add.cu\"\n"                                          // 13
      "\t.file\t2 \"/usr/include/other.h\"\n"                                   // 14
      "\t.loc\t1 5 1\n"                                                         // 15
      "\t// begin inline asm\n"                                                 // 16
      "\t{\n"                                                                  // 17
      "\tmov.b32 %r1, 0;\n"                                                     // 18
      "\t}\n"                                                                  // 19: the asm's brace
      "\t// end inline asm\n"                                                   // 20
      "\tadd.s32 %r2, %r1, 1;\n";                                               // 21: still line 5
  const std::vector<int> lines = ptxCudaLines(ptx, "add.cu", cuda);
  ASSERT_EQ(lines.size(), 21u);
  EXPECT_EQ(lines[17], 5);
  EXPECT_EQ(lines[20], 5);
  EXPECT_EQ(lines[4], 4);   // mov under CUDA line 4
  EXPECT_EQ(lines[6], 7);   // the helper's load counts at its call on line 7
  EXPECT_EQ(lines[8], 7);   // still the statement of line 7
  EXPECT_EQ(lines[10], 0);  // another file's line
  EXPECT_EQ(lines[3], 0);   // directives get no line
  const auto sources = throughCuda(lines, cuda);
  EXPECT_EQ(sources[4].line, 7);
  EXPECT_EQ(sources[6].line, 9);
  EXPECT_FALSE(sources[10].valid());
}

TEST(LineInfo, NvdisasmLineCommentsNameCudaLines) {
  const auto cuda = cudaSourceLines(kCuda);
  const std::string sass =
      "\t.text.k:\n"
      "\t//## File \"/tmp/add.cu\", line 4\n"
      "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
      "\t//## File \"/tmp/add.cu\", line 2 inlined at \"/tmp/add.cu\", line 7\n"
      "        /*0010*/                   LDG.E R2, desc[UR4][R2.64] ;\n";
  const std::vector<int> lines = sassCudaLines(sass, "add.cu", cuda);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], 0);
  EXPECT_EQ(lines[2], 4);
  EXPECT_EQ(lines[4], 7);
}

TEST(LineInfo, IrLocationsAreTakenOffTheText) {
  std::string ir =
      "kernel k(%x: ptr<fp32>) {\n"
      "  let pid: i32 = program_id 0  loc(\"<cell:1>\":3:11)\n"
      "  store %0, x  loc(\"we\\\"ird.py\":12:5)\n"
      "}\n";
  const auto lines = takeIrLocations(ir);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_FALSE(lines[0].valid());
  EXPECT_EQ(lines[1], (SourceLine{"<cell:1>", 3}));
  EXPECT_EQ(lines[2], (SourceLine{"we\"ird.py", 12}));
  EXPECT_EQ(ir, "kernel k(%x: ptr<fp32>) {\n  let pid: i32 = program_id 0\n  store %0, x\n}\n");
}

TEST(SourceLineMap, MapsBothWaysAndPrintsJson) {
  SourceLineMap map;
  const SourceLine seven{"f.py", 7}, nine{"f.py", 9};
  map.setPane(Pane::Cuda, {{}, seven, seven, nine});
  map.setPane(Pane::Ptx, {nine, {}, seven});
  EXPECT_EQ(map.linesFor(Pane::Cuda, seven), (std::vector<int>{2, 3}));
  EXPECT_EQ(map.linesFor(Pane::Ptx, seven), (std::vector<int>{3}));
  EXPECT_TRUE(map.linesFor(Pane::Sass, seven).empty());
  EXPECT_EQ(map.sourceOf(Pane::Ptx, 1), std::optional<SourceLine>(nine));
  EXPECT_FALSE(map.sourceOf(Pane::Ptx, 2));
  EXPECT_FALSE(map.sourceOf(Pane::Ptx, 99));
  const nlohmann::json j = map.toJson();
  ASSERT_EQ(j["sources"].size(), 2u);
  EXPECT_EQ(j["sources"][0]["line"], 7);
  EXPECT_EQ(j["sources"][0]["cuda"], nlohmann::json({2, 3}));
  EXPECT_EQ(j["sources"][1]["ptx"], nlohmann::json({1}));
}
