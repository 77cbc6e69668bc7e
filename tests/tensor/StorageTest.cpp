// Storage: alignment, zero fill and the never-written tracking the kernel simulator relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/tensor/Storage.h"
#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorIndexing.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

TEST(Storage, IsAlignedAndZeroFilled) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{63}, size_t{1000}}) {
    auto s = Storage::create(n, true);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(s->data()) % Storage::kAlignment, 0u) << n;
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(s->data()[i], std::byte{0});
    EXPECT_TRUE(s->fullyInitialised());
  }
}

TEST(Storage, TracksWrittenRangesByByte) {
  auto s = Storage::create(200, false);
  EXPECT_FALSE(s->fullyInitialised());
  EXPECT_EQ(s->uninitialisedBytes(), 200u);
  s->markWritten(10, 100);  // crosses word boundaries
  EXPECT_TRUE(s->isInitialised(10, 100));
  EXPECT_FALSE(s->isInitialised(9, 2));
  EXPECT_FALSE(s->isInitialised(100, 20));
  EXPECT_EQ(s->firstUninitialised(0, 200), 0u);
  EXPECT_EQ(s->firstUninitialised(10, 190), 110u);
  EXPECT_EQ(s->uninitialisedBytes(), 100u);
  s->markWritten(50, 30);  // already written: count unchanged
  EXPECT_EQ(s->uninitialisedBytes(), 100u);
  s->markWritten(0, 10);
  s->markWritten(110, 90);
  EXPECT_TRUE(s->fullyInitialised());
  EXPECT_EQ(s->firstUninitialised(0, 200), Storage::npos);
}

TEST(Storage, DeviceMirrorDefaultsToHostNewest) {
  auto s = Storage::create(16, true);
  EXPECT_EQ(s->deviceMirror().address, 0u);
  EXPECT_EQ(s->deviceMirror().newer, Storage::DeviceMirror::Side::Host);
}

namespace {
// A fake device for the mirror protocol: "device bytes" live in a host buffer.
std::vector<std::byte> fakeDevice;
int fetches = 0, releases = 0;
void fakeFetch(Storage& s) {
  ++fetches;
  std::copy(fakeDevice.begin(), fakeDevice.end(), s.hostBytes());
  s.deviceMirror().newer = Storage::DeviceMirror::Side::Both;
}
void fakeRelease(Storage& s) {
  ++releases;
  s.deviceMirror() = Storage::DeviceMirror{};
}
}  // namespace

TEST(Storage, HostAccessFetchesNewerDeviceBytesAndWritesInvalidateTheDeviceCopy) {
  Storage::setDeviceHooks({&fakeFetch, &fakeRelease});
  fetches = releases = 0;
  {
    auto s = Storage::create(4, true);
    fakeDevice.assign(4, std::byte{7});
    s->deviceMirror().address = 0x1000;
    s->deviceMirror().newer = Storage::DeviceMirror::Side::Device;
    const Storage& reader = *s;
    EXPECT_EQ(reader.data()[2], std::byte{7});  // a read fetches
    EXPECT_EQ(fetches, 1);
    EXPECT_EQ(s->deviceMirror().newer, Storage::DeviceMirror::Side::Both);
    EXPECT_EQ(reader.data()[3], std::byte{7});  // and only once
    EXPECT_EQ(fetches, 1);
    s->data()[0] = std::byte{1};  // a mutable access makes the host side the newest
    EXPECT_EQ(s->deviceMirror().newer, Storage::DeviceMirror::Side::Host);
    EXPECT_EQ(fetches, 1);
  }
  EXPECT_EQ(releases, 1);  // the device copy is given back with the storage
  {
    auto plain = Storage::create(4, true);  // never on a device: no hook runs
    plain->data()[0] = std::byte{2};
  }
  EXPECT_EQ(releases, 1);
  EXPECT_EQ(fetches, 1);
  Storage::setDeviceHooks({});
}

TEST(StorageTracking, EmptyStartsUninitialisedAndFactoriesDoNot) {
  EXPECT_FALSE(empty({4}).isInitialised());
  EXPECT_FALSE(emptyLike(zeros({2, 3})).isInitialised());
  EXPECT_TRUE(zeros({4}).isInitialised());
  EXPECT_TRUE(ones({4}).isInitialised());
  EXPECT_TRUE(full({4}, Scalar(2.5)).isInitialised());
}

TEST(StorageTracking, WritesThroughTheTensorApiMarkOnlyTheirElements) {
  Tensor t = empty({8}, DType::FP32);
  Tensor evens = t.slice(0, std::nullopt, std::nullopt, 2);
  evens.fill_(Scalar(1.0));
  EXPECT_TRUE(evens.isInitialised());
  EXPECT_FALSE(t.isInitialised());
  const Storage& s = *t.storage();
  EXPECT_TRUE(s.isInitialised(0, 4));
  EXPECT_FALSE(s.isInitialised(4, 4));
  EXPECT_EQ(s.firstUninitialised(0, 32), 4u);
  // setitem with an advanced index marks its elements too.
  const TensorIndex idx[] = {test::ints({1, 3, 5, 7})};
  setItem(t, idx, Scalar(2.0));
  EXPECT_TRUE(t.isInitialised());
}

TEST(StorageTracking, ExternalWriterMarksRanges) {
  Tensor t = empty({2, 4}, DType::I32);
  // A simulator store of row 1 through a raw pointer, then its report.
  t.data<int32_t>()[4] = 7;
  t.storage()->markWritten(4 * sizeof(int32_t), 4 * sizeof(int32_t));
  EXPECT_TRUE(t.select(0, 1).isInitialised());
  EXPECT_FALSE(t.select(0, 0).isInitialised());
  t.select(0, 0).markWritten();
  EXPECT_TRUE(t.isInitialised());
}

TEST(StorageTracking, CopiesKeepNeverWrittenElementsUnwritten) {
  Tensor t = empty({4});
  t.select(0, 0).fill_(Scalar(1.0));
  const Tensor copy = t.to(DType::FP64);  // conversion copies the tracking element by element
  EXPECT_TRUE(copy.select(0, 0).isInitialised());
  EXPECT_FALSE(copy.select(0, 1).isInitialised());
  EXPECT_FALSE(t.clone().isInitialised());
}

}  // namespace
}  // namespace tilescope::host
