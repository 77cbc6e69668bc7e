// Compile-only (ctest label nvrtc), CI without a GPU: every seed kernel goes IR -> CUDA C++ -> NVRTC PTX for sm_80, sm_90 and sm_90a, and
// ptxas (from /usr/local/cuda/bin, $CUDA_HOME/bin or PATH) assembles the PTX. Skips visibly when
// NVRTC or ptxas is missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/gpu/GpuSeedCases.h"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

std::string findPtxas() {
  std::vector<fs::path> candidates;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(var)) candidates.push_back(fs::path(root) / "bin" / "ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    size_t start = 0;
    while (start <= p.size()) {
      const size_t end = p.find(':', start);
      const std::string dir = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (!dir.empty()) candidates.push_back(fs::path(dir) / "ptxas");
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  for (const fs::path& c : candidates) {
    std::error_code ec;
    if (fs::exists(c, ec)) return c.string();
  }
  return "";
}

// A private cache folder: the test must exercise NVRTC, not yesterday's cache.
struct TempCache {
  fs::path dir = fs::temp_directory_path() / ("tilescope-ptx-test-" + std::to_string(::getpid()));
  TempCache() { setenv("TILESCOPE_CACHE_DIR", dir.c_str(), 1); }
  ~TempCache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
    unsetenv("TILESCOPE_CACHE_DIR");
  }
};

// Runs ptxas on `ptx` for `arch`; on failure returns its log, else "".
std::string ptxasErrors(const std::string& ptxas, const TempCache& cache, const std::string& name, const std::string& arch,
                        const std::string& ptx) {
  const fs::path ptxFile = cache.dir / (name + "." + arch + ".ptx");
  fs::create_directories(cache.dir);
  std::ofstream(ptxFile) << ptx;
  const fs::path log = cache.dir / "ptxas.log";
  const std::string cmd = "\"" + ptxas + "\" -arch=" + arch + " \"" + ptxFile.string() + "\" -o /dev/null > \"" + log.string() + "\" 2>&1";
  if (std::system(cmd.c_str()) == 0) return "";
  const std::string text = lang::test::readFile(log);
  return text.empty() ? "ptxas failed without output" : text;
}

// A K loop of BM x BK @ BK x BN tiles with a masked K tail: the tensor-core and pipeline cases.
constexpr const char* kMatmulLoop = R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
)";

// The matmul loop specialized for `in` operands, BM x BN x BK blocks and `warps` warps (default stages).
ir::KernelPtr matmulLoop(ir::DType in, int64_t bm, int64_t bn, int64_t bk, int warps) {
  auto program = lang::test::programFrom(kMatmulLoop, "mm.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(in), lang::ArgSpec::pointer(in), lang::ArgSpec::pointer(ir::DType::FP32),
               lang::ArgSpec::scalar(ir::DType::I32, true), lang::ArgSpec::constexprValue(lang::ConstValue::integer(bm)),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(bn)),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(bk))};
  spec.options.numWarps = warps;
  const lang::CheckResult checked = lang::checkKernel(*program, "mm", spec);
  EXPECT_TRUE(checked.ok()) << checked.diagnostics.render();
  return checked.kernel;
}

class SeedPtx : public ::testing::TestWithParam<gpu::test::GpuSeedCase> {};

}  // namespace

TEST_P(SeedPtx, CompilesAndAssemblesForSm80AndSm90) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  const std::string ptxas = findPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH)";
  TempCache cache;
  ir::KernelPtr k = gpu::test::checkSeedCase(GetParam());
  ASSERT_TRUE(k);
  for (const char* arch : {"sm_80", "sm_90", "sm_90a"}) {
    auto compiled = gpu::GpuCompiler::instance().compile(*k, arch);
    ASSERT_FALSE(compiled->ptx.empty());
    EXPECT_NE(compiled->ptx.find(".target " + std::string(arch)), std::string::npos);
    EXPECT_NE(compiled->ptx.find(".entry " + compiled->cuda.entryName), std::string::npos);
    // -lineinfo + #line: the PTX's .loc entries point into the seed's markdown.
    if (compiled->cuda.source.find("#line ") != std::string::npos) {
      EXPECT_NE(compiled->ptx.find(GetParam().file), std::string::npos)
        << "no .file entry for the kernel's source; CUDA head:\n" << compiled->cuda.source.substr(compiled->cuda.source.find("extern \"C\""), 1500);
    }
    EXPECT_EQ(ptxasErrors(ptxas, cache, GetParam().name, arch, compiled->ptx), "") << GetParam().name << " " << arch;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, SeedPtx, ::testing::ValuesIn(gpu::test::gpuSeedCases()),
                         [](const ::testing::TestParamInfo<gpu::test::GpuSeedCase>& info) { return std::string(info.param.name); });

// Memory-bound kernels: tile loads and stores become vector accesses (4 fp32 per group: 16 bytes; the
// fp16 layer norm's 512 elements over 128 threads: 4 per group, 8 bytes), reductions use warp shuffles.
TEST(GpuCompiler, SeedKernelsUseVectorAccessesAndShuffles) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  TempCache cache;
  struct Expect {
    const char* name;
    std::vector<std::string> present;
  };
  const Expect expects[] = {
      {"add_kernel", {"ld.global.v4.b32", "st.global.v4.b32"}},
      {"softmax_kernel", {"ld.global.v4.b32", "st.global.v4.b32", "shfl.sync.bfly.b32"}},
      {"layernorm_kernel", {"ld.global.v4.b32", "st.global.v4.b32", "shfl.sync.bfly.b32"}},
      {"layernorm_kernel_fp16", {"ld.global.v2.b32", "st.global.v2.b32", "shfl.sync.bfly.b32"}},
  };
  for (const Expect& e : expects) {
    bool found = false;
    for (const gpu::test::GpuSeedCase& c : gpu::test::gpuSeedCases()) {
      if (std::string(c.name) != e.name) continue;
      found = true;
      ir::KernelPtr k = gpu::test::checkSeedCase(c);
      ASSERT_TRUE(k);
      auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_90");
      for (const std::string& p : e.present) EXPECT_NE(compiled->ptx.find(p), std::string::npos) << e.name << " has no " << p;
      // The per-element fallback stays for groups that are misaligned, non-contiguous or partly masked.
      EXPECT_NE(compiled->ptx.find("st.global.f32"), std::string::npos) << e.name;
    }
    EXPECT_TRUE(found) << e.name;
  }
}

// bf16 and tf32 tensor cores and the cp.async ring, which no seed kernel needs all of: generated,
// compiled by NVRTC and assembled by ptxas for sm_80 and sm_90.
TEST(GpuCompiler, Bf16AndTf32TensorCoreLoopsAssemble) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  const std::string ptxas = findPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH)";
  TempCache cache;
  struct Case {
    ir::DType in;
    std::vector<std::string> present;
  };
  for (const Case& c : {Case{ir::DType::BF16, {"wmma.mma.sync.aligned.row.row.m16n16k16.f32.bf16.bf16.f32", "cp.async.cg.shared.global"}},
                        // fp32 operands of a tf32 dot ride the same ring, 4 per chunk, rounded as read
                        Case{ir::DType::FP32, {"wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32", "cvt.rna.tf32.f32",
                                               "cp.async.cg.shared.global"}}}) {
    ir::KernelPtr k = matmulLoop(c.in, 64, 64, 32, 4);
    ASSERT_TRUE(k);
    for (const char* arch : {"sm_80", "sm_90"}) {
      auto compiled = gpu::GpuCompiler::instance().compile(*k, arch);
      const std::string what = std::string(ir::dtypeName(c.in)) + " " + arch;
      for (const std::string& p : c.present) EXPECT_NE(compiled->ptx.find(p), std::string::npos) << what << " has no " << p;
      EXPECT_EQ(ptxasErrors(ptxas, cache, "mm." + std::string(ir::dtypeName(c.in)), arch, compiled->ptx), "") << what;
    }
  }
}

// Hopper's wgmma (sm_90a only): a pipelined fp16 or bf16 K loop with BK = 64 and two warpgroups
// multiplies with wgmma.mma_async on swizzled stages; plain sm_90 keeps the portable wmma loop.
TEST(GpuCompiler, WarpgroupMmaLoopsAssembleForSm90a) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  const std::string ptxas = findPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH)";
  TempCache cache;
  for (ir::DType in : {ir::DType::FP16, ir::DType::BF16}) {
    ir::KernelPtr k = matmulLoop(in, 128, 128, 64, 8);
    ASSERT_TRUE(k);
    const std::string elem = in == ir::DType::FP16 ? "f16" : "bf16";
    const std::string what = std::string(ir::dtypeName(in));
    auto hopper = gpu::GpuCompiler::instance().compile(*k, "sm_90a");
    EXPECT_NE(hopper->ptx.find(".target sm_90a"), std::string::npos) << what;
    EXPECT_NE(hopper->ptx.find("wgmma.mma_async.sync.aligned.m64n128k16.f32." + elem + "." + elem), std::string::npos) << what;
    EXPECT_NE(hopper->ptx.find("fence.proxy.async.shared::cta"), std::string::npos) << what;
    EXPECT_NE(hopper->ptx.find("cp.async.cg.shared.global"), std::string::npos) << what;
    EXPECT_EQ(ptxasErrors(ptxas, cache, "mm." + what, "sm_90a", hopper->ptx), "") << what;
    auto portable = gpu::GpuCompiler::instance().compile(*k, "sm_90");
    EXPECT_EQ(portable->ptx.find("wgmma"), std::string::npos) << what;
    EXPECT_NE(portable->ptx.find("wmma.mma.sync"), std::string::npos) << what;
  }
}

// tf32 (fp32 operands) on sm_90a: wgmma reads 32-bit operands from shared memory only K-major, so
// the loop multiplies B^T (registers, rounded to tf32 as loaded) by A (K-major descriptors, rounded
// in place): m64 x BM x k8 per warpgroup, two warpgroups over BN = 128. Plain sm_90 keeps wmma.
TEST(GpuCompiler, Tf32LoopsRunTheTransposedProductOnWgmmaForSm90a) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  const std::string ptxas = findPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH)";
  TempCache cache;
  struct Case {
    int64_t bm, bn, bk;
    int warps;
    const char* instruction;
  };
  for (const Case& c : {Case{128, 128, 32, 8, "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32"},
                        Case{64, 128, 64, 4, "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32"}}) {
    ir::KernelPtr k = matmulLoop(ir::DType::FP32, c.bm, c.bn, c.bk, c.warps);
    ASSERT_TRUE(k);
    const std::string what = std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk);
    auto hopper = gpu::GpuCompiler::instance().compile(*k, "sm_90a");
    EXPECT_NE(hopper->ptx.find(c.instruction), std::string::npos) << what;
    EXPECT_NE(hopper->ptx.find("cvt.rna.tf32.f32"), std::string::npos) << what;
    EXPECT_NE(hopper->ptx.find("fence.proxy.async.shared::cta"), std::string::npos) << what;
    EXPECT_NE(hopper->ptx.find("cp.async.cg.shared.global"), std::string::npos) << what;
    EXPECT_EQ(hopper->ptx.find("wmma.mma.sync"), std::string::npos) << what;
    EXPECT_EQ(ptxasErrors(ptxas, cache, "mm.tf32." + what, "sm_90a", hopper->ptx), "") << what;
    auto portable = gpu::GpuCompiler::instance().compile(*k, "sm_90");
    EXPECT_EQ(portable->ptx.find("wgmma"), std::string::npos) << what;
    EXPECT_NE(portable->ptx.find("wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32"), std::string::npos) << what;
  }
}

TEST(GpuCompiler, TargetNamesGiveTheGeneratorsOptions) {
  const gpu::CudaCodegenOptions hopper = gpu::GpuCompiler::optionsFor("sm_90a");
  EXPECT_EQ(hopper.smArch, 90);
  EXPECT_TRUE(hopper.archSpecific);
  const gpu::CudaCodegenOptions plain = gpu::GpuCompiler::optionsFor("sm_90");
  EXPECT_EQ(plain.smArch, 90);
  EXPECT_FALSE(plain.archSpecific);
  EXPECT_EQ(gpu::GpuCompiler::optionsFor("compute_80").smArch, 80);
  gpu::CudaCodegenOptions timed;
  timed.programTiming = true;
  EXPECT_TRUE(gpu::GpuCompiler::optionsFor("sm_86", timed).programTiming);  // the caller's options stay
}

TEST(GpuCompiler, SecondCompileOfTheSameKernelHitsTheCache) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  TempCache cache;
  ir::KernelPtr k = gpu::test::checkSeedCase(gpu::test::gpuSeedCases()[1]);
  ASSERT_TRUE(k);
  auto first = gpu::GpuCompiler::instance().compile(*k, "sm_86");
  auto second = gpu::GpuCompiler::instance().compile(*k, "sm_86");
  EXPECT_EQ(first->cacheHit, "");
  EXPECT_EQ(second->cacheHit, "memory");
  EXPECT_EQ(first->ptx, second->ptx);
  EXPECT_TRUE(fs::exists(cache.dir / (first->cacheKey + ".ptx")));
  // Another arch is another key.
  auto other = gpu::GpuCompiler::instance().compile(*k, "sm_89");
  EXPECT_NE(other->cacheKey, first->cacheKey);
}

TEST(GpuCompiler, ProgramTimingStampsEveryProgramAndAssembles) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  const std::string ptxas = findPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found";
  TempCache cache;
  ir::KernelPtr k = gpu::test::checkSeedCase(gpu::test::gpuSeedCases()[1]);
  ASSERT_TRUE(k);
  gpu::CudaCodegenOptions timing;
  timing.programTiming = true;
  auto plain = gpu::GpuCompiler::instance().compile(*k, "sm_90");
  auto timed = gpu::GpuCompiler::instance().compile(*k, "sm_90", timing);
  EXPECT_NE(plain->cacheKey, timed->cacheKey);
  EXPECT_FALSE(plain->cuda.programTiming);
  EXPECT_TRUE(timed->cuda.programTiming);
  EXPECT_EQ(plain->ptx.find("%globaltimer"), std::string::npos);
  EXPECT_NE(timed->ptx.find("%globaltimer"), std::string::npos);
  EXPECT_NE(timed->ptx.find("%smid"), std::string::npos);
  // The entry takes one more pointer: the timing buffer.
  EXPECT_NE(timed->ptx.find(timed->cuda.entryName + "_param_" + std::to_string(k->runtimeParams().size() + 1)), std::string::npos)
      << timed->ptx.substr(0, 3000);
  const fs::path ptxFile = cache.dir / "timed.ptx";
  fs::create_directories(cache.dir);
  std::ofstream(ptxFile) << timed->ptx;
  const std::string cmd = "\"" + ptxas + "\" -arch=sm_90 \"" + ptxFile.string() + "\" -o /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
}

namespace {
ir::KernelPtr seedCaseNamed(const std::string& name) {
  for (const gpu::test::GpuSeedCase& c : gpu::test::gpuSeedCases())
    if (name == c.name) return gpu::test::checkSeedCase(c);
  return nullptr;
}
bool isElf(const std::string& image) { return image.size() > 4 && image.compare(0, 4, "\x7f" "ELF") == 0; }
}  // namespace

// The build compileForLaunch() first gives a tensor-core kernel is the quick one (NVRTC
// --Ofast-compile=mid), with the optimized build compiling in the background; once that is done,
// compileForLaunch() gives it. Both come with the device binary, so loading them runs no ptxas.
// Compile-only: nothing is launched, no GPU needed (NVRTC alone).
TEST(GpuCompiler, TensorCoreKernelGetsTheQuickBuildFirstThenTheOptimizedOne) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  TempCache cache;
  ir::KernelPtr k = seedCaseNamed("grouped_matmul_k_fp16_64");
  ASSERT_TRUE(k);
  gpu::GpuCompiler& compiler = gpu::GpuCompiler::instance();
  auto first = compiler.compileForLaunch(*k, "sm_80", {}, true);
  EXPECT_TRUE(first->cuda.usesTensorCores);
  EXPECT_EQ(first->tier, gpu::CompileTier::Quick);
  EXPECT_TRUE(isElf(first->cubin));
  EXPECT_NE(first->ptx.find("mma.sync"), std::string::npos);
  compiler.waitForBackgroundBuilds();
  auto second = compiler.compileForLaunch(*k, "sm_80", {}, true);
  EXPECT_EQ(second->tier, gpu::CompileTier::Optimized);
  EXPECT_NE(second->cacheKey, first->cacheKey);
  EXPECT_TRUE(isElf(second->cubin));
  EXPECT_EQ(second->cuda.source, first->cuda.source);  // the same CUDA C++, compiled harder
  EXPECT_TRUE(fs::exists(cache.dir / (second->cacheKey + ".cubin")));
  EXPECT_TRUE(fs::exists(cache.dir / (second->cacheKey + ".ptx")));
  // compile() (the CLI's, PTX only) shares the optimized build.
  EXPECT_EQ(compiler.compile(*k, "sm_80")->cacheKey, second->cacheKey);
  auto third = compiler.compileForLaunch(*k, "sm_80", {}, true);
  EXPECT_EQ(third->tier, gpu::CompileTier::Optimized);
  EXPECT_EQ(third->cacheHit, "memory");
}

TEST(GpuCompiler, TimedAndNonTensorCoreBuildsAreOptimizedAtOnce) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  TempCache cache;
  gpu::GpuCompiler& compiler = gpu::GpuCompiler::instance();
  ir::KernelPtr matmul = seedCaseNamed("grouped_matmul_k_fp16_64");
  ASSERT_TRUE(matmul);
  auto timed = compiler.compileForLaunch(*matmul, "sm_86", {}, false);
  EXPECT_EQ(timed->tier, gpu::CompileTier::Optimized);
  EXPECT_EQ(timed->cacheHit, "");
  EXPECT_TRUE(isElf(timed->cubin));
  ir::KernelPtr add = seedCaseNamed("add_kernel");
  ASSERT_TRUE(add);
  auto plain = compiler.compileForLaunch(*add, "sm_75", {}, true);
  EXPECT_FALSE(plain->cuda.usesTensorCores);
  EXPECT_EQ(plain->tier, gpu::CompileTier::Optimized);
  EXPECT_TRUE(isElf(plain->cubin));
  // A PTX-only target has no device binary: the driver compiles the PTX when it loads it.
  auto portable = compiler.compileForLaunch(*add, "compute_80", {}, true);
  EXPECT_TRUE(portable->cubin.empty());
  EXPECT_FALSE(portable->ptx.empty());
}

// A prefetch (a kernel cell run again after an edit) builds in the background what the next launch
// needs: the quick and the optimized build of a tensor-core kernel, the optimized build of another.
// The launch then finds them in memory instead of compiling.
TEST(GpuCompiler, PrefetchCompilesInTheBackgroundTheBuildsALaunchWouldAskFor) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  TempCache cache;
  gpu::GpuCompiler& compiler = gpu::GpuCompiler::instance();
  ir::KernelPtr matmul = seedCaseNamed("grouped_matmul_k_fp16_64");
  ir::KernelPtr softmax = seedCaseNamed("softmax_kernel");
  ASSERT_TRUE(matmul && softmax);
  compiler.prefetchForLaunch(*matmul, "sm_87", {});
  compiler.prefetchForLaunch(*softmax, "sm_87", {});
  compiler.prefetchForLaunch(*matmul, "sm_87", {});  // already building: nothing new
  // The launch right after takes what is ready or waits for what is building, never a third build.
  auto first = compiler.compileForLaunch(*matmul, "sm_87", {}, true);
  EXPECT_TRUE(isElf(first->cubin));
  compiler.waitForBackgroundBuilds();
  for (const ir::KernelPtr& k : {matmul, softmax}) {
    SCOPED_TRACE(k->name);
    auto launched = compiler.compileForLaunch(*k, "sm_87", {}, true);
    EXPECT_EQ(launched->tier, gpu::CompileTier::Optimized);
    EXPECT_EQ(launched->cacheHit, "memory");
    EXPECT_TRUE(isElf(launched->cubin));
  }
  // The matmul's quick build came first, on the same thread.
  size_t cubins = 0;
  for (const auto& entry : fs::directory_iterator(cache.dir)) cubins += entry.path().extension() == ".cubin";
  EXPECT_EQ(cubins, 3u);
  // A PTX-only target is left to the launch.
  compiler.prefetchForLaunch(*softmax, "compute_87", {});
  compiler.waitForBackgroundBuilds();
  EXPECT_EQ(compiler.compileForLaunch(*softmax, "compute_87", {}, true)->cacheHit, "");
}
