// Python's number spellings (repr(float), tuple repr), used by printing and assert_close messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/tensor/NestedValue.h"
#include "core/tensor/PythonFormat.h"

namespace tilescope::host {
namespace {

TEST(PythonFormat, FloatReprMatchesPython) {
  const std::pair<double, const char*> cases[] = {
      {0.1, "0.1"},
      {1.0, "1.0"},
      {-2.5, "-2.5"},
      {1e-05, "1e-05"},
      {1.3e-06, "1.3e-06"},
      {0.0001, "0.0001"},
      {0.00012345, "0.00012345"},
      {123456789.0, "123456789.0"},
      {1e16, "1e+16"},
      {1234567890123456.0, "1234567890123456.0"},
      {0.30000000000000004, "0.30000000000000004"},
      {static_cast<double>(0.1f), "0.10000000149011612"},
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {std::numeric_limits<double>::infinity(), "inf"},
      {-std::numeric_limits<double>::infinity(), "-inf"},
      {std::nan(""), "nan"},
      {1.5e300, "1.5e+300"},
      {5e-324, "5e-324"},
  };
  for (const auto& [value, text] : cases) EXPECT_EQ(pythonFloatRepr(value), text);
}

TEST(PythonFormat, TuplesAndNestedLists) {
  EXPECT_EQ(pythonTupleRepr(std::vector<int64_t>{}), "()");
  EXPECT_EQ(pythonTupleRepr(std::vector<int64_t>{3}), "(3,)");
  EXPECT_EQ(pythonTupleRepr(std::vector<int64_t>{2, 3}), "(2, 3)");
  NestedValue v{std::vector<NestedValue>{NestedValue{Scalar(1.0)}, NestedValue{Scalar(int64_t{2})}, NestedValue{Scalar(true)}}};
  EXPECT_EQ(v.repr(), "[1.0, 2, True]");
}

TEST(PythonFormat, FixedAndScientificLikeFormatSpecs) {
  EXPECT_EQ(formatFixed(0.49625658988952637, 4), "0.4963");
  EXPECT_EQ(formatFixed(2.5, 0), "2");  // Python's "{:.0f}" rounds half to even too
  EXPECT_EQ(formatFixed(-0.0, 0), "-0");
  EXPECT_EQ(formatScientific(1999.0, 4), "1.9990e+03");
  EXPECT_EQ(formatScientific(1e-5, 4), "1.0000e-05");
  EXPECT_EQ(formatScientific(-std::numeric_limits<double>::infinity(), 4), "-inf");
  EXPECT_EQ(formatFixed(std::nan(""), 4), "nan");
}

}  // namespace
}  // namespace tilescope::host
