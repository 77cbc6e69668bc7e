// tl.dot_scaled in the simulator: fp8 (e4m3, e5m2), fp4 (e2m1, two per byte along K) and bf16
// operands with e8m0 scales give Triton's emulation exactly: each element decoded, times
// 2^(scale - 127), rounded to bf16, then multiplied into fp32. The reference below decodes the
// formats from their definitions (OCP microscaling spec) independently of the checker's lowering.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/DotScaledKernels.h"

namespace tilescope::sim {
namespace {

using ir::DType;


constexpr int M = 16, N = 16, K = 64;

// Element values by the formats' definitions.
double e4m3(int b) {
  const int e = (b >> 3) & 15, m = b & 7;
  const double v = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
  return (b & 128) ? -v : v;
}
double e5m2(int b) {
  const int e = (b >> 2) & 31, m = b & 3;
  const double v = e == 0 ? std::ldexp(m, -16) : std::ldexp(4 + m, e - 17);
  return (b & 128) ? -v : v;
}
double e2m1(int nibble) {
  static const double values[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (nibble & 8) ? -values[nibble & 7] : values[nibble & 7];
}
// Round to bf16, nearest even (finite values).
double toBf16(double v) {
  const float f = static_cast<float>(v);
  uint32_t bits = std::bit_cast<uint32_t>(f);
  bits += 0x7fff + ((bits >> 16) & 1);
  bits &= 0xffff0000u;
  return std::bit_cast<float>(bits);
}

struct Operand {
  DType dtype = DType::U8;
  std::vector<double> raw;     // what memory holds (bytes, or bf16 values)
  std::vector<double> values;  // the decoded element (row-major [rows, K] for lhs, [K, N] for rhs)
};

// Bytes that are not NaN/inf in either fp8 format.
int byteAt(int i) {
  const int b = (i * 73 + 11) % 256;
  const int e5 = (b >> 2) & 31, e4 = (b >> 3) & 15;
  return (e5 >= 30 || e4 == 15) ? (b & 0x83) | 0x40 : b;
}

Operand operand(const std::string& format, bool lhs) {
  Operand o;
  o.values.resize(static_cast<size_t>(M) * K);
  auto put = [&](int r, int k, double v) { o.values[lhs ? r * K + k : k * N + r] = v; };
  if (format == "bf16") {
    o.dtype = DType::BF16;
    for (int r = 0; r < M; ++r)
      for (int k = 0; k < K; ++k) {
        const double v = ((r * 5 + k * 3) % 17 - 8) / 8.0;
        put(r, k, v);
      }
    o.raw.resize(o.values.size());
    o.raw = o.values;
    return o;
  }
  if (format == "e2m1") {
    // lhs [M, K/2], rhs [K/2, N]: byte j holds elements 2j (low nibble) and 2j + 1 along K.
    o.raw.resize(static_cast<size_t>(M) * K / 2);
    for (int r = 0; r < M; ++r)
      for (int j = 0; j < K / 2; ++j) {
        const int b = byteAt(r * 131 + j);
        o.raw[lhs ? r * (K / 2) + j : j * N + r] = b;
        put(r, 2 * j, e2m1(b & 15));
        put(r, 2 * j + 1, e2m1(b >> 4));
      }
    return o;
  }
  o.raw.resize(o.values.size());
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k) {
      const int b = byteAt(r * 67 + k * 5);
      o.raw[lhs ? r * K + k : k * N + r] = b;
      put(r, k, format == "e4m3" ? e4m3(b) : e5m2(b));
    }
  return o;
}

std::vector<double> scales(int salt) {
  std::vector<double> s;
  for (int i = 0; i < M * (K / 32); ++i) s.push_back(120 + (i * 7 + salt) % 15);
  return s;
}

void check(const std::string& fa, const std::string& fb, bool scaleA) {
  SCOPED_TRACE(fa + " x " + fb);
  auto program = lang::test::programFrom(test::kDotScaledSource, "scaled.py");
  const Operand a = operand(fa, true), b = operand(fb, false);
  const std::vector<double> sa = scales(3), sb = scales(8);
  auto cint = [](int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
  auto cstr = [](const std::string& v) { return lang::ArgSpec::constexprValue(lang::ConstValue::string(v)); };
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(a.dtype), lang::ArgSpec::pointer(DType::U8), lang::ArgSpec::pointer(b.dtype),
               lang::ArgSpec::pointer(DType::U8), lang::ArgSpec::pointer(DType::FP32), cint(M), cint(N), cint(K),
               cint(fa == "e2m1" ? K / 2 : K), cint(fb == "e2m1" ? K / 2 : K), cstr(fa), cstr(fb),
               lang::ArgSpec::constexprValue(lang::ConstValue::boolean(scaleA))};
  lang::CheckResult r = lang::checkKernel(*program, "scaled_mm", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  Memory mem;
  const int as = mem.createFromDoubles("a", a.dtype, {static_cast<int64_t>(a.raw.size())}, a.raw);
  const int sas = mem.createFromDoubles("sa", DType::U8, {static_cast<int64_t>(sa.size())}, sa);
  const int bs = mem.createFromDoubles("b", b.dtype, {static_cast<int64_t>(b.raw.size())}, b.raw);
  const int sbs = mem.createFromDoubles("sb", DType::U8, {static_cast<int64_t>(sb.size())}, sb);
  const int cs = mem.create("c", DType::FP32, {M * N});
  Simulator sim(mem);
  auto launched = sim.launch(*r.kernel, Grid{1},
                             {LaunchArg::tensor(as), LaunchArg::tensor(sas), LaunchArg::tensor(bs), LaunchArg::tensor(sbs), LaunchArg::tensor(cs)});
  ASSERT_EQ(launched.status, LaunchStatus::Ok) << launched.diagnostics.render();
  const std::vector<double> c = mem.readDoubles(cs);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k) {
        const double x = toBf16(a.values[i * K + k] * (scaleA ? std::ldexp(1.0, static_cast<int>(sa[i * (K / 32) + k / 32]) - 127) : 1.0));
        const double y = toBf16(b.values[k * N + j] * std::ldexp(1.0, static_cast<int>(sb[j * (K / 32) + k / 32]) - 127));
        acc = std::fmaf(static_cast<float>(x), static_cast<float>(y), acc);
      }
      // The decoded operands are exact; the dot is the fma chain in k order, bit for bit.
      ASSERT_EQ(c[i * N + j], static_cast<double>(acc)) << "c[" << i << ", " << j << "]";
    }
}

TEST(SimulatorDotScaled, Fp8OperandsWithScales) { check("e4m3", "e5m2", true); }
TEST(SimulatorDotScaled, Fp4OperandsPackedAlongK) { check("e2m1", "e2m1", true); }
TEST(SimulatorDotScaled, Bf16WithoutScaleTimesScaledFp8) { check("bf16", "e4m3", false); }

}  // namespace
}  // namespace tilescope::sim
