// The fp32 product shared by tl.dot and torch.matmul: every shape (the kernel's 4x16 blocks, 8-wide
// and scalar remainders, column and k blocks of large products) gives the bits of one std::fmaf
// chain per element in k order, accumulating into C.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/ir/FmaChainGemm.h"

namespace tilescope::sim {
namespace {

TEST(FmaChainGemm, IsBitwiseOneFmaChainPerElementForEveryShape) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> value(-3.0f, 3.0f);
  const int64_t shapes[][3] = {{1, 1, 1},   {4, 8, 16},   {32, 32, 32}, {3, 5, 7},     {33, 17, 41},
                               {64, 1, 24}, {5, 300, 9},  {9, 20, 300}, {130, 270, 19}, {16, 16, 8}};
  for (const auto& s : shapes) {
    const int64_t m = s[0], k = s[1], n = s[2];
    std::vector<float> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n)), c(static_cast<size_t>(m * n));
    for (float& x : a) x = value(rng);
    for (float& x : b) x = value(rng);
    for (float& x : c) x = value(rng);
    std::vector<float> fast = c, ref = c;
    fmaChainGemm(a.data(), b.data(), fast.data(), m, k, n);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float acc = ref[i * n + j];
        for (int64_t kk = 0; kk < k; ++kk) acc = std::fmaf(a[i * k + kk], b[kk * n + j], acc);
        ref[i * n + j] = acc;
      }
    ASSERT_EQ(std::memcmp(fast.data(), ref.data(), fast.size() * sizeof(float)), 0) << m << "x" << k << "x" << n;
    std::vector<float> viaReference = c;
    fmaChainGemmReference(a.data(), b.data(), viaReference.data(), m, k, n);
    ASSERT_EQ(std::memcmp(viaReference.data(), ref.data(), ref.size() * sizeof(float)), 0) << m << "x" << k << "x" << n;
  }
}

TEST(FmaChainGemm, DoesNotRoundTheProductSeparately) {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 needs 25 bits: rounded to fp32 alone it would lose 2^-24
  // (a tie, to even); the fused step from C = -1 keeps it: 2^-11 + 2^-24.
  const float x = 1.0f + std::ldexp(1.0f, -12);
  const float expected = std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24);
  const float a[1] = {x}, b[1] = {x};
  float c[1] = {-1.0f};
  fmaChainGemm(a, b, c, 1, 1, 1);
  EXPECT_EQ(c[0], expected);
  // 16 columns go through the vector kernel, 8 through its 8-wide part: the same there.
  for (int64_t n : {16, 8}) {
    std::vector<float> bs(static_cast<size_t>(n), x), cs(static_cast<size_t>(n), -1.0f);
    fmaChainGemm(a, bs.data(), cs.data(), 1, 1, n);
    for (float v : cs) EXPECT_EQ(v, expected) << n << " columns";
  }
}

}  // namespace
}  // namespace tilescope::sim
