// cupy.RawKernel without a GPU: the signature parser that decides how each argument is passed (the
// simulator's error: tests/python/EmbeddedCupyTest.cpp).
#include <gtest/gtest.h>

#include "core/python/RawKernel.h"

using tilescope::host::parseRawKernelSignature;
using tilescope::host::RawKernelParam;
using K = RawKernelParam::Kind;

namespace {

struct SignatureCase {
  const char* declaration;
  K kind;
  int bytes;
  const char* name;
};

}  // namespace

TEST(RawKernelSignature, EachParameterTypeIsPassedAsDeclared) {
  const SignatureCase cases[] = {
      {"const float* __restrict__ x", K::Pointer, 8, "x"},
      {"float *out", K::Pointer, 8, "out"},
      {"const __half* h", K::Pointer, 8, "h"},
      {"int n", K::SignedInt, 4, "n"},
      {"unsigned int n", K::UnsignedInt, 4, "n"},
      {"unsigned n", K::UnsignedInt, 4, "n"},
      {"long long n", K::SignedInt, 8, "n"},
      {"unsigned long long n", K::UnsignedInt, 8, "n"},
      {"long n", K::SignedInt, 8, "n"},
      {"size_t n", K::UnsignedInt, 8, "n"},
      {"int64_t n", K::SignedInt, 8, "n"},
      {"uint32_t n", K::UnsignedInt, 4, "n"},
      {"short s", K::SignedInt, 2, "s"},
      {"const int n", K::SignedInt, 4, "n"},
      {"float alpha", K::Float, 4, "alpha"},
      {"double alpha", K::Float, 8, "alpha"},
      {"bool flag", K::Bool, 1, "flag"},
      {"int", K::SignedInt, 4, ""},
  };
  for (const SignatureCase& c : cases) {
    const std::string code = std::string("extern \"C\" __global__ void k(") + c.declaration + ") {}";
    std::string error;
    const auto params = parseRawKernelSignature(code, "k", &error);
    ASSERT_TRUE(params) << c.declaration << ": " << error;
    ASSERT_EQ(params->size(), 1u) << c.declaration;
    EXPECT_EQ((*params)[0].kind, c.kind) << c.declaration;
    EXPECT_EQ((*params)[0].bytes, c.bytes) << c.declaration;
    EXPECT_EQ((*params)[0].name, c.name) << c.declaration;
  }
}

TEST(RawKernelSignature, FindsTheNamedKernelAmongOthersAndIgnoresComments) {
  const std::string code = R"(
// __global__ void add(int fake) {}
__device__ float twice(float v) { return 2 * v; }
extern "C" __global__ void scale(float* p, float s) { p[0] *= s; }
extern "C" __global__ void __launch_bounds__(256) add(const float* x, /* int not_a_param, */ float* y, int n) {}
)";
  const auto params = parseRawKernelSignature(code, "add");
  ASSERT_TRUE(params);
  ASSERT_EQ(params->size(), 3u);
  EXPECT_EQ((*params)[2].name, "n");
  EXPECT_EQ(parseRawKernelSignature(code, "scale")->size(), 2u);
  std::string error;
  EXPECT_FALSE(parseRawKernelSignature(code, "missing", &error));
  EXPECT_NE(error.find("__global__ void missing"), std::string::npos) << error;
  EXPECT_FALSE(parseRawKernelSignature("__global__ void s(struct Foo f) {}", "s", &error));
  EXPECT_NE(error.find("struct Foo f"), std::string::npos) << error;
}
