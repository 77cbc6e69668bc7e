// checkAllKernels (`tilescope-cli check`) on programs whose pointers are not all fp32 (issue 28):
// launches in the host code give the argument types (LaunchSites); without one, element types are
// unknown and no error is reported that some launch would not report.
#include <gtest/gtest.h>

#include "core/kernel/LaunchSites.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::lang {
namespace {

const char* kImports = "import torch\nimport triton\nimport triton.language as tl\n\n";

// Reads int32 values and uses them as offsets into the bins: fp32 would be "pointer offsets must be
// integers".
const char* kHistogram =
    "@triton.jit\n"
    "def histogram_kernel(values_ptr, bins_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    v = tl.load(values_ptr + offs, mask=mask, other=0)\n"
    "    tl.atomic_add(bins_ptr + v % NUM_BINS, 1, mask=mask)\n";

// One pointer of indices, one of floats that go through tl.exp: neither all-fp32 nor all-int32
// checks, only the mix does.
const char* kEmbedding =
    "@triton.jit\n"
    "def embedding_kernel(table_ptr, ids_ptr, out_ptr, dim, scale, BLOCK: tl.constexpr):\n"
    "    tok = tl.program_id(0)\n"
    "    row = tl.load(ids_ptr + tok)\n"
    "    cols = tl.arange(0, BLOCK)\n"
    "    mask = cols < dim\n"
    "    v = tl.load(table_ptr + row * dim + cols, mask=mask)\n"
    "    tl.store(out_ptr + tok * dim + cols, tl.exp(v) * scale, mask=mask)\n";

// Integer keys divided with //: "'//' needs integer operands" if the keys were fp32.
const char* kBuckets =
    "@triton.jit\n"
    "def bucket_kernel(keys_ptr, counts_ptr, n, WIDTH: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    keys = tl.load(keys_ptr + offs, mask=offs < n, other=0)\n"
    "    tl.atomic_add(counts_ptr + keys // WIDTH, 1, mask=offs < n)\n";

DiagnosticList checkAll(const std::string& source) {
  auto program = test::programFrom(std::string(kImports) + source);
  return checkAllKernels(*program, {});
}

TEST(CheckAllKernels, IntegerPointersThatNoLaunchShowsAreNotTakenForFp32) {
  EXPECT_FALSE(checkAll(kHistogram).hasErrors()) << checkAll(kHistogram).render();
  EXPECT_FALSE(checkAll(kBuckets).hasErrors()) << checkAll(kBuckets).render();
}

TEST(CheckAllKernels, IndexAndDataPointersOfOneKernelGetTheirOwnTypes) {
  const DiagnosticList d = checkAll(kEmbedding);
  EXPECT_FALSE(d.hasErrors()) << d.render();
}

TEST(CheckAllKernels, ErrorsThatNoElementTypeAvoidsAreStillReported) {
  const DiagnosticList d = checkAll(
      "@triton.jit\n"
      "def k(ids_ptr, out_ptr):\n"
      "    row = tl.load(ids_ptr)\n"
      "    tl.store(out_ptr + row, undefined_value)\n");
  ASSERT_EQ(d.errorCount(), 1u) << d.render();
  EXPECT_NE(d.items()[0].message.find("undefined_value"), std::string::npos) << d.render();
}

TEST(CheckAllKernels, ALaunchsArgumentTypesAreUsed) {
  // Launched with a float tensor as the index, the kernel fails as the launch would.
  const std::string kernel = kHistogram;
  const DiagnosticList bad = checkAll(kernel +
                                      "\nx = torch.rand(100) * 16\n"
                                      "bins = torch.zeros(16, dtype=torch.int32)\n"
                                      "histogram_kernel[(1,)](x, bins, 100, NUM_BINS=16, BLOCK=128)\n");
  ASSERT_EQ(bad.errorCount(), 1u) << bad.render();
  EXPECT_NE(bad.items()[0].message.find("pointer offsets must be integers; got fp32"), std::string::npos) << bad.render();
  // With int32 values it is clean; the launch's constexpr values are used too (BLOCK=100 is no power of 2).
  const DiagnosticList good = checkAll(kernel +
                                       "\nx = torch.randint(0, 16, (100,), dtype=torch.int32)\n"
                                       "bins = torch.zeros_like(x)\n"
                                       "histogram_kernel[(1,)](x, bins, 100, NUM_BINS=16, BLOCK=128)\n");
  EXPECT_FALSE(good.hasErrors()) << good.render();
  const DiagnosticList odd = checkAll(kernel +
                                      "\nx = torch.randint(0, 16, (100,), dtype=torch.int32)\n"
                                      "histogram_kernel[(1,)](x, torch.zeros_like(x), 100, NUM_BINS=16, BLOCK=100)\n");
  ASSERT_EQ(odd.errorCount(), 1u) << odd.render();
  EXPECT_NE(odd.items()[0].message.find("power of 2 (got 100)"), std::string::npos) << odd.render();
}

TEST(CheckAllKernels, LaunchesInsideFunctionsAndLambdasCount) {
  const std::string kernel = kBuckets;
  const DiagnosticList d = checkAll(kernel +
                                    "\ndef count(n):\n"
                                    "    keys = torch.rand(n)\n"
                                    "    counts = torch.zeros(16, dtype=torch.int32)\n"
                                    "    triton.testing.do_bench(lambda: bucket_kernel[(1,)](keys, counts, n, WIDTH=4, BLOCK=64))\n");
  ASSERT_EQ(d.errorCount(), 1u) << "fp32 keys from torch.rand: " << d.render();
  EXPECT_NE(d.items()[0].message.find("'//' needs integer operands"), std::string::npos) << d.render();
}

TEST(CheckAllKernels, ALaunchInAHelperFunctionTakesTheTypesItsCallerPasses) {
  const std::string kernel = kHistogram;
  const std::string helper =
      "\ndef histogram(values, bins=16):\n"
      "    out = torch.zeros(bins, dtype=torch.int32)\n"
      "    histogram_kernel[(1,)](values, out, values.numel(), NUM_BINS=bins, BLOCK=128)\n"
      "    return out\n";
  const DiagnosticList floats = checkAll(kernel + helper + "\nh = histogram(torch.rand(100) * 16)\n");
  ASSERT_EQ(floats.errorCount(), 1u) << "the caller passes floats as the values: " << floats.render();
  EXPECT_NE(floats.items()[0].message.find("pointer offsets must be integers"), std::string::npos) << floats.render();
  const DiagnosticList ints = checkAll(kernel + helper + "\nh = histogram(torch.randint(0, 16, (100,)), bins=16)\n");
  EXPECT_FALSE(ints.hasErrors()) << ints.render();
  const DiagnosticList uncalled = checkAll(kernel + helper);
  EXPECT_FALSE(uncalled.hasErrors()) << "nothing calls it: the values' type is unknown: " << uncalled.render();
}

TEST(LaunchSites, ReadTheArgumentTypesFromTheHostCode) {
  auto program = test::programFrom(std::string(kImports) + kBuckets +
                                   "\nDTYPE = torch.float16\n"
                                   "a = torch.randint(0, 9, (8,))\n"
                                   "b = torch.empty(8, dtype=DTYPE, device='cuda')\n"
                                   "c = b.to(torch.int32)\n"
                                   "d = torch.arange(8).int()\n"
                                   "e = torch.ones_like(b)[2:]\n"
                                   "n = a.numel()\n"
                                   "bucket_kernel[(1,)](a, b, c, d, e, n, 7, 2.5, True, f, WIDTH=4, BLOCK=2 * 32, num_warps=2)\n");
  const std::vector<LaunchSite> sites = findLaunchSites(*program);
  ASSERT_EQ(sites.size(), 1u);
  const LaunchSite& s = sites[0];
  EXPECT_EQ(s.kernel, "bucket_kernel");
  ASSERT_EQ(s.args.size(), 10u);
  using K = LaunchArg::Kind;
  EXPECT_EQ(s.args[0].kind, K::Tensor);
  EXPECT_EQ(s.args[0].dtype, ir::DType::I64) << "torch.randint makes int64";
  EXPECT_EQ(s.args[1].dtype, ir::DType::FP16) << "dtype= through a module-level name";
  EXPECT_EQ(s.args[2].dtype, ir::DType::I32) << ".to(torch.int32)";
  EXPECT_EQ(s.args[3].dtype, ir::DType::I32) << ".int()";
  EXPECT_EQ(s.args[4].dtype, ir::DType::FP16) << "ones_like keeps the dtype, and so does slicing";
  EXPECT_EQ(s.args[5].kind, K::Int);
  EXPECT_EQ(s.args[6].kind, K::Int);
  EXPECT_EQ(s.args[6].value->asInt(), 7);
  EXPECT_EQ(s.args[7].kind, K::Float);
  EXPECT_EQ(s.args[8].kind, K::Bool);
  EXPECT_EQ(s.args[9].kind, K::Unknown) << "an undefined name";
  ASSERT_EQ(s.kwargs.size(), 3u);
  EXPECT_EQ(s.kwargs[1].first, "BLOCK");
  EXPECT_EQ(s.kwargs[1].second.value->asInt(), 64) << "constant arithmetic is folded";
}

}  // namespace
}  // namespace tilescope::lang
