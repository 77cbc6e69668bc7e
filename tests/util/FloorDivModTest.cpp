// util::floorDivMod against values CPython prints (python3 -c 'print(a // b, a % b)').
#include "core/base/FloorDivMod.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace tilescope::util {
namespace {

struct IntCase {
  int64_t a, b, quotient, remainder;
};

TEST(FloorDivMod, IntegersRoundTowardMinusInfinity) {
  const IntCase cases[] = {
      {7, 2, 3, 1},     {-7, 2, -4, 1},   {7, -2, -4, -1},  {-7, -2, 3, -1},  {6, 3, 2, 0},
      {-6, 3, -2, 0},   {0, -5, 0, 0},    {1, 7, 0, 1},     {-1, 7, -1, 6},   {1, -7, -1, -6},
      {5, -1, -5, 0},   {-5, 1, -5, 0},   {INT64_MAX, 2, INT64_MAX / 2, 1},
      {std::numeric_limits<int64_t>::min(), 3, -3074457345618258603, 1},
  };
  for (const IntCase& c : cases) {
    const auto r = floorDivMod<int64_t>(c.a, c.b);
    EXPECT_EQ(r.quotient, c.quotient) << c.a << " // " << c.b;
    EXPECT_EQ(r.remainder, c.remainder) << c.a << " % " << c.b;
    // Checked modulo 2^64: q * b alone may overflow (MIN // 3), the sum may not.
    const uint64_t back = static_cast<uint64_t>(r.quotient) * static_cast<uint64_t>(c.b) + static_cast<uint64_t>(r.remainder);
    EXPECT_EQ(static_cast<int64_t>(back), c.a) << "a == q * b + r for " << c.a << ", " << c.b;
  }
}

TEST(FloorDivMod, NarrowAndUnsignedIntegers) {
  EXPECT_EQ(floorDivMod<int8_t>(-7, 2).quotient, -4);
  EXPECT_EQ(floorDivMod<int8_t>(-7, 2).remainder, 1);
  // MIN // -1 wraps (two's complement) instead of trapping; the remainder is 0.
  EXPECT_EQ(floorDivMod<int8_t>(-128, -1).quotient, -128);
  EXPECT_EQ(floorDivMod<int8_t>(-128, -1).remainder, 0);
  EXPECT_EQ(floorDivMod<int64_t>(std::numeric_limits<int64_t>::min(), -1).quotient, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(floorDivMod<uint8_t>(250, 7).quotient, 35);
  EXPECT_EQ(floorDivMod<uint8_t>(250, 7).remainder, 5);
  EXPECT_EQ(floorDivMod<bool>(true, true).quotient, true);
  EXPECT_EQ(floorDivMod<bool>(true, true).remainder, false);
}

struct FloatCase {
  double a, b, quotient, remainder;
};

TEST(FloorDivMod, FloatsFollowCPython) {
  const FloatCase cases[] = {
      {7.5, 2.0, 3.0, 1.5},     {-7.5, 2.0, -4.0, 0.5},  {7.5, -2.0, -4.0, -0.5}, {-7.5, -2.0, 3.0, -1.5},
      {1.0, 0.1, 9.0, 0.09999999999999995},  // floor(1.0 / 0.1) would say 10
      {-1.0, 10.0, -1.0, 9.0},  {1e-300, -1.0, -1.0, -1.0},
  };
  for (const FloatCase& c : cases) {
    const auto r = floorDivMod<double>(c.a, c.b);
    EXPECT_EQ(r.quotient, c.quotient) << c.a << " // " << c.b;
    EXPECT_EQ(r.remainder, c.remainder) << c.a << " % " << c.b;
  }
}

TEST(FloorDivMod, SignedZerosFollowCPython) {
  // -4.0 % 2.0 == 0.0 (the divisor's sign); 4.0 % -2.0 == -0.0; 0.0 // -3.0 == -0.0.
  EXPECT_FALSE(std::signbit(floorDivMod(-4.0, 2.0).remainder));
  EXPECT_TRUE(std::signbit(floorDivMod(4.0, -2.0).remainder));
  EXPECT_TRUE(std::signbit(floorDivMod(0.0, -3.0).quotient));
  EXPECT_FALSE(std::signbit(floorDivMod(-0.0, -3.0).quotient));
}

TEST(FloorDivMod, FloatDivisionByZeroGivesIeeeResults) {
  EXPECT_EQ(floorDivMod(1.0, 0.0).quotient, std::numeric_limits<double>::infinity());
  EXPECT_EQ(floorDivMod(-1.0, 0.0).quotient, -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(floorDivMod(1.0, 0.0).remainder));
  EXPECT_TRUE(std::isnan(floorDivMod(0.0, 0.0).quotient));
}

TEST(FloorDivMod, SinglePrecision) {
  EXPECT_EQ(floorDivMod(-7.5f, 2.0f).quotient, -4.0f);
  EXPECT_EQ(floorDivMod(-7.5f, 2.0f).remainder, 0.5f);
}

}  // namespace
}  // namespace tilescope::util
