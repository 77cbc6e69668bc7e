// libdevice's elementwise math in the simulator (libdevice.acos, ..., libdevice.pow, ...): each
// function, in fp32 and fp64, gives C's <math.h> value rounded to the element type.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

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

}  // namespace
}  // namespace tilescope::sim
