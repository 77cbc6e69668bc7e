// tl.inline_asm_elementwise on a device (ctest label gpu; skipped without one): one operand per
// element, and Triton's documented example of four uint8 elements packed into one register with
// two results, give what the PTX computes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "core/gpu/runtime/GpuRuntime.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/InlineAsmKernels.h"

using namespace tilescope;

namespace {

ir::KernelPtr check(const lang::Program& program, const char* name, std::vector<lang::ArgSpec> args) {
  lang::Specialization spec;
  spec.args = std::move(args);
  const lang::CheckResult r = lang::checkKernel(program, name, spec);
  EXPECT_TRUE(r.ok()) << name << ": " << r.diagnostics.render();
  return r.kernel;
}

template <class T>
uint64_t upload(gpu::GpuRuntime& rt, const std::vector<T>& v) {
  const uint64_t a = rt.allocate(v.size() * sizeof(T), "inline asm test");
  rt.upload(a, v.data(), v.size() * sizeof(T), "inline asm test");
  return a;
}

template <class T>
std::vector<T> download(gpu::GpuRuntime& rt, uint64_t a, size_t n) {
  std::vector<T> v(n);
  rt.download(v.data(), a, n * sizeof(T), "inline asm test");
  return v;
}

}  // namespace

TEST(GpuRun, InlineAsmRunsOnTheDevice) {
  gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
  if (!rt.available()) GTEST_SKIP() << "no CUDA device: " << rt.unavailableReason();
  using ir::DType;
  auto program = lang::test::programFrom(test::kInlineAsmSource, "asm.py");
  const int64_t one[3] = {1, 1, 1};
  const int N = 256;
  auto constN = lang::ArgSpec::constexprValue(lang::ConstValue::integer(N));
  {
    auto k = check(*program, "shift_left", {lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I32), constN});
    ASSERT_TRUE(k);
    std::vector<int32_t> x(N);
    for (int i = 0; i < N; ++i) x[i] = i * 37 - 1000;
    const uint64_t xs = upload(rt, x), ys = upload(rt, std::vector<int32_t>(N, 0));
    auto r = rt.launch(k, one, {gpu::GpuArg::pointer(xs), gpu::GpuArg::pointer(ys)});
    ASSERT_FALSE(r.failure) << r.failure->render();
    const std::vector<int32_t> y = download<int32_t>(rt, ys, N);
    for (int i = 0; i < N; ++i) EXPECT_EQ(y[i], static_cast<int32_t>(static_cast<uint32_t>(x[i]) << 3)) << i;
  }
  {
    auto k = check(*program, "widen_and_max",
                   {lang::ArgSpec::pointer(DType::U8), lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::I32),
                    lang::ArgSpec::pointer(DType::FP32), constN});
    ASSERT_TRUE(k);
    std::vector<uint8_t> a(N);
    std::vector<float> b(N);
    for (int i = 0; i < N; ++i) {
      a[i] = static_cast<uint8_t>(i * 7);
      b[i] = static_cast<float>((i * 13) % 300) - 20.5f;
    }
    const uint64_t as = upload(rt, a), bs = upload(rt, b), cs = upload(rt, std::vector<int32_t>(N, 0)),
                   ds = upload(rt, std::vector<float>(N, 0));
    auto r = rt.launch(k, one, {gpu::GpuArg::pointer(as), gpu::GpuArg::pointer(bs), gpu::GpuArg::pointer(cs), gpu::GpuArg::pointer(ds)});
    ASSERT_FALSE(r.failure) << r.failure->render();
    const std::vector<int32_t> c = download<int32_t>(rt, cs, N);
    const std::vector<float> d = download<float>(rt, ds, N);
    for (int i = 0; i < N; ++i) {
      EXPECT_EQ(c[i], a[i]) << i;
      EXPECT_EQ(d[i], std::max(static_cast<float>(a[i]), b[i])) << i;
    }
  }
}
