// `tilescope-cli compile --emit map`: the source-line -> CUDA/PTX line map as JSON, with the texts
// the numbers count in; the vector add's load line leads to a PTX ld.global.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/cli/CliRunner.h"

using tilescope::testing::runCli;
namespace fs = std::filesystem;

TEST(CompileCommand, EmitsTheSourceLineMapAsJson) {
  const fs::path p = fs::temp_directory_path() / ("tilescope-cli-" + std::to_string(::getpid()) + "-map.py");
  std::ofstream(p) << R"(import triton
import triton.language as tl

@triton.jit
def vadd(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs, mask=offs < n)
    b = tl.load(b_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, a + b, mask=offs < n)
)";
  const auto r = runCli("compile " + p.string() + " --kernel vadd --signature \"*fp32,*fp32,*fp32,i32,256\" --arch sm_80 --emit map");
  fs::remove(p);
  if (r.output.find("NVRTC is not available") != std::string::npos) GTEST_SKIP() << "no NVRTC: " << r.output;
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const size_t json = r.output.find('{');
  ASSERT_NE(json, std::string::npos) << r.output;
  const nlohmann::json map = nlohmann::json::parse(r.output.substr(json));
  EXPECT_EQ(map["kernel"], "vadd");
  EXPECT_EQ(map["signature"], "*fp32,*fp32,*fp32,i32,256");
  const auto& ptx = map["panes"]["ptx"];
  const auto& cuda = map["panes"]["cuda"];
  bool sawLoadLine = false, sawStoreLine = false;
  for (const auto& s : map["sources"]) {
    const int line = s["line"];
    std::string ptxText;
    for (int l : s["ptx"]) ptxText += ptx.at(static_cast<size_t>(l) - 1).get<std::string>() + "\n";
    EXPECT_FALSE(s["cuda"].empty()) << line;
    for (int l : s["cuda"]) EXPECT_LE(static_cast<size_t>(l), cuda.size());
    if (line == 7) {
      sawLoadLine = true;
      EXPECT_NE(ptxText.find("ld.global"), std::string::npos) << ptxText;
    }
    if (line == 9) {
      sawStoreLine = true;
      EXPECT_NE(ptxText.find("st.global"), std::string::npos) << ptxText;
      EXPECT_EQ(ptxText.find("ld.global"), std::string::npos) << ptxText;
    }
  }
  EXPECT_TRUE(sawLoadLine);
  EXPECT_TRUE(sawStoreLine);
}
