// The Compiled view's model (core/compiled/CompiledView) on the seed kernels: the vector add's
// source lines lead to the PTX holding their loads and stores (and back), the IR after each pass
// keeps its source lines, and two num_warps values compare with both register counts. Needs NVRTC
// (no GPU): skipped, saying so, where it is missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "core/compiled/CompiledView.h"
#include "core/compiled/LineInfo.h"
#include "core/compiled/ResourceComparison.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;
using compiled::Pane;
using compiled::SourceLine;
using lang::ArgSpec;
using ir::DType;

namespace {

lang::Specialization addSpec() {
  lang::Specialization s;
  s.args = {ArgSpec::pointer(DType::FP32), ArgSpec::pointer(DType::FP32), ArgSpec::pointer(DType::FP32),
            ArgSpec::scalar(DType::I32)};
  s.kwargs = {{"BLOCK_SIZE", ArgSpec::constexprValue(lang::ConstValue::integer(1024))}};
  return s;
}

compiled::CompileOutcome compileSeed(const char* file, const char* kernel, const lang::Specialization& spec,
                                     const std::string& arch = "sm_80") {
  compiled::CompileRequest r;
  r.program = lang::test::seedProgram(file);
  r.kernel = kernel;
  r.spec = spec;
  r.arch = arch;
  return compiled::compileView(r);
}

// The 1-based lines of the view's source holding `needle`, as source lines.
std::vector<SourceLine> sourceLinesWith(const compiled::CompiledView& v, const std::string& needle) {
  std::vector<SourceLine> out;
  const std::vector<std::string> lines = compiled::splitLines(v.source);
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(needle) != std::string::npos) out.push_back({v.sourceFile, v.sourceFirstLine + static_cast<int>(i)});
  return out;
}

bool anyLineHas(const std::vector<std::string>& text, const std::vector<int>& lines, const std::string& needle) {
  for (int l : lines)
    if (text[static_cast<size_t>(l) - 1].find(needle) != std::string::npos) return true;
  return false;
}

#define SKIP_WITHOUT_SEEDS_OR_NVRTC()                                                                         \
  do {                                                                                                        \
    if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR; \
    if (!gpu::Nvrtc::instance().available())                                                                  \
      GTEST_SKIP() << "NVRTC is not available, so there is no PTX to map: "                                   \
                   << gpu::Nvrtc::instance().unavailableReason();                                             \
  } while (false)

}  // namespace

TEST(CompiledView, EachLoadAndStoreLineOfTheSeedVectorAddMapsToItsPtx) {
  SKIP_WITHOUT_SEEDS_OR_NVRTC();
  const auto out = compileSeed("triton-from-zero.md", "add_kernel", addSpec());
  ASSERT_TRUE(out.view) << out.error;
  const compiled::CompiledView& v = *out.view;
  EXPECT_EQ(v.sourceFile, "triton-from-zero.md");
  const std::vector<std::string> ptx = compiled::splitLines(v.ptx);
  const std::vector<std::string> cuda = compiled::splitLines(v.cuda);

  const auto loads = sourceLinesWith(v, "tl.load(");
  ASSERT_EQ(loads.size(), 2u) << v.source;
  for (const SourceLine& load : loads) {
    const std::vector<int> lines = v.map.linesFor(Pane::Ptx, load);
    ASSERT_FALSE(lines.empty()) << "line " << load.line << " has no PTX";
    EXPECT_TRUE(anyLineHas(ptx, lines, "ld.global")) << "no ld.global under line " << load.line;
    EXPECT_FALSE(anyLineHas(ptx, lines, "st.global")) << "a store under load line " << load.line;
    // And back: each of those PTX lines names the load's source line.
    for (int l : lines) EXPECT_EQ(v.map.sourceOf(Pane::Ptx, l), std::optional<SourceLine>(load));
    EXPECT_FALSE(v.map.linesFor(Pane::Cuda, load).empty());
  }
  const auto stores = sourceLinesWith(v, "tl.store(");
  ASSERT_EQ(stores.size(), 1u);
  const std::vector<int> storeLines = v.map.linesFor(Pane::Ptx, stores[0]);
  EXPECT_TRUE(anyLineHas(ptx, storeLines, "st.global"));
  EXPECT_FALSE(anyLineHas(ptx, storeLines, "ld.global"));
  // Every ld.global of the kernel sits under one of the two load lines, every st.global under the store.
  for (size_t i = 0; i < ptx.size(); ++i) {
    const auto src = v.map.sourceOf(Pane::Ptx, static_cast<int>(i) + 1);
    if (ptx[i].find("ld.global") != std::string::npos) {
      ASSERT_TRUE(src) << "PTX line " << i + 1 << " has no source: " << ptx[i];
      EXPECT_TRUE(*src == loads[0] || *src == loads[1]) << ptx[i] << " came from line " << src->line;
    }
    if (ptx[i].find("st.global") != std::string::npos) {
      ASSERT_TRUE(src) << ptx[i];
      EXPECT_EQ(*src, stores[0]);
    }
  }
  // The CUDA lines of the store line are in that statement's #line section.
  for (int l : v.map.linesFor(Pane::Cuda, stores[0])) EXPECT_EQ(cuda[static_cast<size_t>(l) - 1].rfind("#line", 0), std::string::npos);
}

TEST(CompiledView, TheIrAfterEveryPassKeepsItsSourceLines) {
  SKIP_WITHOUT_SEEDS_OR_NVRTC();
  const auto out = compileSeed("triton-from-zero.md", "add_kernel", addSpec());
  ASSERT_TRUE(out.view) << out.error;
  const compiled::CompiledView& v = *out.view;
  const auto& passes = gpu::passes::gpuPasses();
  ASSERT_EQ(v.ir.size(), passes.size() + 1);
  EXPECT_EQ(v.ir[0].name, "checker");
  const SourceLine store = sourceLinesWith(v, "tl.store(").at(0);
  for (size_t i = 0; i < v.ir.size(); ++i) {
    if (i > 0) {
      EXPECT_EQ(v.ir[i].name, passes[i - 1].name);
    }
    const compiled::IrStage& stage = v.ir[i];
    EXPECT_EQ(stage.text.find("loc("), std::string::npos) << "locations are shown by the highlight, not as text";
    const std::vector<std::string> text = compiled::splitLines(stage.text);
    ASSERT_EQ(text.size(), stage.lines.size());
    bool storeFound = false;
    for (size_t l = 0; l < text.size(); ++l)
      if (text[l].find("store ") != std::string::npos) storeFound = stage.lines[l] == store;
    EXPECT_TRUE(storeFound) << stage.name;
  }
}

TEST(CompiledView, TwoNumWarpsOfTheGroupedMatmulCompareWithBothRegisterCounts) {
  SKIP_WITHOUT_SEEDS_OR_NVRTC();
  lang::Specialization spec;
  spec.args = {ArgSpec::pointer(DType::FP16), ArgSpec::pointer(DType::FP16), ArgSpec::pointer(DType::FP16)};
  for (int i = 0; i < 9; ++i) spec.args.push_back(ArgSpec::scalar(DType::I32));
  for (const char* name : {"bm", "bn", "bk"}) spec.kwargs.push_back({name, ArgSpec::constexprValue(lang::ConstValue::integer(64))});
  spec.kwargs.push_back({"group_sz", ArgSpec::constexprValue(lang::ConstValue::integer(8))});
  spec.options.numWarps = 4;
  const auto four = compileSeed("triton-practitioners-guide.md", "grouped_matmul_k", spec);
  spec.options.numWarps = 8;
  const auto eight = compileSeed("triton-practitioners-guide.md", "grouped_matmul_k", spec);
  ASSERT_TRUE(four.view) << four.error;
  ASSERT_TRUE(eight.view) << eight.error;
  ASSERT_FALSE(four.view->resources.empty());
  ASSERT_FALSE(eight.view->resources.empty());
  const compiled::ResourceFigures& a = four.view->resources[0];
  const compiled::ResourceFigures& b = eight.view->resources[0];
  EXPECT_EQ(a.from, "ptxas");
  EXPECT_GT(a.registers, 0);
  EXPECT_GT(b.registers, 0);
  // fp16 operands on sm_80 multiply on tensor cores (wmma).
  EXPECT_FALSE(four.view->tensorCoreInstructions.empty());

  const auto rows = compiled::compareViews(*four.view, *eight.view);
  auto row = [&](const std::string& figure) -> const compiled::ComparisonRow* {
    for (const auto& r : rows)
      if (r.figure == figure) return &r;
    return nullptr;
  };
  const compiled::ComparisonRow* regs = row("registers per thread (ptxas)");
  ASSERT_NE(regs, nullptr);
  EXPECT_EQ(regs->left, std::to_string(a.registers));
  EXPECT_EQ(regs->right, std::to_string(b.registers));
  const compiled::ComparisonRow* threads = row("threads per program");
  ASSERT_NE(threads, nullptr);
  EXPECT_EQ(threads->left, "128");
  EXPECT_EQ(threads->right, "256");
  EXPECT_TRUE(row("specialization")->differs());
  ASSERT_NE(row("occupancy (ptxas)"), nullptr);
  EXPECT_NE(row("occupancy (ptxas)")->left.find("per SM"), std::string::npos);
}

TEST(CompiledView, NvrtcOutputsAreCachedInMemoryAndOnDisk) {
  SKIP_WITHOUT_SEEDS_OR_NVRTC();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tilescope-compiled-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ::setenv("TILESCOPE_CACHE_DIR", dir.c_str(), 1);
  compiled::clearCompiledViewMemoryCache();
  lang::Specialization spec = addSpec();
  spec.kwargs[0].second = ArgSpec::constexprValue(lang::ConstValue::integer(512));  // a text no other test compiled
  const auto cold = compileSeed("triton-from-zero.md", "add_kernel", spec);
  const auto warm = compileSeed("triton-from-zero.md", "add_kernel", spec);
  compiled::clearCompiledViewMemoryCache();
  const auto fromDisk = compileSeed("triton-from-zero.md", "add_kernel", spec);
  ::unsetenv("TILESCOPE_CACHE_DIR");
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(cold.view && warm.view && fromDisk.view);
  EXPECT_EQ(cold.view->cacheHit, "");
  EXPECT_EQ(warm.view->cacheHit, "memory");
  EXPECT_EQ(fromDisk.view->cacheHit, "disk");
  EXPECT_EQ(fromDisk.view->ptx, cold.view->ptx);
  EXPECT_EQ(fromDisk.view->resources.at(0).registers, cold.view->resources.at(0).registers);
}

// With nvdisasm (TILESCOPE_CUDA_BIN, CUDA_HOME, PATH) the SASS loads sit under the load lines; without
// a disassembler the view says which tools it looked for.
TEST(CompiledView, SassIsLinkedWhereADisassemblerIsInstalledElseItsAbsenceIsExplained) {
  SKIP_WITHOUT_SEEDS_OR_NVRTC();
  const auto out = compileSeed("triton-from-zero.md", "add_kernel", addSpec());
  ASSERT_TRUE(out.view) << out.error;
  const compiled::CompiledView& v = *out.view;
  if (!compiled::SassDisassembler::instance().available()) {
    EXPECT_FALSE(v.sass);
    EXPECT_NE(v.sassMissing.find("neither nvdisasm nor cuobjdump"), std::string::npos) << v.sassMissing;
    GTEST_SKIP() << "no nvdisasm or cuobjdump here, so only the message was checked: " << v.sassMissing;
  }
  ASSERT_TRUE(v.sass) << v.sassMissing;
  const std::vector<std::string> sass = compiled::splitLines(v.sass->text);
  const auto loads = sourceLinesWith(v, "tl.load(");
  const auto stores = sourceLinesWith(v, "tl.store(");
  int ldg = 0, stg = 0;
  for (size_t i = 0; i < sass.size(); ++i) {
    if (!v.sass->hasLineInfo) break;
    const auto src = v.map.sourceOf(Pane::Sass, static_cast<int>(i) + 1);
    if (sass[i].find(" LDG") != std::string::npos) {
      ++ldg;
      ASSERT_TRUE(src) << sass[i];
      EXPECT_TRUE(*src == loads.at(0) || *src == loads.at(1)) << sass[i] << " came from line " << src->line;
    }
    if (sass[i].find(" STG") != std::string::npos) {
      ++stg;
      ASSERT_TRUE(src) << sass[i];
      EXPECT_EQ(*src, stores.at(0)) << sass[i];
    }
  }
  if (v.sass->hasLineInfo) {
    EXPECT_GT(ldg, 0) << v.sass->text.substr(0, 3000);
    EXPECT_GT(stg, 0);
  } else {
    EXPECT_NE(v.sass->text.find("LDG"), std::string::npos) << v.sass->text.substr(0, 2000);
  }
}

TEST(CompiledView, AKernelThatDoesNotCheckIsAClearError) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  lang::Specialization spec = addSpec();
  spec.args[0] = ArgSpec::scalar(DType::I32);  // x_ptr as an int: the load has no pointer
  const auto bad = compileSeed("triton-from-zero.md", "add_kernel", spec);
  EXPECT_FALSE(bad.view);
  EXPECT_NE(bad.error.find("triton-from-zero.md:"), std::string::npos) << bad.error;
  const auto missing = compileSeed("triton-from-zero.md", "no_such_kernel", spec);
  EXPECT_FALSE(missing.view);
  EXPECT_NE(missing.error.find("no @triton.jit function named 'no_such_kernel'"), std::string::npos) << missing.error;
}
