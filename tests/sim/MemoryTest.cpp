#include "core/sim/Memory.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/base/Diagnostic.h"

namespace tilescope::sim {
namespace {

using ir::DType;

TEST(MemoryTest, AddressesPackTensorAndOffset) {
  const int64_t a = DeviceAddress::make(3, 40);
  EXPECT_EQ(DeviceAddress::tensorId(a), 3);
  EXPECT_EQ(DeviceAddress::byteOffset(a), 40);
  // A pointer a little before its tensor still names that tensor (with a negative offset).
  const int64_t before = DeviceAddress::make(3, -8);
  EXPECT_EQ(DeviceAddress::tensorId(before), 3);
  EXPECT_EQ(DeviceAddress::byteOffset(before), -8);
  EXPECT_EQ(DeviceAddress::tensorId(0), 0);  // null
  EXPECT_EQ(elementBytes(DType::I1), 1);
  EXPECT_EQ(elementBytes(DType::FP16), 2);
  EXPECT_EQ(elementBytes(DType::FP8E5), 1);
}

TEST(MemoryTest, CreateReadWrite) {
  Memory m;
  const std::vector<double> x{1, 2.5, -3, 65504};
  const int id = m.createFromDoubles("x", DType::FP16, {4}, x);
  EXPECT_EQ(id, 1);
  const Tensor& t = m.get(id);
  EXPECT_EQ(t.byteSize(), 8);
  EXPECT_EQ(t.shapeString(), "[4]");
  EXPECT_EQ(m.readDoubles(id), x);
  // The bytes are fp16 little-endian: 1.0 is 0x3C00.
  EXPECT_EQ(t.bytes()[0], 0x00);
  EXPECT_EQ(t.bytes()[1], 0x3C);

  const int u = m.createFromInts("img", DType::U8, {2, 3}, std::vector<int64_t>{0, 255, 256, -1, 7, 8});
  EXPECT_EQ(m.readInts(u), (std::vector<int64_t>{0, 255, 0, 255, 7, 8}));
  EXPECT_EQ(m.get(u).strides(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(m.get(u).shapeString(), "[2x3]");

  m.writeDoubles(u, std::vector<double>{1.9, 2, 3, 4, 5, 300});
  EXPECT_EQ(m.readInts(u).back(), 255);  // saturating float -> u8
  EXPECT_EQ(m.readInts(u).front(), 1);
  EXPECT_THROW(m.get(99), lang::InternalError);
  m.release(u);
  EXPECT_EQ(m.find(u), nullptr);
}

TEST(MemoryTest, StridedStorageCoversTheLargestIndex) {
  Memory m;
  // A transposed 3x2 view of 2x3 storage: strides (1, 3).
  const int id = m.create("t", DType::FP32, {3, 2}, TensorInit::Zeros, {1, 3});
  EXPECT_EQ(m.get(id).storageElements(), 6);
  const int padded = m.create("p", DType::FP32, {2, 2}, TensorInit::Zeros, {4, 1});
  EXPECT_EQ(m.get(padded).storageElements(), 6);
}

TEST(MemoryTest, EmptyTensorsTrackInitialization) {
  Memory m;
  const int id = m.create("out", DType::FP32, {3}, TensorInit::Uninitialized);
  Tensor& t = m.get(id);
  EXPECT_TRUE(t.tracksInit());
  EXPECT_FALSE(t.isInitialized(1));
  t.markInitialized(1);
  EXPECT_TRUE(t.isInitialized(1));
  EXPECT_FALSE(t.isInitialized(2));
  m.writeDoubles(id, std::vector<double>{1, 2, 3});
  EXPECT_TRUE(t.isInitialized(2));
  const int z = m.create("z", DType::FP32, {3});
  EXPECT_FALSE(m.get(z).tracksInit());
  EXPECT_TRUE(m.get(z).isInitialized(0));
}

TEST(MemoryTest, LaunchWriteTrackingIsLazyAndPerLaunch) {
  Memory m;
  const int id = m.create("z", DType::I32, {4});
  Tensor& t = m.get(id);
  EXPECT_FALSE(t.writtenInLaunch(1));
  t.touchForLaunch(1);
  t.prepareStripe(0, 1);
  EXPECT_TRUE(t.writtenInLaunch(1));
  EXPECT_EQ(t.writers()[2], -1);
  t.writers()[2] = 5;
  t.touchForLaunch(1);  // same launch: kept
  t.prepareStripe(0, 1);
  EXPECT_EQ(t.writers()[2], 5);
  t.touchForLaunch(2);  // next launch: reset
  t.prepareStripe(0, 2);
  EXPECT_EQ(t.writers()[2], -1);
  EXPECT_FALSE(t.writtenInLaunch(1));
}

TEST(MemoryTest, EachStripeIsResetByItsFirstStoreOrAtTheLaunchsEnd) {
  Memory m;
  const int64_t stripe = int64_t{1} << Tensor::kStripeShift;
  const int id = m.create("z", DType::FP32, {3 * stripe});
  Tensor& t = m.get(id);
  ASSERT_EQ(t.stripeCount(), 3);
  t.touchForLaunch(1);
  for (int64_t s : {0, 2}) {
    t.prepareStripe(s, 1);
    t.writers()[s * stripe + 7] = 3;
    t.writeFlags()[s * stripe + 7] = kWrittenByMany;
  }
  m.finishLaunch(1);
  EXPECT_EQ(t.writers()[stripe + 7], -1);  // stripe 1: no store, reset at the end
  EXPECT_EQ(t.writers()[2 * stripe + 7], 3);
  // Launch 2 stores only into stripe 1: what launch 1 wrote into stripes 0 and 2 is gone at its end.
  t.touchForLaunch(2);
  t.prepareStripe(1, 2);
  t.writers()[stripe + 1] = 4;
  m.finishLaunch(2);
  for (int64_t s : {0, 2}) {
    EXPECT_EQ(t.writers()[s * stripe + 7], -1) << "stripe " << s;
    EXPECT_EQ(t.writeFlags()[s * stripe + 7], 0) << "stripe " << s;
  }
  EXPECT_EQ(t.writers()[stripe + 1], 4);
}

TEST(MemoryTest, ElementCodecsRoundTrip) {
  Memory m;
  const int f8 = m.create("f8", DType::FP8E4NV, {2});
  Tensor& t = m.get(f8);
  t.storeFloat(0, 500.0);  // saturates
  EXPECT_EQ(t.loadFloat(0), 448.0);
  t.storeFloat(1, NAN);
  EXPECT_TRUE(std::isnan(t.loadFloat(1)));
  const int b = m.create("b", DType::I1, {2});
  m.get(b).storeInt(0, 3);
  EXPECT_EQ(m.get(b).loadInt(0), 1);
  const int u64 = m.create("u", DType::U64, {1});
  m.get(u64).storeInt(0, -1);
  EXPECT_EQ(m.get(u64).loadInt(0), -1);
  EXPECT_EQ(m.readDoubles(u64)[0], 18446744073709551615.0);
}

}  // namespace
}  // namespace tilescope::sim
