#include "core/sim/TileOps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "core/sim/DeviceAddress.h"
#include "core/sim/TileDot.h"
#include "core/sim/TileRandom.h"
#include "core/sim/TileReduce.h"
#include "core/sim/Philox.h"

namespace tilescope::sim::tileops {
namespace {

using ir::BinaryOp;
using ir::DType;
using ir::Type;

Tile ints(DType t, ir::Shape s, std::vector<int64_t> v) { return Tile::fromInts(t, std::move(s), v); }
Tile floats(DType t, ir::Shape s, std::vector<double> v) { return Tile::fromFloats(t, std::move(s), v); }
std::vector<int64_t> intsOf(const Tile& t) { return {t.ints(), t.ints() + t.numel()}; }
std::vector<double> floatsOf(const Tile& t) { return {t.floats(), t.floats() + t.numel()}; }

TEST(TileOpsTest, ShapeOps) {
  EXPECT_EQ(intsOf(arange(2, 6)), (std::vector<int64_t>{2, 3, 4, 5}));
  const Tile col = ints(DType::I32, {3, 1}, {1, 2, 3});
  const Tile b = broadcastTo(col, {3, 2});
  EXPECT_EQ(intsOf(b), (std::vector<int64_t>{1, 1, 2, 2, 3, 3}));
  const Tile row = ints(DType::I32, {1, 2}, {10, 20});
  EXPECT_EQ(intsOf(broadcastTo(row, {3, 2})), (std::vector<int64_t>{10, 20, 10, 20, 10, 20}));
  EXPECT_EQ(intsOf(splat(Tile::scalarInt(DType::I32, 7), {2, 2})), (std::vector<int64_t>{7, 7, 7, 7}));
  const Tile m = ints(DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6});
  const Tile t = permute(m, {1, 0});
  EXPECT_EQ(t.shape(), (ir::Shape{3, 2}));
  EXPECT_EQ(intsOf(t), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  Tile cube = ints(DType::I32, {2, 3, 4}, [] { std::vector<int64_t> v(24); std::iota(v.begin(), v.end(), 0); return v; }());
  const Tile p = permute(cube, {2, 0, 1});  // p[k][i][j] = cube[i][j][k]
  EXPECT_EQ(p.shape(), (ir::Shape{4, 2, 3}));
  EXPECT_EQ(p.ints()[1 * 6 + 1 * 3 + 2], cube.ints()[1 * 12 + 2 * 4 + 1]);
}

TEST(TileOpsTest, IntegerArithmeticWraps) {
  const Type i8 = Type::tile(DType::I8, {2});
  const Tile a = ints(DType::I8, {2}, {100, -128});
  EXPECT_EQ(intsOf(binary(BinaryOp::Add, a, a, false, i8)), (std::vector<int64_t>{-56, 0}));
  EXPECT_EQ(intsOf(unary(ir::UnaryOp::Neg, a)), (std::vector<int64_t>{-100, -128}));
  const Type u8 = Type::tile(DType::U8, {2});
  const Tile u = ints(DType::U8, {2}, {250, 3});
  EXPECT_EQ(intsOf(binary(BinaryOp::Sub, ints(DType::U8, {2}, {3, 3}), u, false, u8)), (std::vector<int64_t>{9, 0}));
  EXPECT_EQ(intsOf(unary(ir::UnaryOp::Invert, u)), (std::vector<int64_t>{5, 252}));
  // Unsigned comparisons and division see 0xFFFFFFFF as 4294967295.
  const Type u32 = Type::tile(DType::U32, {1});
  const Tile big = ints(DType::U32, {1}, {-1});
  const Tile two = ints(DType::U32, {1}, {2});
  EXPECT_EQ(binary(BinaryOp::Gt, big, two, false, Type::tile(DType::I1, {1})).ints()[0], 1);
  EXPECT_EQ(binary(BinaryOp::Div, big, two, false, u32).ints()[0], 0x7FFFFFFF);
  const Tile u64big = ints(DType::U64, {1}, {-1});
  EXPECT_EQ(binary(BinaryOp::Lt, ints(DType::U64, {1}, {1}), u64big, false, Type::tile(DType::I1, {1})).ints()[0], 1);
  EXPECT_EQ(binary(BinaryOp::Max, ints(DType::U64, {1}, {1}), u64big, false, Type::tile(DType::U64, {1})).ints()[0], -1);
}

TEST(TileOpsTest, DivisionAndModuloFollowC) {
  const Type t = Type::tile(DType::I32, {4});
  const Tile a = ints(DType::I32, {4}, {7, -7, 7, -7});
  const Tile b = ints(DType::I32, {4}, {2, 2, -2, -2});
  EXPECT_EQ(intsOf(binary(BinaryOp::Div, a, b, false, t)), (std::vector<int64_t>{3, -3, -3, 3}));
  EXPECT_EQ(intsOf(binary(BinaryOp::Mod, a, b, false, t)), (std::vector<int64_t>{1, -1, 1, -1}));
  OpFlags flags;
  (void)binary(BinaryOp::Div, a, ints(DType::I32, {4}, {1, 0, 1, 1}), false, t, &flags);
  EXPECT_TRUE(flags.intDivByZero);
  // Float % is fmod (sign of the dividend), not Python's floor modulo.
  const Tile fa = floats(DType::FP32, {2}, {-7.5, 7.5});
  const Tile fb = floats(DType::FP32, {2}, {2, -2});
  EXPECT_EQ(floatsOf(binary(BinaryOp::Mod, fa, fb, false, Type::tile(DType::FP32, {2}))), (std::vector<double>{-1.5, 1.5}));
}

TEST(TileOpsTest, Shifts) {
  const Type t = Type::tile(DType::I32, {4});
  const Tile a = ints(DType::I32, {4}, {-8, -8, 1, 1});
  const Tile s = ints(DType::I32, {4}, {1, 40, 31, 32});
  EXPECT_EQ(intsOf(binary(BinaryOp::Shr, a, s, false, t)), (std::vector<int64_t>{-4, -1, 0, 0}));
  EXPECT_EQ(intsOf(binary(BinaryOp::Shl, a, s, false, t)), (std::vector<int64_t>{-16, 0, std::numeric_limits<int32_t>::min(), 0}));
  const Tile u = ints(DType::U32, {1}, {0x80000000ll});
  EXPECT_EQ(binary(BinaryOp::Shr, u, ints(DType::U32, {1}, {31}), false, Type::tile(DType::U32, {1})).ints()[0], 1);
}

TEST(TileOpsTest, FloatOpsRoundToTheirDType) {
  const Type t = Type::tile(DType::FP16, {1});
  const Tile a = floats(DType::FP16, {1}, {2048});
  const Tile one = floats(DType::FP16, {1}, {1});
  // 2048 + 1 is not representable in fp16 (spacing 2 there): ties to even -> 2048.
  EXPECT_EQ(binary(BinaryOp::Add, a, one, false, t).floats()[0], 2048.0);
  const Tile x = floats(DType::FP32, {1}, {1.0});
  const Tile three = floats(DType::FP32, {1}, {3.0});
  EXPECT_EQ(binary(BinaryOp::TrueDiv, x, three, false, Type::tile(DType::FP32, {1})).floats()[0], static_cast<double>(1.0f / 3.0f));
  // NaN handling of comparisons and min/max.
  const Tile n = floats(DType::FP32, {1}, {NAN});
  EXPECT_EQ(binary(BinaryOp::Ne, n, n, false, Type::tile(DType::I1, {1})).ints()[0], 1);
  EXPECT_EQ(binary(BinaryOp::Eq, n, n, false, Type::tile(DType::I1, {1})).ints()[0], 0);
  EXPECT_EQ(binary(BinaryOp::Max, n, x, false, Type::tile(DType::FP32, {1})).floats()[0], 1.0);
  EXPECT_TRUE(std::isnan(binary(BinaryOp::Max, n, x, true, Type::tile(DType::FP32, {1})).floats()[0]));
}

TEST(TileOpsTest, Casts) {
  const Tile f = floats(DType::FP32, {4}, {-1.7, 2.9, 300.5, NAN});
  EXPECT_EQ(intsOf(cast(f, DType::I32, false, false, ir::RoundingMode::None)), (std::vector<int64_t>{-1, 2, 300, 0}));
  EXPECT_EQ(intsOf(cast(f, DType::U8, false, false, ir::RoundingMode::None)), (std::vector<int64_t>{0, 2, 255, 0}));
  EXPECT_EQ(intsOf(cast(f, DType::I1, false, false, ir::RoundingMode::None)), (std::vector<int64_t>{1, 1, 1, 1}));
  const Tile i = ints(DType::I8, {2}, {-1, 5});
  EXPECT_EQ(intsOf(cast(i, DType::U32, false, false, ir::RoundingMode::None)), (std::vector<int64_t>{0xFFFFFFFF, 5}));
  EXPECT_EQ(floatsOf(cast(ints(DType::U8, {1}, {200}), DType::FP32, false, false, ir::RoundingMode::None)), (std::vector<double>{200}));
  EXPECT_EQ(intsOf(cast(ints(DType::I1, {2}, {1, 0}), DType::I32, false, false, ir::RoundingMode::None)), (std::vector<int64_t>{1, 0}));
  // fp32 -> bf16 with RTZ vs RTNE.
  const Tile g = floats(DType::FP32, {1}, {1.0 + 3.0 / 256});
  EXPECT_EQ(cast(g, DType::BF16, false, false, ir::RoundingMode::RTNE).floats()[0], 1.0 + 1.0 / 64);
  EXPECT_EQ(cast(g, DType::BF16, false, false, ir::RoundingMode::RTZ).floats()[0], 1.0 + 1.0 / 128);
  // Bitcasts keep the bits.
  EXPECT_EQ(cast(floats(DType::FP32, {1}, {1.0}), DType::I32, false, true, ir::RoundingMode::None).ints()[0], 0x3F800000);
  EXPECT_EQ(cast(ints(DType::U16, {1}, {0x3C00}), DType::FP16, false, true, ir::RoundingMode::None).floats()[0], 1.0);
  EXPECT_EQ(cast(ints(DType::I32, {1}, {-1}), DType::U32, false, true, ir::RoundingMode::None).ints()[0], 0xFFFFFFFF);
  // Pointer <-> i64 and pointer element casts keep the address.
  const Tile p = Tile::scalarPointer(DType::FP32, DeviceAddress::make(2, 8));
  EXPECT_EQ(cast(p, DType::I64, false, false, ir::RoundingMode::None).ints()[0], DeviceAddress::make(2, 8));
  const Tile q = cast(p, DType::U8, true, false, ir::RoundingMode::None);
  EXPECT_TRUE(q.isPointer());
  EXPECT_EQ(q.dtype(), DType::U8);
  EXPECT_EQ(q.ints()[0], DeviceAddress::make(2, 8));
}

TEST(TileOpsTest, PointerArithmeticAdvancesByElements) {
  const Tile p = splat(Tile::scalarPointer(DType::FP16, DeviceAddress::make(1, 0)), {3});
  const Tile off = ints(DType::I32, {3}, {0, 1, -1});
  const Tile q = binary(BinaryOp::Add, p, off, false, Type::pointerTile(DType::FP16, {3}));
  EXPECT_EQ(intsOf(q), (std::vector<int64_t>{DeviceAddress::make(1, 0), DeviceAddress::make(1, 2), DeviceAddress::make(1, -2)}));
  EXPECT_EQ(DeviceAddress::tensorId(q.ints()[2]), 1);
}

TEST(TileOpsTest, ReductionsAreTreesRoundedPerStep) {
  // fp16 [2048, 1, 1, 1]: a sequential sum stays 2048 (each +1 is a tie that rounds to even); the
  // tree adds pairs (2048+1 -> 2048, 1+1 = 2) and then 2048 + 2 = 2050.
  const Tile h = floats(DType::FP16, {4}, {2048, 1, 1, 1});
  EXPECT_EQ(reduce(ir::ReduceOp::Sum, h, 0, false, true, Type::scalar(DType::FP16)).floats()[0], 2050.0);
  const Tile m = ints(DType::I32, {2, 3}, {1, 5, 3, 4, 2, 6});
  EXPECT_EQ(intsOf(reduce(ir::ReduceOp::Sum, m, 1, false, true, Type::tile(DType::I32, {2}))), (std::vector<int64_t>{9, 12}));
  EXPECT_EQ(intsOf(reduce(ir::ReduceOp::Max, m, 0, false, true, Type::tile(DType::I32, {3}))), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_EQ(intsOf(reduce(ir::ReduceOp::Min, m, std::nullopt, false, true, Type::scalar(DType::I32))), (std::vector<int64_t>{1}));
  EXPECT_EQ(reduce(ir::ReduceOp::Sum, m, 1, true, true, Type::tile(DType::I32, {2, 1})).shape(), (ir::Shape{2, 1}));
  EXPECT_EQ(intsOf(reduce(ir::ReduceOp::XorSum, m, 1, false, true, Type::tile(DType::I32, {2}))), (std::vector<int64_t>{1 ^ 5 ^ 3, 4 ^ 2 ^ 6}));
  // Max ignores NaN; sums propagate it (bf16 included).
  const Tile n = floats(DType::BF16, {3}, {1, NAN, 3});
  EXPECT_EQ(reduce(ir::ReduceOp::Max, n, 0, false, true, Type::scalar(DType::BF16)).floats()[0], 3.0);
  EXPECT_TRUE(std::isnan(reduce(ir::ReduceOp::Sum, n, 0, false, true, Type::scalar(DType::BF16)).floats()[0]));
}

TEST(TileOpsTest, ArgMaxTieBreaks) {
  const Tile v = floats(DType::FP32, {5}, {1, 7, 3, 7, 2});
  EXPECT_EQ(reduce(ir::ReduceOp::ArgMax, v, 0, false, true, Type::scalar(DType::I32)).ints()[0], 1);
  EXPECT_EQ(reduce(ir::ReduceOp::ArgMax, v, 0, false, false, Type::scalar(DType::I32)).ints()[0], 3);
  EXPECT_EQ(reduce(ir::ReduceOp::ArgMin, v, 0, false, true, Type::scalar(DType::I32)).ints()[0], 0);
  const Tile m = ints(DType::I32, {2, 2}, {3, 9, 8, 1});
  EXPECT_EQ(intsOf(reduce(ir::ReduceOp::ArgMax, m, 0, false, true, Type::tile(DType::I32, {2}))), (std::vector<int64_t>{1, 0}));
}

TEST(TileOpsTest, Scans) {
  const Tile v = ints(DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(intsOf(scan(ir::ScanOp::CumSum, v, 1, false)), (std::vector<int64_t>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(intsOf(scan(ir::ScanOp::CumSum, v, 0, false)), (std::vector<int64_t>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(intsOf(scan(ir::ScanOp::CumProd, v, 1, true)), (std::vector<int64_t>{6, 6, 3, 120, 30, 6}));
}

TEST(TileOpsTest, FloatScansGoInRunsOf32ThenChainTheRuns) {
  // 2^24 then ones: a left-to-right fp32 scan stays at 2^24 (2^24 + 1 rounds to even). In runs of 32
  // (ir::kScanRun, the GPU's order) the second run sums its ones first and adds them to the carry.
  std::vector<double> x(64, 1.0);
  x[0] = 16777216.0;
  const std::vector<double> fwd = floatsOf(scan(ir::ScanOp::CumSum, floats(DType::FP32, {64}, x), 0, false));
  EXPECT_EQ(fwd[31], 16777216.0);
  EXPECT_EQ(fwd[40], 16777224.0);  // 2^24 + 9 rounds to even
  EXPECT_EQ(fwd[63], 16777248.0);  // 2^24 + 32, exact
  // Reversed: runs counted from the end; the run ending at element 31 holds 2^24.
  const std::vector<double> rev = floatsOf(scan(ir::ScanOp::CumSum, floats(DType::FP32, {64}, x), 0, true));
  EXPECT_EQ(rev[32], 32.0);
  EXPECT_EQ(rev[0], 16777280.0);  // 32 + (31 + 2^24 rounded to 2^24 + 32)
  EXPECT_EQ(rev[1], 31.0 + 32.0);
}

TEST(TileOpsTest, DotAccumulatesInFp32) {
  const Tile a = floats(DType::FP32, {2, 3}, {1, 2, 3, 4, 5, 6});
  const Tile b = floats(DType::FP32, {3, 2}, {7, 8, 9, 10, 11, 12});
  const Tile c = dot(a, b, nullptr, ir::InputPrecision::IEEE, Type::tile(DType::FP32, {2, 2}));
  EXPECT_EQ(floatsOf(c), (std::vector<double>{58, 64, 139, 154}));
  const Tile acc = floats(DType::FP32, {2, 2}, {1, 1, 1, 1});
  EXPECT_EQ(floatsOf(dot(a, b, &acc, ir::InputPrecision::IEEE, Type::tile(DType::FP32, {2, 2}))), (std::vector<double>{59, 65, 140, 155}));
  // Accumulation rounds to fp32 at every step: 2^24 + 1 + 1 stays 2^24 step by step.
  const Tile x = floats(DType::FP32, {1, 3}, {16777216.0, 1, 1});
  const Tile ones = floats(DType::FP32, {3, 1}, {1, 1, 1});
  EXPECT_EQ(dot(x, ones, nullptr, ir::InputPrecision::IEEE, Type::tile(DType::FP32, {1, 1})).floats()[0], 16777216.0);
  // tf32 rounds the inputs: 1 + 2^-11 becomes 1 + 2^-10 (ties away).
  const Tile y = floats(DType::FP32, {1, 1}, {1.0 + std::ldexp(1.0, -11)});
  const Tile one = floats(DType::FP32, {1, 1}, {1.0});
  EXPECT_EQ(dot(y, one, nullptr, ir::InputPrecision::TF32, Type::tile(DType::FP32, {1, 1})).floats()[0], 1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(dot(y, one, nullptr, ir::InputPrecision::IEEE, Type::tile(DType::FP32, {1, 1})).floats()[0], 1.0 + std::ldexp(1.0, -11));
  // Batched and integer dots.
  const Tile ia = ints(DType::I8, {2, 1, 2}, {1, 2, 3, 4});
  const Tile ib = ints(DType::I8, {2, 2, 1}, {5, 6, 7, 8});
  EXPECT_EQ(intsOf(dot(ia, ib, nullptr, ir::InputPrecision::IEEE, Type::tile(DType::I32, {2, 1, 1}))), (std::vector<int64_t>{17, 53}));
}

TEST(TileOpsTest, RandomMatchesPhilox) {
  const Tile seed = Tile::scalarInt(DType::I32, 42);
  const Tile offs = ints(DType::I32, {3}, {0, 1, 7});
  const Tile r = random(ir::RandKind::Uniform, seed, offs, 10, 0, Type::tile(DType::FP32, {3}));
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(r.floats()[i], uintToUniformFloat(randint4x32(42, static_cast<uint32_t>(offs.ints()[i]))[0]));
  const Tile k = random(ir::RandKind::Int4x, seed, offs, 10, 2, Type::tile(DType::U32, {3}));
  EXPECT_EQ(k.ints()[1], 0x838f5a6e);  // third output of randint4x(42, 1), from tests/tools/philox_oracle.py
  const Tile wide = random(ir::RandKind::Int, seed, ints(DType::I64, {1}, {0}), 10, 0, Type::tile(DType::U64, {1}));
  EXPECT_EQ(static_cast<uint64_t>(wide.ints()[0]), 0xa7687e2d34c89dc6ull);
  // A negative i32 seed is sign-extended (seed.to(tl.uint64)).
  const Tile neg = random(ir::RandKind::Int, Tile::scalarInt(DType::I32, -1), ints(DType::I32, {1}, {5}), 10, 0, Type::tile(DType::U32, {1}));
  EXPECT_EQ(neg.ints()[0], 0x6e5f04e2);
}

}  // namespace
}  // namespace tilescope::sim::tileops
