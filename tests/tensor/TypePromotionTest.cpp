// torch's dtype rules: the promoteTypes table, result_type with weak Python numbers and zero-dim
// tensors, and the per-op result dtypes (true division, comparisons).
#include <gtest/gtest.h>

#include "core/tensor/TensorOps.h"
#include "core/tensor/TypePromotion.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using ir::DType;
constexpr DType b1 = DType::I1, u1 = DType::U8, i1 = DType::I8, i2 = DType::I16, i4 = DType::I32, i8 = DType::I64,
                f2 = DType::FP16, bf = DType::BF16, f4 = DType::FP32, f8 = DType::FP64;

struct PromoteCase {
  DType a, b, expected;
};

TEST(TypePromotion, PromoteTypesTable) {
  const PromoteCase cases[] = {
      {b1, b1, b1}, {b1, u1, u1}, {b1, i4, i4}, {b1, f2, f2}, {b1, bf, bf},  // bool is the identity
      {u1, i1, i2}, {u1, i2, i2}, {u1, i4, i4}, {u1, i8, i8}, {i1, i2, i2},  // no common 8-bit type
      {i4, i8, i8}, {i2, i4, i4}, {i8, f2, f2}, {i8, bf, bf}, {u1, f4, f4},  // any float beats any int
      {f2, bf, f4}, {f2, f4, f4}, {bf, f4, f4}, {f4, f8, f8}, {f2, f8, f8},  // fp16 + bf16 -> fp32
      {i8, f8, f8}, {u1, bf, bf},
  };
  for (const PromoteCase& c : cases) {
    EXPECT_EQ(promoteTypes(c.a, c.b), c.expected) << ir::dtypeName(c.a) << "+" << ir::dtypeName(c.b);
    EXPECT_EQ(promoteTypes(c.b, c.a), c.expected) << "symmetric";
  }
}

TEST(TypePromotion, TorchNamesAndParsing) {
  EXPECT_EQ(torchDTypeName(f2), "torch.float16");
  EXPECT_EQ(torchDTypeName(bf), "torch.bfloat16");
  EXPECT_EQ(torchDTypeName(b1), "torch.bool");
  EXPECT_EQ(parseTorchDType("torch.float"), f4);
  EXPECT_EQ(parseTorchDType("half"), f2);
  EXPECT_EQ(parseTorchDType("torch.long"), i8);
  EXPECT_EQ(parseTorchDType("int"), i4);
  EXPECT_EQ(parseTorchDType("torch.uint8"), u1);
  EXPECT_FALSE(parseTorchDType("torch.uint16").has_value());
  EXPECT_FALSE(parseTorchDType("float8e5").has_value());
}

struct ResultCase {
  const char* what;
  TensorOrScalar a, b;
  BinaryOp op;
  DType expected;
};

TEST(TypePromotion, BinaryResultTypes) {
  const Tensor i32 = zeros({3}, i4), i64 = zeros({3}, i8), i8v = zeros({3}, i1), u8v = zeros({3}, u1);
  const Tensor h = zeros({3}, f2), f = zeros({3}, f4), bt = zeros({3}, b1);
  const Tensor zeroDimF64 = zeros({}, f8), zeroDimI64 = zeros({}, i8);
  const ResultCase cases[] = {
      {"int tensor + float scalar -> default float", i64, Scalar(2.5), BinaryOp::Add, f4},
      {"int32 tensor + int scalar stays int32", i32, Scalar(int64_t{7}), BinaryOp::Add, i4},
      {"int8 tensor + big int scalar stays int8", i8v, Scalar(int64_t{1000}), BinaryOp::Add, i1},
      {"half tensor * float scalar stays half", h, Scalar(2.5), BinaryOp::Mul, f2},
      {"bool tensor + int scalar -> int64", bt, Scalar(int64_t{1}), BinaryOp::Add, i8},
      {"bool tensor + bool scalar -> bool", bt, Scalar(true), BinaryOp::Add, b1},
      {"int / int -> float32", i64, i32, BinaryOp::Div, f4},
      {"int / int scalar -> float32", i32, Scalar(int64_t{2}), BinaryOp::Div, f4},
      {"int // int stays int", i64, Scalar(int64_t{2}), BinaryOp::FloorDiv, i8},
      {"half / int tensor -> half", h, i64, BinaryOp::Div, f2},
      {"uint8 + int8 -> int16", u8v, i8v, BinaryOp::Add, i2},
      {"int32 + 0-dim float64 -> float64 (higher category)", i32, zeroDimF64, BinaryOp::Add, f8},
      {"int32 + 0-dim int64 -> int32 (same category)", i32, zeroDimI64, BinaryOp::Add, i4},
      {"float32 + 0-dim float64 -> float32", f, zeroDimF64, BinaryOp::Add, f4},
      {"comparison -> bool", f, i64, BinaryOp::Lt, b1},
      {"int ** float scalar -> float32", i64, Scalar(0.5), BinaryOp::Pow, f4},
      {"half + float tensor -> float", h, f, BinaryOp::Add, f4},
  };
  for (const ResultCase& c : cases) {
    EXPECT_EQ(binaryResultType(c.op, c.a, c.b), c.expected) << c.what;
    // The actual operation agrees with the predicted dtype.
    EXPECT_EQ(binary(c.op, c.a, c.b).dtype(), c.expected) << c.what;
  }
}

TEST(TypePromotion, WrappedNumbersWrapLikeTorch) {
  // int8 tensor + 1000: the scalar is cast to int8 (1000 -> -24) before the add.
  const Tensor t = test::ints({1}, {}, DType::I8);
  EXPECT_EQ(test::toInts(t + Scalar(int64_t{1000})), std::vector<int64_t>{-23});
}

TEST(TypePromotion, CanCast) {
  EXPECT_TRUE(canCast(i8, f4));
  EXPECT_FALSE(canCast(f4, i8));
  EXPECT_FALSE(canCast(i4, b1));
  EXPECT_TRUE(canCast(b1, i4));
  EXPECT_TRUE(canCast(f8, f2));
}

}  // namespace
}  // namespace tilescope::host
