#include "core/sim/Philox.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>

namespace tilescope::sim {
namespace {

// Known-answer vectors of Random123 (kat_vectors, philox4x32_10 / philox4x64_10). Triton's
// philox_impl is the same function (the key is also bumped after the last round, which does not
// change the output), so these pin the constants and the round structure.
TEST(PhiloxTest, Random123KnownAnswers32) {
  using A = std::array<uint32_t, 4>;
  EXPECT_EQ(philox4x32({0, 0, 0, 0}, {0, 0}), (A{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}), (A{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (A{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(PhiloxTest, Random123KnownAnswers64) {
  using A = std::array<uint64_t, 4>;
  EXPECT_EQ(philox4x64({0, 0, 0, 0}, {0, 0}),
            (A{0x16554d9eca36314cull, 0xdb20fe9d672d0fdcull, 0xd7e772cee186176bull, 0x7e68b68aec7ba23bull}));
  const uint64_t m = ~uint64_t{0};
  EXPECT_EQ(philox4x64({m, m, m, m}, {m, m}),
            (A{0x87b092c3013fe90bull, 0x438c3c67be8d0224ull, 0x9cc7d7c69cd777b6ull, 0xa09caebf594f0ba0ull}));
  EXPECT_EQ(philox4x64({0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull, 0x082efa98ec4e6c89ull},
                       {0x452821e638d01377ull, 0xbe5466cf34e90c6cull}),
            (A{0xa528f45403e61d95ull, 0x38c72dbd566e9788ull, 0xa5a1610e72fd18b5ull, 0x57bd43b5e52b7fe6ull}));
}

// The values below were printed by tests/tools/philox_oracle.py, a line-by-line Python rendering of
// triton/language/random.py (Python integers, fp32 emulated with struct).
TEST(PhiloxTest, RandintMatchesOracle) {
  using A = std::array<uint32_t, 4>;
  EXPECT_EQ(randint4x32(42, 0), (A{0x9ceaf053, 0x77f5493b, 0x12bf50ad, 0x5742b3d7}));
  EXPECT_EQ(randint4x32(42, 1), (A{0xfcdb2127, 0x53ba6cfd, 0x838f5a6e, 0x744e06fb}));
  EXPECT_EQ(randint4x32(42, 7), (A{0x5bbd83b1, 0x68784c85, 0x172067aa, 0x2e6b75b7}));
  EXPECT_EQ(randint4x32(123456789, 1000), (A{0x8ceeaf85, 0x51cc1eda, 0x8f1552d9, 0xda2d0d1d}));
  // A negative seed is sign-extended to uint64 first (seed.to(tl.uint64)).
  EXPECT_EQ(randint4x32(static_cast<uint64_t>(int64_t{-1}), 5), (A{0x6e5f04e2, 0xd7682c44, 0xe4108c77, 0x408274dd}));
  // The seed's high half is the second key word.
  EXPECT_EQ(randint4x32(0x1234567890ABCDEFull, 3), (A{0x88a65b29, 0x3725097c, 0xe0196407, 0xd08633a4}));
  EXPECT_EQ(randint4x32(0, 0), philox4x32({0, 0, 0, 0}, {0, 0}));
}

TEST(PhiloxTest, Randint64MatchesOracle) {
  using A = std::array<uint64_t, 4>;
  EXPECT_EQ(randint4x64(42, 0), (A{0xa7687e2d34c89dc6ull, 0x4c5818ab9649d53full, 0xea0add4230dddab5ull, 0xe2a142eecee5bb40ull}));
  EXPECT_EQ(randint4x64(42, uint64_t{1} << 40),
            (A{0xc589b55d0cc85cd6ull, 0xf1c42dcce8f863b5ull, 0x4206e4fadc5ca7e6ull, 0xc044c229293cad72ull}));
}

float fromHex(uint32_t bits) { return std::bit_cast<float>(bits); }

TEST(PhiloxTest, RandAndRandnMatchOracle) {
  struct Case {
    uint64_t seed;
    uint32_t offset;
    uint32_t rand;
    uint32_t randn;
  };
  for (const Case& c : {Case{42, 0, 0x3f462a1e, 0x3f291df5}, Case{42, 1, 0x3cc937b5, 0xbfc577a3},
                        Case{42, 7, 0x3f377b06, 0x3ea8c725}, Case{123456789, 1000, 0x3f6622a0, 0xbe97b902},
                        Case{7, 3, 0x3f47c82b, 0xbf34469c}}) {
    const auto r = randint4x32(c.seed, c.offset);
    EXPECT_EQ(uintToUniformFloat(r[0]), fromHex(c.rand)) << c.seed << "/" << c.offset;
    EXPECT_EQ(pairUniformToNormal(uintToUniformFloat(r[0]), uintToUniformFloat(r[1])), fromHex(c.randn))
        << c.seed << "/" << c.offset;
  }
  EXPECT_EQ(uintToUniformFloat(randint4x64(42, uint64_t{1} << 40)[0]), fromHex(0x3ee9d929));
}

TEST(PhiloxTest, UniformStaysBelowOne) {
  EXPECT_LT(uintToUniformFloat(0x7FFFFFFFu), 1.0f);
  EXPECT_LT(uintToUniformFloat(0x80000000u), 1.0f);  // folds to INT_MAX
  EXPECT_EQ(uintToUniformFloat(0u), 0.0f);
  EXPECT_EQ(uintToUniformFloat(0xFFFFFFFFu), 0.0f);  // -1 folds to 0
  EXPECT_LT(uintToUniformFloat(~uint64_t{0} >> 1), 1.0f);
}

TEST(PhiloxTest, DistributionLooksRight) {
  double sum = 0, sumN = 0, sumN2 = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const auto r = randint4x32(2024, static_cast<uint32_t>(i));
    const float u = uintToUniformFloat(r[0]);
    ASSERT_GE(u, 0.0f);
    ASSERT_LT(u, 1.0f);
    sum += u;
    const float z = pairUniformToNormal(u, uintToUniformFloat(r[1]));
    sumN += z;
    sumN2 += static_cast<double>(z) * z;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.01);
  EXPECT_NEAR(sumN / n, 0.0, 0.03);
  EXPECT_NEAR(sumN2 / n, 1.0, 0.05);
}

TEST(PhiloxTest, FewerRoundsChangeTheOutput) {
  EXPECT_NE(randint4x32(42, 0, 7), randint4x32(42, 0, 10));
  EXPECT_EQ(philox4x32({1, 2, 3, 4}, {5, 6}, 0), (std::array<uint32_t, 4>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace tilescope::sim
