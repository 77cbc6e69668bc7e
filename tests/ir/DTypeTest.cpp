#include <gtest/gtest.h>

#include "core/ir/DType.h"
#include "core/ir/Type.h"

using namespace tilescope::ir;

TEST(DType, NamesWidthsAndKinds) {
  struct Row {
    DType t;
    const char* name;
    const char* python;
    int bits;
    bool isFloat, isSigned, isUnsigned;
  };
  const Row rows[] = {
      {DType::I1, "i1", "int1", 1, false, false, true},
      {DType::I8, "i8", "int8", 8, false, true, false},
      {DType::I16, "i16", "int16", 16, false, true, false},
      {DType::I32, "i32", "int32", 32, false, true, false},
      {DType::I64, "i64", "int64", 64, false, true, false},
      {DType::U8, "u8", "uint8", 8, false, false, true},
      {DType::U16, "u16", "uint16", 16, false, false, true},
      {DType::U32, "u32", "uint32", 32, false, false, true},
      {DType::U64, "u64", "uint64", 64, false, false, true},
      {DType::FP8E4NV, "fp8e4nv", "float8e4nv", 8, true, false, false},
      {DType::FP8E5, "fp8e5", "float8e5", 8, true, false, false},
      {DType::FP16, "fp16", "float16", 16, true, false, false},
      {DType::BF16, "bf16", "bfloat16", 16, true, false, false},
      {DType::FP32, "fp32", "float32", 32, true, false, false},
      {DType::FP64, "fp64", "float64", 64, true, false, false},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(dtypeName(r.t), r.name);
    EXPECT_EQ(dtypePythonName(r.t), r.python);
    EXPECT_EQ(bitWidth(r.t), r.bits) << r.name;
    EXPECT_EQ(isFloat(r.t), r.isFloat) << r.name;
    EXPECT_EQ(isSignedInt(r.t), r.isSigned) << r.name;
    EXPECT_EQ(isUnsignedInt(r.t), r.isUnsigned) << r.name;
    EXPECT_EQ(parseDType(r.name), r.t);
    EXPECT_EQ(parseDType(std::string("tl.") + r.python), r.t);
  }
  EXPECT_EQ(kind(DType::I1), DTypeKind::Bool);
  EXPECT_EQ(kind(DType::U8), DTypeKind::Integral);
  EXPECT_EQ(kind(DType::BF16), DTypeKind::Floating);
}

TEST(DType, ParsesTorchAndSignatureSpellings) {
  EXPECT_EQ(parseDType("torch.float16"), DType::FP16);
  EXPECT_EQ(parseDType("torch.half"), DType::FP16);
  EXPECT_EQ(parseDType("torch.float"), DType::FP32);
  EXPECT_EQ(parseDType("torch.bool"), DType::I1);
  EXPECT_EQ(parseDType("torch.long"), DType::I64);
  EXPECT_EQ(parseDType("torch.uint8"), DType::U8);
  EXPECT_EQ(parseDType("triton.language.bfloat16"), DType::BF16);
  EXPECT_EQ(parseDType("torch.float8_e5m2"), DType::FP8E5);
  EXPECT_EQ(parseDType("float128"), std::nullopt);
  EXPECT_EQ(parseDType(""), std::nullopt);
  auto sig = parseSignatureType("*fp32");
  ASSERT_TRUE(sig);
  EXPECT_TRUE(sig->isPointer);
  EXPECT_EQ(sig->dtype, DType::FP32);
  sig = parseSignatureType("i32");
  ASSERT_TRUE(sig);
  EXPECT_FALSE(sig->isPointer);
  EXPECT_EQ(parseSignatureType("*"), std::nullopt);
  EXPECT_EQ(intDType(16, false), DType::U16);
  EXPECT_EQ(intDType(12, true), std::nullopt);
  EXPECT_EQ(intMin(DType::I8), -128);
  EXPECT_EQ(intMaxU(DType::U64), UINT64_MAX);
}

TEST(Type, Printing) {
  EXPECT_EQ(Type::scalar(DType::I32).str(), "i32");
  EXPECT_EQ(Type::pointer(DType::FP16).str(), "ptr<fp16>");
  EXPECT_EQ(Type::tile(DType::FP32, {64, 64}).str(), "tensor<64x64xfp32>");
  EXPECT_EQ(Type::pointerTile(DType::FP16, {64}).str(), "tensor<64x!ptr<fp16>>");
  EXPECT_EQ(shapeString({64, 32}), "[64x32]");
  EXPECT_EQ(shapeString({}), "[]");
  const Type t = Type::pointerTile(DType::BF16, {16, 8});
  EXPECT_EQ(t.pointee(), Type::tile(DType::BF16, {16, 8}));
  EXPECT_EQ(t.withDType(DType::I1).str(), "tensor<16x8xi1>");
  EXPECT_EQ(t.scalarType().str(), "ptr<bf16>");
  EXPECT_EQ(t.numel(), 128);
  EXPECT_FALSE(t.isFloat());
  EXPECT_NE(Type::scalar(DType::I32), Type::tile(DType::I32, {1}));
}
