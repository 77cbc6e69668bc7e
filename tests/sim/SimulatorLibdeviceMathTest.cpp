// libdevice's elementwise math in the simulator (libdevice.acos, ..., libdevice.pow, ...): each
// function, in fp32 and fp64, gives C's <math.h> value rounded to the element type.
#include <gtest/gtest.h>

#include <cmath>
#include <bit>
#include <functional>
#include <limits>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::sim {
namespace {

using ir::DType;

// out[i] = libdevice.<fn>(x[i][, y[i]]) for 8 lanes.
std::shared_ptr<const ir::Kernel> libdeviceKernel(const std::string& fn, bool binary, DType t, std::shared_ptr<lang::Program>& program) {
  program = lang::test::programFrom(std::string("import triton\nimport triton.language as tl\n"
                                                "from triton.language.extra import libdevice\n\n@triton.jit\n"
                                                "def k(x_ptr, y_ptr, out_ptr):\n    offs = tl.arange(0, 8)\n"
                                                "    x = tl.load(x_ptr + offs)\n    y = tl.load(y_ptr + offs)\n"
                                                "    tl.store(out_ptr + offs, libdevice.") +
                                        fn + (binary ? "(x, y))\n" : "(x))\n"),
                                    "math.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(t), lang::ArgSpec::pointer(t), lang::ArgSpec::pointer(t)};
  lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  EXPECT_TRUE(r.ok()) << fn << ": " << r.diagnostics.render();
  return r.kernel;
}

std::vector<double> run(const std::string& fn, bool binary, DType t, const std::vector<double>& x, const std::vector<double>& y) {
  std::shared_ptr<lang::Program> program;
  auto kernel = libdeviceKernel(fn, binary, t, program);
  if (!kernel) return {};
  Memory mem;
  const int xs = mem.createFromDoubles("x", t, {8}, x);
  const int ys = mem.createFromDoubles("y", t, {8}, y);
  const int out = mem.create("out", t, {8});
  Simulator sim(mem);
  auto r = sim.launch(*kernel, Grid{1}, {LaunchArg::tensor(xs), LaunchArg::tensor(ys), LaunchArg::tensor(out)});
  EXPECT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  return mem.readDoubles(out);
}

// Equal values, or NaN both (acos(2.5), say: outside the domain on both sides).
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

const std::vector<double> kX{0.25, -0.5, 0.75, 0.1, -0.9, 0.5, 2.5, -2.5};
const std::vector<double> kY{1.5, 2.0, -0.75, 3.0, 0.5, -4.0, 1.25, 0.3};

struct Case {
  const char* name;
  std::function<double(double, double)> ref;
  bool binary;
  std::vector<double> x = kX;  // inputs inside the function's domain
};

std::vector<Case> cases() {
  const std::vector<double> above1{1.5, 2.0, 3.25, 10.0, 1.0, 1.125, 7.5, 100.0};
  const std::vector<double> positive{0.5, 1.5, 2.0, 3.25, 10.0, 0.125, 7.5, 4.0};
  return {
      {"acos", [](double x, double) { return std::acos(x); }, false},
      {"acosh", [](double x, double) { return std::acosh(x); }, false, above1},
      {"asin", [](double x, double) { return std::asin(x); }, false},
      {"asinh", [](double x, double) { return std::asinh(x); }, false},
      {"atan", [](double x, double) { return std::atan(x); }, false},
      {"atanh", [](double x, double) { return std::atanh(x); }, false},
      {"cbrt", [](double x, double) { return std::cbrt(x); }, false},
      {"cosh", [](double x, double) { return std::cosh(x); }, false},
      {"sinh", [](double x, double) { return std::sinh(x); }, false},
      {"tan", [](double x, double) { return std::tan(x); }, false},
      {"erfc", [](double x, double) { return std::erfc(x); }, false},
      {"exp10", [](double x, double) { return std::pow(10.0, x); }, false},
      {"expm1", [](double x, double) { return std::expm1(x); }, false},
      {"log10", [](double x, double) { return std::log10(x); }, false, positive},
      {"log1p", [](double x, double) { return std::log1p(x); }, false},
      {"trunc", [](double x, double) { return std::trunc(x); }, false},
      {"round", [](double x, double) { return std::round(x); }, false},  // 2.5 -> 3, -2.5 -> -3
      {"rint", [](double x, double) { return std::nearbyint(x); }, false},  // 2.5 -> 2
      {"nearbyint", [](double x, double) { return std::nearbyint(x); }, false},
      {"lgamma", [](double x, double) { return std::lgamma(x); }, false, positive},
      {"tgamma", [](double x, double) { return std::tgamma(x); }, false, positive},
      {"atan2", [](double x, double y) { return std::atan2(x, y); }, true},
      {"pow", [](double x, double y) { return std::pow(x, y); }, true, positive},
      {"hypot", [](double x, double y) { return std::hypot(x, y); }, true},
      {"fmod", [](double x, double y) { return std::fmod(x, y); }, true},
      {"copysign", [](double x, double y) { return std::copysign(x, y); }, true},
      {"fdim", [](double x, double y) { return std::fdim(x, y); }, true},
      {"remainder", [](double x, double y) { return std::remainder(x, y); }, true},
      {"logb", [](double x, double) { return std::logb(x); }, false},
      {"rcbrt", [](double x, double) { return 1.0 / std::cbrt(x); }, false},
      {"j0", [](double x, double) { return ::j0(x); }, false},
      {"j1", [](double x, double) { return ::j1(x); }, false},
      {"y0", [](double x, double) { return ::y0(x); }, false, positive},
      {"y1", [](double x, double) { return ::y1(x); }, false, positive},
      {"normcdf", [](double x, double) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }, false},
      {"rhypot", [](double x, double y) { return 1.0 / std::hypot(x, y); }, true},
  };
}

TEST(SimulatorLibdeviceMath, Fp64GivesMathHValues) {
  for (const Case& c : cases()) {
    const std::vector<double> got = run(c.name, c.binary, DType::FP64, c.x, kY);
    ASSERT_EQ(got.size(), 8u) << c.name;
    for (size_t i = 0; i < 8; ++i)
      EXPECT_TRUE(same(got[i], c.ref(c.x[i], kY[i]))) << c.name << "(" << c.x[i] << ", " << kY[i] << "): " << got[i];
  }
}

TEST(SimulatorLibdeviceMath, Fp32RoundsToFloat) {
  for (const Case& c : cases()) {
    std::vector<double> x32, y32;
    for (double v : c.x) x32.push_back(static_cast<float>(v));
    for (double v : kY) y32.push_back(static_cast<float>(v));
    const std::vector<double> got = run(c.name, c.binary, DType::FP32, x32, y32);
    ASSERT_EQ(got.size(), 8u) << c.name;
    for (size_t i = 0; i < 8; ++i)
      EXPECT_TRUE(same(got[i], static_cast<double>(static_cast<float>(c.ref(x32[i], y32[i])))))
          << c.name << "(" << x32[i] << ", " << y32[i] << "): " << got[i];
  }
}

TEST(SimulatorLibdeviceMath, NextafterStepsOneUlpOfTheElementType) {
  const std::vector<double> x(8, 1.0), y(8, 2.0);
  EXPECT_EQ(run("nextafter", true, DType::FP32, x, y)[0], static_cast<double>(std::nextafter(1.0f, 2.0f)));
  EXPECT_EQ(run("nextafter", true, DType::FP64, x, y)[0], std::nextafter(1.0, 2.0));
}

// sinpi and cospi reduce x exactly: integers and halves give exact zeros and ones (sin(pi * x)
// computed naively would not), and other values are the double's sin/cos of pi times the reduced x.
TEST(SimulatorLibdeviceMath, SinpiAndCospiAreExactAtIntegersAndHalves) {
  const std::vector<double> x{1.0, -2.0, 0.5, 1.5, 3.0, -0.5, 0.25, 10.75};
  const std::vector<double> y(8, 0.0);
  const std::vector<double> s = run("sinpi", false, DType::FP64, x, y);
  const std::vector<double> c = run("cospi", false, DType::FP64, x, y);
  ASSERT_EQ(s.size(), 8u);
  ASSERT_EQ(c.size(), 8u);
  EXPECT_EQ(s[0], 0.0);
  EXPECT_EQ(s[1], 0.0);
  EXPECT_EQ(s[2], 1.0);
  EXPECT_EQ(s[3], -1.0);
  EXPECT_EQ(c[2], 0.0);
  EXPECT_EQ(c[4], -1.0);
  EXPECT_EQ(c[1], 1.0);
  EXPECT_DOUBLE_EQ(s[6], std::sqrt(0.5));
  EXPECT_DOUBLE_EQ(s[7], std::sqrt(0.5));  // sin(10.75 pi) = sin(0.75 pi)
}

// The classification functions give int32 0/1: isnan, isinf, signbit, finitef (fp32) and
// isfinited (fp64); rcp_rn is the IEEE reciprocal; llrint/llround the int64 of rint/round.
TEST(SimulatorLibdeviceMath, ClassificationAndRoundingToIntegers) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr, d_ptr, out_ptr, big_ptr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    d = tl.load(d_ptr + offs)
    tl.store(out_ptr + offs, libdevice.isnan(x))
    tl.store(out_ptr + 8 + offs, libdevice.isinf(x))
    tl.store(out_ptr + 16 + offs, libdevice.signbit(x))
    tl.store(out_ptr + 24 + offs, libdevice.finitef(x))
    tl.store(out_ptr + 32 + offs, libdevice.isfinited(d))
    tl.store(big_ptr + offs, libdevice.llround(x * 2.0))
    tl.store(big_ptr + 8 + offs, libdevice.llrint(x * 2.0))
    tl.store(x_ptr + offs, libdevice.rcp_rn(x))
)",
                                         "classify.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP64), lang::ArgSpec::pointer(DType::I32),
               lang::ArgSpec::pointer(DType::I64)};
  lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x{1.25, -0.0, inf, -inf, nan, -3.0, 0.0, 2.0};
  Memory mem;
  const int xs = mem.createFromDoubles("x", DType::FP32, {8}, x);
  const int ds = mem.createFromDoubles("d", DType::FP64, {8}, x);
  const int out = mem.create("out", DType::I32, {40});
  const int big = mem.create("big", DType::I64, {16});
  Simulator sim(mem);
  auto launched = sim.launch(*r.kernel, Grid{1}, {LaunchArg::tensor(xs), LaunchArg::tensor(ds), LaunchArg::tensor(out), LaunchArg::tensor(big)});
  ASSERT_EQ(launched.status, LaunchStatus::Ok) << launched.diagnostics.render();
  const std::vector<int64_t> o = mem.readInts(out);
  EXPECT_EQ(std::vector<int64_t>(o.begin(), o.begin() + 8), (std::vector<int64_t>{0, 0, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(std::vector<int64_t>(o.begin() + 8, o.begin() + 16), (std::vector<int64_t>{0, 0, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(std::vector<int64_t>(o.begin() + 16, o.begin() + 24), (std::vector<int64_t>{0, 1, 0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(std::vector<int64_t>(o.begin() + 24, o.begin() + 32), (std::vector<int64_t>{1, 1, 0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(std::vector<int64_t>(o.begin() + 32, o.begin() + 40), (std::vector<int64_t>{1, 1, 0, 0, 0, 1, 1, 1}));
  const std::vector<int64_t> b = mem.readInts(big);
  EXPECT_EQ(b[0], 3);   // round(2.5) = 3, away from zero
  EXPECT_EQ(b[8], 2);   // rint(2.5) = 2, to even
  EXPECT_EQ(b[5], -6);
  const std::vector<double> rcp = mem.readDoubles(xs);
  EXPECT_EQ(rcp[0], static_cast<double>(1.0f / 1.25f));
  EXPECT_EQ(rcp[7], 0.5);
  EXPECT_TRUE(std::isinf(rcp[1]) && rcp[1] < 0);
}

// The integer bit functions and helpers, composed of shifts and masks: against C++'s <bit> and
// their definitions, int32 and int64.
TEST(SimulatorLibdeviceMath, BitFunctionsMatchTheirDefinitions) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr, y_ptr, w_ptr, f_ptr, out_ptr, wide_ptr, g_ptr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    w = tl.load(w_ptr + offs)
    f = tl.load(f_ptr + offs)
    tl.store(out_ptr + offs, libdevice.popc(x))
    tl.store(out_ptr + 8 + offs, libdevice.clz(x))
    tl.store(out_ptr + 16 + offs, libdevice.ffs(x))
    tl.store(out_ptr + 24 + offs, libdevice.brev(x))
    tl.store(out_ptr + 32 + offs, libdevice.hadd(x, y))
    tl.store(out_ptr + 40 + offs, libdevice.rhadd(x, y))
    tl.store(out_ptr + 48 + offs, libdevice.mul24(x, y))
    tl.store(out_ptr + 56 + offs, libdevice.mulhi(x, y))
    tl.store(out_ptr + 64 + offs, libdevice.popc(w))
    tl.store(out_ptr + 72 + offs, libdevice.clz(w))
    tl.store(out_ptr + 80 + offs, libdevice.ffs(w))
    tl.store(wide_ptr + offs, libdevice.brev(w))
    tl.store(g_ptr + offs, libdevice.saturatef(f))
    tl.store(g_ptr + 8 + offs, libdevice.ldexp(f, y % 40))
)",
                                         "bits.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I64),
               lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I64),
               lang::ArgSpec::pointer(DType::FP32)};
  lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const std::vector<int64_t> x{0, 1, -1, 12345678, -987654321, 0x7fffffff, 256, -2147483647 - 1};
  const std::vector<int64_t> y{5, -7, 3, 99999, 123456789, -1, 1 << 23, 17};
  const std::vector<int64_t> w{0, 1, -1, 0x123456789abcdefll, -0x7edcba9876543210ll, 1ll << 40, 3, INT64_MIN};
  const std::vector<double> f{-0.5, 0.0, 0.25, 1.0, 1.5, std::numeric_limits<double>::quiet_NaN(), 0.999, 3.0};
  Memory mem;
  const int xs = mem.createFromInts("x", DType::I32, {8}, x), ys = mem.createFromInts("y", DType::I32, {8}, y);
  const int ws = mem.createFromInts("w", DType::I64, {8}, w), fs = mem.createFromDoubles("f", DType::FP32, {8}, f);
  const int out = mem.create("out", DType::I32, {88}), wide = mem.create("wide", DType::I64, {8}), g = mem.create("g", DType::FP32, {16});
  Simulator sim(mem);
  auto ran = sim.launch(*r.kernel, Grid{1},
                        {LaunchArg::tensor(xs), LaunchArg::tensor(ys), LaunchArg::tensor(ws), LaunchArg::tensor(fs), LaunchArg::tensor(out),
                         LaunchArg::tensor(wide), LaunchArg::tensor(g)});
  ASSERT_EQ(ran.status, LaunchStatus::Ok) << ran.diagnostics.render();
  const std::vector<int64_t> o = mem.readInts(out), wo = mem.readInts(wide);
  const std::vector<double> go = mem.readDoubles(g);
  auto rev32 = [](uint32_t v) {
    uint32_t res = 0;
    for (int b = 0; b < 32; ++b) res |= ((v >> b) & 1u) << (31 - b);
    return res;
  };
  auto rev64 = [](uint64_t v) {
    uint64_t res = 0;
    for (int b = 0; b < 64; ++b) res |= ((v >> b) & 1ull) << (63 - b);
    return res;
  };
  for (int i = 0; i < 8; ++i) {
    const uint32_t u = static_cast<uint32_t>(x[i]);
    const uint64_t uw = static_cast<uint64_t>(w[i]);
    EXPECT_EQ(o[i], std::popcount(u)) << x[i];
    EXPECT_EQ(o[8 + i], std::countl_zero(u)) << x[i];
    EXPECT_EQ(o[16 + i], u == 0 ? 0 : std::countr_zero(u) + 1) << x[i];
    EXPECT_EQ(o[24 + i], static_cast<int32_t>(rev32(u))) << x[i];
    EXPECT_EQ(o[32 + i], (x[i] + y[i]) >> 1) << x[i];
    EXPECT_EQ(o[40 + i], (x[i] + y[i] + 1) >> 1) << x[i];
    const int64_t x24 = static_cast<int32_t>(u << 8) >> 8, y24 = static_cast<int32_t>(static_cast<uint32_t>(y[i]) << 8) >> 8;
    EXPECT_EQ(o[48 + i], static_cast<int32_t>(static_cast<uint32_t>(x24 * y24))) << x[i];
    EXPECT_EQ(o[56 + i], (x[i] * y[i]) >> 32) << x[i];
    EXPECT_EQ(o[64 + i], std::popcount(uw)) << w[i];
    EXPECT_EQ(o[72 + i], std::countl_zero(uw)) << w[i];
    EXPECT_EQ(o[80 + i], uw == 0 ? 0 : std::countr_zero(uw) + 1) << w[i];
    EXPECT_EQ(wo[i], static_cast<int64_t>(rev64(uw))) << w[i];
    const float fv = static_cast<float>(f[i]);
    EXPECT_EQ(go[i], std::isnan(fv) ? 0.0 : std::min(1.0f, std::max(0.0f, fv))) << f[i];
    const int n = static_cast<int>(y[i] % 40);
    const float ld = std::ldexp(fv, n);
    EXPECT_TRUE(std::isnan(ld) ? std::isnan(go[8 + i]) : go[8 + i] == ld) << f[i] << " * 2^" << n << ": " << go[8 + i];
  }
}

// Conversions round to nearest (float2int_rn is rint, then the integer); the _as_ functions and
// double2hiint/loint/hiloint2double move bits; ilogb and the norms follow CUDA's definitions.
TEST(SimulatorLibdeviceMath, ConversionsBitsIlogbAndNorms) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(f_ptr, d_ptr, i_ptr, out_ptr, fout_ptr, dout_ptr):
    offs = tl.arange(0, 4)
    f = tl.load(f_ptr + offs)
    d = tl.load(d_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.store(out_ptr + offs, libdevice.float2int_rn(f))
    tl.store(out_ptr + 4 + offs, libdevice.float_as_int(f))
    tl.store(out_ptr + 8 + offs, libdevice.double2hiint(d))
    tl.store(out_ptr + 12 + offs, libdevice.double2loint(d))
    tl.store(out_ptr + 16 + offs, libdevice.ilogb(f))
    tl.store(fout_ptr + offs, libdevice.int2float_rn(i))
    tl.store(fout_ptr + 4 + offs, libdevice.norm3d(f, f, f))
    tl.store(fout_ptr + 8 + offs, libdevice.rnorm4d(f, f, f, f))
    tl.store(dout_ptr + offs, libdevice.hiloint2double(libdevice.double2hiint(d), libdevice.double2loint(d)))
)",
                                         "conv.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP64), lang::ArgSpec::pointer(DType::I32),
               lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP64)};
  lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> f{2.5, -2.5, 0.0, inf}, d{1.0, -0.1, 3.0e300, 0.0};
  const std::vector<int64_t> ints{16777217, -3, 0, 2147483647};
  Memory mem;
  const int fs = mem.createFromDoubles("f", DType::FP32, {4}, f), ds = mem.createFromDoubles("d", DType::FP64, {4}, d);
  const int is = mem.createFromInts("i", DType::I32, {4}, ints);
  const int out = mem.create("out", DType::I32, {20}), fout = mem.create("fout", DType::FP32, {12}), dout = mem.create("dout", DType::FP64, {4});
  Simulator sim(mem);
  auto ran = sim.launch(*r.kernel, Grid{1},
                        {LaunchArg::tensor(fs), LaunchArg::tensor(ds), LaunchArg::tensor(is), LaunchArg::tensor(out), LaunchArg::tensor(fout),
                         LaunchArg::tensor(dout)});
  ASSERT_EQ(ran.status, LaunchStatus::Ok) << ran.diagnostics.render();
  const std::vector<int64_t> o = mem.readInts(out);
  const std::vector<double> fo = mem.readDoubles(fout), dd = mem.readDoubles(dout);
  EXPECT_EQ(o[0], 2);   // rint(2.5): to even
  EXPECT_EQ(o[1], -2);
  EXPECT_EQ(o[4], 0x40200000);  // 2.5f
  EXPECT_EQ(o[5], static_cast<int32_t>(0xc0200000u));
  EXPECT_EQ(o[8], 0x3ff00000);  // 1.0
  EXPECT_EQ(o[12], 0);
  EXPECT_EQ(o[16], 1);
  EXPECT_EQ(o[18], std::numeric_limits<int32_t>::min());  // ilogb(0)
  EXPECT_EQ(o[19], std::numeric_limits<int32_t>::max());  // ilogb(inf)
  EXPECT_EQ(fo[0], 16777216.0);  // to nearest even
  EXPECT_EQ(fo[1], -3.0);
  EXPECT_EQ(fo[3], 2147483648.0);
  EXPECT_EQ(fo[4 + 2], 0.0);
  EXPECT_NEAR(fo[4], 2.5 * std::sqrt(3.0), 1e-6);
  EXPECT_NEAR(fo[8], 1.0 / 5.0, 1e-7);  // rnorm4d(2.5, ...) = 1 / 5
  EXPECT_EQ(dd, d);  // hi and lo words put back together
}

}  // namespace
}  // namespace tilescope::sim
