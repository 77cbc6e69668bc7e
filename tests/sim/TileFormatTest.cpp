#include "core/sim/TileFormat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace tilescope::sim {
namespace {

using ir::DType;

Tile ints(DType t, ir::Shape shape, std::vector<int64_t> v) { return Tile::fromInts(t, std::move(shape), v); }
Tile floats(DType t, ir::Shape shape, std::vector<double> v) { return Tile::fromFloats(t, std::move(shape), v); }

// Expected strings are what NumPy 1.x/2.x prints for the same arrays (str(np.array(...))).
TEST(TileFormatTest, IntsAndBoolsLikeNumpy) {
  EXPECT_EQ(formatTile(ints(DType::I32, {2}, {0, 1})), "[0 1]");
  EXPECT_EQ(formatTile(ints(DType::I32, {3}, {1, 2, 10})), "[ 1  2 10]");
  EXPECT_EQ(formatTile(ints(DType::I32, {3}, {-1, 2, 3})), "[-1  2  3]");
  EXPECT_EQ(formatTile(ints(DType::I1, {2}, {1, 1})), "[ True  True]");
  EXPECT_EQ(formatTile(ints(DType::I1, {2}, {1, 0})), "[ True False]");
  EXPECT_EQ(formatTile(ints(DType::U8, {2}, {255, 3})), "[255   3]");
  EXPECT_EQ(formatTile(ints(DType::I32, {2, 2}, {1, 2, 3, 4})), "[[1 2]\n [3 4]]");
  EXPECT_EQ(formatTile(ints(DType::I32, {2, 1, 2}, {1, 2, 3, 4})), "[[[1 2]]\n\n [[3 4]]]");
}

TEST(TileFormatTest, FloatsLikeNumpy) {
  EXPECT_EQ(formatTile(floats(DType::FP32, {2}, {1, 2})), "[1. 2.]");
  EXPECT_EQ(formatTile(floats(DType::FP32, {2}, {0.5, 0.25})), "[0.5  0.25]");
  EXPECT_EQ(formatTile(floats(DType::FP32, {2}, {1.5, 2})), "[1.5 2. ]");
  EXPECT_EQ(formatTile(floats(DType::FP32, {3}, {0.1, -2.5, 10})), "[ 0.1 -2.5 10. ]");
  EXPECT_EQ(formatTile(floats(DType::FP32, {2}, {1e-5, 1})), "[1.e-05 1.e+00]");
  EXPECT_EQ(formatTile(floats(DType::FP32, {2}, {1.5e-5, 1})), "[1.5e-05 1.0e+00]");
  EXPECT_EQ(formatTile(floats(DType::FP32, {3}, {NAN, INFINITY, 1})), "[nan inf  1.]");
  // fp32's own shortest digits: 0.1f prints as 0.1, not 0.10000000149.
  EXPECT_EQ(formatTile(floats(DType::FP32, {1}, {0.1})), "[0.1]");
  EXPECT_EQ(formatTile(floats(DType::FP64, {1}, {1.0 / 3})), "[0.33333333]");
  EXPECT_EQ(formatTile(floats(DType::FP16, {1}, {0.1})), "[0.1]");
}

TEST(TileFormatTest, Scalars) {
  EXPECT_EQ(formatTile(Tile::scalarInt(DType::I32, 7)), "7");
  EXPECT_EQ(formatTile(Tile::scalarInt(DType::I1, 1)), "True");
  EXPECT_EQ(formatTile(Tile::scalarFloat(DType::FP32, 1.0)), "1.0");
  EXPECT_EQ(formatTile(Tile::scalarFloat(DType::FP32, 0.1)), "0.1");
  EXPECT_EQ(formatTile(Tile::scalarFloat(DType::FP32, 1e-5)), "1e-05");
  EXPECT_EQ(formatTile(Tile::scalarFloat(DType::FP64, 123456.5)), "123456.5");
  EXPECT_EQ(formatTile(Tile::scalarFloat(DType::FP64, 1e20)), "1e+20");
  EXPECT_EQ(formatTile(Tile::scalarFloat(DType::FP32, -NAN)), "nan");
  TileFormatOptions array;
  array.scalarAsArray = true;
  EXPECT_EQ(formatTile(Tile::scalarInt(DType::I32, 0), array), "[0]");
}

TEST(TileFormatTest, SummarisesLargeTiles) {
  std::vector<int64_t> v(2000);
  std::iota(v.begin(), v.end(), 0);
  EXPECT_EQ(formatTile(ints(DType::I32, {2000}, v)), "[   0    1    2 ... 1997 1998 1999]");
  std::vector<int64_t> m(64 * 64);
  std::iota(m.begin(), m.end(), 0);
  const std::string s = formatTile(ints(DType::I32, {64, 64}, m));
  EXPECT_EQ(s.substr(0, 36), "[[   0    1    2 ...   61   62   63]");
  EXPECT_NE(s.find("\n ...\n"), std::string::npos);
}

TEST(TileFormatTest, Hex) {
  TileFormatOptions hex;
  hex.hex = true;
  EXPECT_EQ(formatTile(ints(DType::I32, {2}, {255, -1}), hex), "[      0xff 0xffffffff]");
  EXPECT_EQ(formatTile(Tile::scalarFloat(DType::FP32, 1.0), hex), "0x3f800000");
}

}  // namespace
}  // namespace tilescope::sim
