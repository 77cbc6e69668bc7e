// Every kernel of both seed tutorials type-checks for the specializations the tutorials launch,
// and the IR matches the reviewed dumps in tests/golden/ir/ (TILESCOPE_UPDATE_GOLDEN=1 rewrites).
#include "CheckerTestUtil.h"
#include "core/ir/IRVerifier.h"

using namespace tilescope;
using namespace tilescope::lang;
using ir::DType;

namespace {

ArgSpec P(DType t) { return ArgSpec::pointer(t); }
ArgSpec S(DType t = DType::I32) { return ArgSpec::scalar(t); }
ArgSpec C(int64_t v) { return ArgSpec::constexprValue(ConstValue::integer(v)); }
std::vector<ArgSpec> repeat(int n, const ArgSpec& a) { return std::vector<ArgSpec>(n, a); }
std::vector<ArgSpec> cat(std::initializer_list<std::vector<ArgSpec>> parts) {
  std::vector<ArgSpec> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

struct SeedCase {
  const char* file;
  const char* kernel;
  int version;  // which definition of that name (0 = first) - copy_k is defined three times
  std::vector<ArgSpec> args;
  std::vector<std::pair<std::string, ArgSpec>> kwargs;
  const char* golden;  // tests/golden/ir/<golden>.txt
};

const char* kZero = "triton-from-zero.md";
const char* kGuide = "triton-practitioners-guide.md";

std::vector<SeedCase> seedCases() {
  const auto fp32x3 = repeat(3, P(DType::FP32));
  // matmul-style signatures: a, b, c, m, n, k, 6 strides
  auto matmul = [](DType in, DType out) { return cat({{P(in), P(in), P(out)}, repeat(9, S())}); };
  return {
      {kZero, "concept_kernel", 0, {P(DType::FP32), P(DType::FP32), S()}, {{"BLOCK_SIZE", C(128)}}, "concept_kernel"},
      {kZero, "add_kernel", 0, cat({fp32x3, {S()}}), {{"BLOCK_SIZE", C(1024)}}, "add_kernel"},
      {kZero, "softmax_kernel", 0, {P(DType::FP32), P(DType::FP32), S(), S(), S()}, {{"BLOCK_SIZE", C(1024)}}, "softmax_kernel"},
      {kZero, "matmul_kernel", 0, matmul(DType::FP16, DType::FP16),
       {{"BLOCK_SIZE_M", C(64)}, {"BLOCK_SIZE_N", C(64)}, {"BLOCK_SIZE_K", C(32)}}, "matmul_kernel_fp16"},
      {kZero, "matmul_kernel_autotune", 0, matmul(DType::FP16, DType::FP16),
       {{"BLOCK_SIZE_M", C(128)}, {"BLOCK_SIZE_N", C(256)}, {"BLOCK_SIZE_K", C(64)}}, "matmul_kernel_autotune"},
      {kZero, "simple_kernel", 0, {P(DType::FP32)}, {{"BLOCK_SIZE", C(1024)}}, "simple_kernel"},
      {kZero, "fused_attention_kernel", 0, cat({repeat(4, P(DType::FP16)), repeat(16, S()), repeat(3, S())}),
       {{"BLOCK_M", C(64)}, {"BLOCK_N", C(64)}, {"BLOCK_K", C(64)}}, "fused_attention_kernel"},
      {kZero, "layernorm_kernel", 0, cat({repeat(6, P(DType::FP32)), {S(), S(), S(DType::FP32)}}), {{"BLOCK_SIZE", C(1024)}},
       "layernorm_kernel"},
      {kZero, "layernorm_kernel", 0,
       cat({repeat(4, P(DType::FP16)), repeat(2, P(DType::FP32)), {S(), S(), S(DType::FP32)}}), {{"BLOCK_SIZE", C(512)}},
       "layernorm_kernel_fp16"},
      {kZero, "debug_kernel", 0, {P(DType::FP32)}, {{"BLOCK_SIZE", C(1024)}}, "debug_kernel"},
      // copy(x, bs=2, ...) with x = torch.tensor([1, 2, 3, 4, 5, 6]) (int64): kernel_fn[grid](x, z, n, bs)
      {kGuide, "copy_k", 0, {P(DType::I64), P(DType::I64), S(), C(2)}, {}, "copy_k_v1"},
      {kGuide, "copy_k", 1, {P(DType::I64), P(DType::I64), S(), C(2)}, {}, "copy_k_v2"},
      {kGuide, "copy_k", 2, {P(DType::I64), P(DType::I64), S(), C(2)}, {}, "copy_k_v3"},
      // rgb2grey(img (uint8), bs=(32, 32)): out has the image's dtype
      {kGuide, "rgb2grey_k", 0, {P(DType::U8), P(DType::U8), S(), S()}, {{"bs0", C(32)}, {"bs1", C(32)}}, "rgb2grey_k"},
      // matmul(a, b, naive_matmul_k, bs=16): c is float16 whatever a and b are
      {kGuide, "naive_matmul_k", 0, matmul(DType::FP32, DType::FP16), {{"bm", C(16)}, {"bn", C(16)}, {"bk", C(16)}},
       "naive_matmul_k_fp32_16"},
      {kGuide, "naive_matmul_k", 0, matmul(DType::FP16, DType::FP16), {{"bm", C(64)}, {"bn", C(64)}, {"bk", C(64)}},
       "naive_matmul_k_fp16_64"},
      // swizzle_k[(5, 4)](x, z, group_sz=3) with x = torch.arange(20) (int64)
      {kGuide, "swizzle_k", 0, {P(DType::I64), P(DType::I64)}, {{"group_sz", C(3)}}, "swizzle_k"},
      {kGuide, "grouped_matmul_k", 0, matmul(DType::FP32, DType::FP16),
       {{"bm", C(16)}, {"bn", C(16)}, {"bk", C(16)}, {"group_sz", C(4)}}, "grouped_matmul_k_fp32_16"},
      {kGuide, "grouped_matmul_k", 0, matmul(DType::FP16, DType::FP16),
       {{"bm", C(64)}, {"bn", C(64)}, {"bk", C(64)}, {"group_sz", C(32)}}, "grouped_matmul_k_fp16_64"},
      {kGuide, "grouped_autotuned_matmul_k", 0, matmul(DType::FP32, DType::FP16),
       {{"bm", C(128)}, {"bn", C(256)}, {"bk", C(64)}, {"group_sz", C(8)}}, "grouped_autotuned_matmul_k"},
  };
}

const JitFunctionInfo* definition(const Program& p, const std::string& name, int version) {
  int seen = 0;
  for (const JitFunctionInfo& j : p.jitFunctions())
    if (j.name == name && seen++ == version) return &j;
  return nullptr;
}

class CheckerSeed : public ::testing::TestWithParam<SeedCase> {};

}  // namespace

TEST_P(CheckerSeed, TypeChecksAndMatchesGolden) {
  if (!test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  const SeedCase& c = GetParam();
  auto program = test::seedProgram(c.file);
  const JitFunctionInfo* fn = definition(*program, c.kernel, c.version);
  ASSERT_NE(fn, nullptr) << c.kernel;
  Specialization spec;
  spec.args = c.args;
  spec.kwargs = c.kwargs;
  CheckResult r = checkKernel(*program, *fn, spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  EXPECT_FALSE(r.diagnostics.hasErrors());
  EXPECT_EQ(ir::IRVerifier::verify(*r.kernel), std::vector<std::string>{});
  test::expectGolden(std::string("ir/") + c.golden + ".txt", r.kernel->dump());
}

INSTANTIATE_TEST_SUITE_P(Seeds, CheckerSeed, ::testing::ValuesIn(seedCases()),
                         [](const ::testing::TestParamInfo<SeedCase>& info) { return std::string(info.param.golden); });

TEST(CheckerSeedAll, EveryKernelOfBothSeedsChecksWithoutALaunch) {
  if (!test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  for (const char* file : {kZero, kGuide}) {
    auto program = test::seedProgram(file);
    DiagnosticList d = checkAllKernels(*program, {});
    EXPECT_FALSE(d.hasErrors()) << d.render();
  }
}

TEST(CheckerSeedAll, CheckAllInfersPointersAndTakesAutotuneDefaults) {
  if (!test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  auto program = test::seedProgram(kZero);
  // The helpers the guide calls from kernels are not kernels themselves.
  auto guide = test::seedProgram(kGuide);
  std::vector<std::string> roots;
  for (const JitFunctionInfo* j : kernelRoots(*guide)) roots.push_back(j->name);
  EXPECT_EQ(roots, (std::vector<std::string>{"copy_k", "copy_k", "copy_k", "rgb2grey_k", "naive_matmul_k", "swizzle_k",
                                             "grouped_matmul_k", "grouped_autotuned_matmul_k"}));
  const JitFunctionInfo* tuned = program->findJitFunction("matmul_kernel_autotune");
  ASSERT_NE(tuned, nullptr);
  ASSERT_EQ(tuned->autotuneConfigs.size(), 8u);
  EXPECT_EQ(tuned->autotuneConfigs[0].values.size(), 3u);
  EXPECT_EQ(tuned->autotuneConfigs[0].values[1].first, "BLOCK_SIZE_N");
  EXPECT_EQ(tuned->autotuneConfigs[0].values[1].second.asInt(), 256);
  EXPECT_EQ(tuned->autotuneConfigs[0].options.numWarps, 8);
  EXPECT_EQ(tuned->autotuneConfigs[6].options.numStages, 5);
  EXPECT_EQ(tuned->autotuneKey, (std::vector<std::string>{"M", "N", "K"}));
}

// Speed is a benchmark, not a test: core/bench/bench_frontend.cpp (docs/PERFORMANCE.md).
