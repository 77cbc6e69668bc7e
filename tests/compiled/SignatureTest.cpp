// Specializations as signature text (core/compiled/Signature): read, written back, and suggested from
// a program's launch of the kernel.
#include <gtest/gtest.h>

#include "core/compiled/Signature.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;

TEST(Signature, ReadsAndWritesTritonsAotConvention) {
  std::string error;
  const auto spec = compiled::parseSignature("*fp16, *fp32,i32:16, fp32, 1024, True, fp16", &error);
  ASSERT_TRUE(spec) << error;
  ASSERT_EQ(spec->args.size(), 7u);
  EXPECT_EQ(spec->args[0].kind, lang::ArgSpec::Kind::Pointer);
  EXPECT_EQ(spec->args[0].dtype, ir::DType::FP16);
  EXPECT_TRUE(spec->args[2].divisibleBy16);
  EXPECT_EQ(spec->args[4].kind, lang::ArgSpec::Kind::Constexpr);
  EXPECT_EQ(compiled::formatSignature(*spec), "*fp16,*fp32,i32:16,fp32,1024,True,fp16");

  EXPECT_FALSE(compiled::parseSignature("*fp32,,i32", &error));
  EXPECT_NE(error.find("entry 2"), std::string::npos) << error;
  EXPECT_FALSE(compiled::parseSignature("*float99", &error));
  EXPECT_NE(error.find("not a pointer type"), std::string::npos) << error;
}

TEST(Signature, IsSuggestedFromTheProgramsLaunch) {
  auto program = lang::test::programFrom(R"(import torch
import triton
import triton.language as tl

@triton.jit
def scale(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr, EVEN: tl.constexpr = False):
    pass

x = torch.zeros(64, dtype=torch.float16)
out = torch.zeros_like(x)
scale[(1,)](x, out, 64, 2.0, BLOCK=64, num_warps=2)
)");
  ir::KernelOptions options;
  const auto text = compiled::suggestSignature(*program, "scale", &options);
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "*fp16,*fp16,i32:16,fp32,64");
  EXPECT_EQ(options.numWarps, 2);
  EXPECT_FALSE(compiled::suggestSignature(*program, "nothing", &options));
}
