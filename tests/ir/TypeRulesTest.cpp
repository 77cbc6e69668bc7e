// Table-driven tests of Triton's typing rules (core/ir/TypeRules).
#include <gtest/gtest.h>

#include "core/ir/TypeRules.h"

using namespace tilescope::ir;

namespace {

struct PromotionCase {
  BinaryOp op;
  Operand a;
  Operand b;
  DType operand;  // dtype both sides are cast to
  DType result;
};

Operand T(DType t) { return Operand::tensor(t); }
Operand P(DType t) { return Operand::tensor(t, true); }
Operand Lint(int64_t v) { return Operand::literalInt(v); }
Operand Lflt(double v) { return Operand::literalFloat(v); }
Operand Lbool(bool v) { return Operand::literalBool(v); }

constexpr auto Add = BinaryOp::Add;
using enum DType;

}  // namespace

TEST(TypeRules, BinaryPromotionTable) {
  const PromotionCase cases[] = {
      // same kind: wider wins
      {Add, T(I32), T(I32), I32, I32},
      {Add, T(I32), T(I64), I64, I64},
      {Add, T(I8), T(I16), I16, I16},
      {Add, T(FP16), T(FP32), FP32, FP32},
      {Add, T(FP32), T(FP64), FP64, FP64},
      // same width, mixed signedness: unsigned
      {Add, T(I8), T(U8), U8, U8},
      {Add, T(I32), T(U32), U32, U32},
      {Add, T(U64), T(I64), U64, U64},
      // different widths, mixed signedness: the wider
      {Add, T(U16), T(I32), I32, I32},
      {Add, T(U32), T(I64), I64, I64},
      {Add, T(U64), T(I8), U64, U64},
      // kind: bool < int < float
      {Add, T(I1), T(I32), I32, I32},
      {Add, T(I1), T(U8), U8, U8},
      {Add, T(I64), T(FP16), FP16, FP16},
      {Add, T(U8), T(FP32), FP32, FP32},
      // fp16 / bf16
      {Add, T(FP16), T(BF16), FP32, FP32},
      {Add, T(BF16), T(BF16), BF16, BF16},
      {Add, T(BF16), T(I32), FP32, FP32},
      {Add, T(BF16), T(FP64), FP64, FP64},
      // fp8
      {Add, T(FP8E5), T(FP8E5), FP8E5, FP8E5},
      {Add, T(FP8E5), T(FP8E4NV), FP16, FP16},
      {Add, T(FP8E5), T(FP16), FP16, FP16},
      // weakly typed Python scalars: lower or equal kind does not participate
      {Add, T(U8), Lint(3), U8, U8},
      {Add, T(I8), Lint(-100), I8, I8},
      {Add, T(FP16), Lint(1), FP16, FP16},
      {Add, T(FP16), Lflt(0.5), FP16, FP16},
      {Add, T(BF16), Lflt(1e10), BF16, BF16},
      {Add, T(I32), Lbool(true), I32, I32},
      {Add, Lint(2), T(I64), I64, I64},
      // ... a higher kind picks the smallest dtype that holds it
      {Add, T(I16), Lflt(4.0), FP32, FP32},
      {Add, T(U8), Lflt(0.2989), FP32, FP32},
      {Add, T(I32), Lflt(1e300), FP64, FP64},
      {Add, T(I1), Lint(5), I32, I32},
      {Add, T(I1), Lint(int64_t{1} << 40), I64, I64},
      // true division: ints divide in fp32, fp16 divides in fp32
      {BinaryOp::TrueDiv, T(I32), T(I32), FP32, FP32},
      {BinaryOp::TrueDiv, T(I64), Lint(2), FP32, FP32},
      {BinaryOp::TrueDiv, T(FP16), T(FP16), FP32, FP32},
      {BinaryOp::TrueDiv, T(FP16), Lint(2), FP32, FP32},
      {BinaryOp::TrueDiv, T(BF16), T(BF16), FP32, FP32},
      {BinaryOp::TrueDiv, T(FP32), T(I32), FP32, FP32},
      {BinaryOp::TrueDiv, T(FP64), T(FP32), FP64, FP64},
      // floor division and modulo keep integers
      {BinaryOp::Div, T(I32), Lint(2), I32, I32},
      {BinaryOp::Div, T(I32), T(I64), I64, I64},
      {BinaryOp::Div, T(U32), T(U8), U32, U32},
      {BinaryOp::Mod, T(I32), T(I32), I32, I32},
      {BinaryOp::Mod, T(FP32), Lflt(2.0), FP32, FP32},
      {BinaryOp::Mod, T(FP16), T(FP16), FP32, FP32},
      // comparisons give i1 after promotion
      {BinaryOp::Lt, T(I32), T(I64), I64, I1},
      {BinaryOp::Lt, T(I32), Lint(7), I32, I1},
      {BinaryOp::Eq, T(FP16), Lflt(0.0), FP16, I1},
      {BinaryOp::Ge, T(U8), T(FP32), FP32, I1},
      // bitwise
      {BinaryOp::And, T(I1), T(I1), I1, I1},
      {BinaryOp::Or, T(I8), T(I32), I32, I32},
      {BinaryOp::Shl, T(U32), Lint(3), U32, U32},
      {BinaryOp::Shr, T(I64), T(I32), I64, I64},
      // tl.minimum / tl.maximum
      {BinaryOp::Max, T(FP32), T(FP16), FP32, FP32},
      {BinaryOp::Min, T(I32), Lint(0), I32, I32},
  };
  for (const PromotionCase& c : cases) {
    SCOPED_TRACE(std::string(binaryOpSymbol(c.op)) + " " + c.a.str() + ", " + c.b.str());
    auto t = binaryTyping(c.op, c.a, c.b);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_FALSE(t->pointerArith);
    EXPECT_EQ(dtypeName(t->operandDType), dtypeName(c.operand));
    EXPECT_EQ(dtypeName(t->resultDType), dtypeName(c.result));
    // The rules are symmetric in their operands.
    auto swapped = binaryTyping(c.op, c.b, c.a);
    ASSERT_TRUE(swapped.ok()) << swapped.error();
    EXPECT_EQ(dtypeName(swapped->resultDType), dtypeName(c.result));
  }
}

TEST(TypeRules, PromotionErrors) {
  struct ErrorCase {
    BinaryOp op;
    Operand a;
    Operand b;
    const char* message;
  };
  const ErrorCase cases[] = {
      {Add, T(U8), Lint(-1), "cannot combine an unsigned u8 tensor with the negative scalar -1; cast one of them explicitly"},
      {Add, T(I8), Lint(300), "scalar 300 is out of range for i8 (the other operand's type)"},
      {BinaryOp::TrueDiv, T(I32), T(U32),
       "cannot use '/', '//' or '%' on i32 and u32 because they have different signedness; cast them to the same signedness"},
      {BinaryOp::Div, T(FP32), T(FP32),
       "'//' needs integer operands (got fp32 and fp32); use '/' for floats, then tl.floor if you need to round down"},
      {BinaryOp::And, T(FP32), T(I32), "'&' needs integer operands (got fp32 and i32)"},
      {BinaryOp::Shl, T(FP16), Lint(1), "'<<' needs integer operands (got fp16 and int 1)"},
      {Add, T(FP8E5), T(I32), "cannot combine fp8e5 and i32 in arithmetic; convert the fp8 value to fp16 or fp32 first with .to()"},
      {Add, P(FP32), P(FP32), "cannot add two pointers (ptr<fp32> + ptr<fp32>); add an integer offset to one of them"},
      {BinaryOp::Sub, P(FP16), P(FP16),
       "cannot subtract two pointers (ptr<fp16> - ptr<fp16>); Triton has no pointer difference - subtract the integer offsets instead"},
      {Add, P(FP32), T(FP32), "pointer offsets must be integers; got fp32 in ptr<fp32> + fp32"},
      {BinaryOp::Mul, P(FP32), T(I32),
       "invalid operands of type ptr<fp32> and i32 for '*'; pointers only support '+' and '-' with integer offsets"},
      {BinaryOp::Sub, T(I32), P(FP32),
       "invalid operands of type i32 and ptr<fp32> for '-'; pointers only support '+' and '-' with integer offsets"},
      {BinaryOp::Lt, P(FP32), P(FP32),
       "invalid operands of type ptr<fp32> and ptr<fp32> for '<'; pointers only support '+' and '-' with integer offsets"},
  };
  for (const ErrorCase& c : cases) {
    auto t = binaryTyping(c.op, c.a, c.b);
    ASSERT_FALSE(t.ok()) << c.message;
    EXPECT_EQ(t.error(), c.message);
  }
}

TEST(TypeRules, PointerArithmetic) {
  struct PtrCase {
    BinaryOp op;
    Operand a;
    Operand b;
    DType pointee;
    DType offset;
    bool onRight;
  };
  const PtrCase cases[] = {
      {Add, P(FP32), T(I32), FP32, I32, false},
      {Add, T(I64), P(FP16), FP16, I64, true},
      {Add, P(FP16), Lint(1), FP16, I32, false},
      {Add, P(FP16), Lint(int64_t{1} << 40), FP16, I64, false},
      {Add, P(U8), T(U32), U8, I64, false},  // unsigned offsets are zero-extended to i64
      {Add, P(U8), T(U64), U8, U64, false},
      {Add, P(FP32), T(I1), FP32, I64, false},
      {BinaryOp::Sub, P(I32), T(I32), I32, I32, false},
  };
  for (const PtrCase& c : cases) {
    auto t = binaryTyping(c.op, c.a, c.b);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_TRUE(t->pointerArith);
    EXPECT_EQ(t->resultDType, c.pointee);
    EXPECT_EQ(dtypeName(t->offsetDType), dtypeName(c.offset));
    EXPECT_EQ(t->pointerOnRight, c.onRight);
  }
}

TEST(TypeRules, LiteralDTypes) {
  EXPECT_EQ(literalIntDType(0), I32);
  EXPECT_EQ(literalIntDType(-2147483648LL), I32);
  EXPECT_EQ(literalIntDType(2147483647LL), I32);
  EXPECT_EQ(literalIntDType(2147483648LL), U32);
  EXPECT_EQ(literalIntDType(4294967295LL), U32);
  EXPECT_EQ(literalIntDType(4294967296LL), I64);
  EXPECT_EQ(literalIntDType(-2147483649LL), I64);
  EXPECT_EQ(literalFloatDType(0.5), FP32);
  EXPECT_EQ(literalFloatDType(0.0), FP32);
  EXPECT_EQ(literalFloatDType(-1.0 / 0.0), FP32);
  EXPECT_EQ(literalFloatDType(1e-40), FP64);  // below fp32's smallest normal
  EXPECT_EQ(literalFloatDType(1e39), FP64);
}

TEST(TypeRules, WrapToDType) {
  EXPECT_EQ(wrapToDType(I8, 200), -56);
  EXPECT_EQ(wrapToDType(U8, -1), 255);
  EXPECT_EQ(wrapToDType(I1, 3), 1);
  EXPECT_EQ(wrapToDType(I32, int64_t{1} << 32), 0);
  EXPECT_EQ(wrapToDType(U32, -1), 4294967295LL);
  EXPECT_EQ(wrapToDType(I64, -5), -5);
  EXPECT_TRUE(fitsInDType(U8, 255));
  EXPECT_FALSE(fitsInDType(U8, 256));
  EXPECT_FALSE(fitsInDType(I8, -129));
  EXPECT_TRUE(fitsInDType(U64, INT64_MAX));
}

TEST(TypeRules, Broadcasting) {
  struct BroadcastCase {
    Shape a, b, out;
  };
  const BroadcastCase ok[] = {
      {{}, {}, {}},
      {{64}, {}, {64}},
      {{64, 1}, {1, 32}, {64, 32}},
      {{32}, {64, 32}, {64, 32}},
      {{64, 1}, {32}, {64, 32}},
      {{1}, {8}, {8}},
      {{2, 1, 4}, {3, 1}, {2, 3, 4}},
  };
  for (const auto& c : ok) {
    auto r = broadcastShapes(c.a, c.b);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(*r, c.out) << shapeString(c.a) << " " << shapeString(c.b);
  }
  auto bad = broadcastShapes({64}, {32});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "cannot broadcast shapes [64] and [32] (dimension 0: 64 vs 32)");
  auto bad2 = broadcastShapes({16, 64}, {32, 1});
  ASSERT_FALSE(bad2.ok());
  EXPECT_EQ(bad2.error(), "cannot broadcast shapes [16x64] and [32x1] (dimension 0: 16 vs 32)");
}

TEST(TypeRules, PowersOfTwoAndTileShapes) {
  EXPECT_TRUE(isPowerOf2(1));
  EXPECT_TRUE(isPowerOf2(1024));
  EXPECT_FALSE(isPowerOf2(0));
  EXPECT_FALSE(isPowerOf2(100));
  EXPECT_FALSE(isPowerOf2(-4));
  EXPECT_EQ(nextPowerOf2(100), 128);
  EXPECT_EQ(nextPowerOf2(128), 128);
  EXPECT_EQ(nextPowerOf2(0), 1);
  EXPECT_EQ(tileShapeError({64, 32}, "tl.zeros"), "");
  EXPECT_EQ(tileShapeError({64, 48}, "tl.zeros"),
            "tl.zeros shape [64x48] has a dimension that is not a power of 2 (48); round it up with "
            "triton.next_power_of_2 and mask the extra lanes");
  EXPECT_EQ(tileShapeError({2048, 1024}, "tl.full"),
            "tl.full shape [2048x1024] has 2097152 elements; Triton allows at most 1048576 per tensor");
}

TEST(TypeRules, ReductionShapesAndAxes) {
  EXPECT_EQ(reducedShape({64, 32}, 0, false), (Shape{32}));
  EXPECT_EQ(reducedShape({64, 32}, 1, false), (Shape{64}));
  EXPECT_EQ(reducedShape({64, 32}, 1, true), (Shape{64, 1}));
  EXPECT_EQ(reducedShape({64}, 0, false), (Shape{}));
  EXPECT_EQ(reducedShape({64, 32}, std::nullopt, false), (Shape{}));
  EXPECT_EQ(reducedShape({64, 32}, std::nullopt, true), (Shape{1, 1}));
  EXPECT_EQ(*normalizeAxis(-1, 2, "tl.sum"), 1);
  EXPECT_EQ(*normalizeAxis(0, 1, "tl.sum"), 0);
  auto bad = normalizeAxis(2, 2, "tl.max");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "tl.max axis 2 is out of range for a 2-D tensor (valid: -2 to 1)");
  EXPECT_FALSE(normalizeAxis(-3, 2, "tl.max").ok());
}

TEST(TypeRules, ReductionInputPromotion) {
  struct RedCase {
    ReduceOp op;
    DType in;
    std::optional<DType> out;
  };
  const RedCase cases[] = {
      {ReduceOp::Sum, I8, I32},      {ReduceOp::Sum, U16, U32},     {ReduceOp::Sum, I1, U32},
      {ReduceOp::Sum, I64, I64},     {ReduceOp::Sum, FP16, FP16},   {ReduceOp::Sum, BF16, BF16},
      {ReduceOp::Max, FP16, FP32},   {ReduceOp::Max, BF16, FP32},   {ReduceOp::Max, U8, I32},
      {ReduceOp::Min, FP32, FP32},   {ReduceOp::Min, I64, I64},     {ReduceOp::ArgMax, BF16, FP32},
      {ReduceOp::ArgMax, FP16, FP16}, {ReduceOp::XorSum, I32, I32}, {ReduceOp::XorSum, FP32, std::nullopt},
  };
  for (const RedCase& c : cases) EXPECT_EQ(reductionInputDType(c.op, c.in), c.out) << reduceOpName(c.op) << " " << dtypeName(c.in);
  EXPECT_EQ(scanInputDType(ScanOp::CumSum, I8), I32);
  EXPECT_EQ(scanInputDType(ScanOp::CumSum, BF16), FP32);
  EXPECT_EQ(scanInputDType(ScanOp::CumProd, FP16), FP16);
}

TEST(TypeRules, DotTyping) {
  auto tile = [](DType t, Shape s) { return Type::tile(t, std::move(s)); };
  struct DotCase {
    Type a, b;
    std::optional<Type> acc;
    std::optional<DType> out;
    DType result;
    Shape shape;
  };
  const DotCase ok[] = {
      {tile(FP16, {64, 32}), tile(FP16, {32, 16}), std::nullopt, std::nullopt, FP32, {64, 16}},
      {tile(FP16, {64, 32}), tile(FP16, {32, 16}), std::nullopt, FP16, FP16, {64, 16}},
      {tile(FP32, {16, 16}), tile(FP32, {16, 16}), tile(FP32, {16, 16}), std::nullopt, FP32, {16, 16}},
      {tile(FP32, {16, 16}), tile(FP32, {16, 16}), std::nullopt, FP16, FP32, {16, 16}},  // out_dtype ignored for fp32
      {tile(BF16, {16, 32}), tile(BF16, {32, 64}), std::nullopt, std::nullopt, FP32, {16, 64}},
      {tile(I8, {16, 32}), tile(I8, {32, 16}), std::nullopt, std::nullopt, I32, {16, 16}},
      {tile(FP64, {16, 16}), tile(FP64, {16, 16}), std::nullopt, std::nullopt, FP64, {16, 16}},
      {tile(FP8E5, {16, 32}), tile(FP8E4NV, {32, 16}), std::nullopt, std::nullopt, FP32, {16, 16}},
      {tile(FP16, {2, 16, 16}), tile(FP16, {2, 16, 32}), std::nullopt, std::nullopt, FP32, {2, 16, 32}},
  };
  for (const DotCase& c : ok) {
    auto r = dotTyping(c.a, c.b, c.acc, c.out);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->resultDType, c.result);
    EXPECT_EQ(r->resultShape, c.shape);
  }
  struct DotError {
    Type a, b;
    std::optional<Type> acc;
    std::optional<DType> out;
    const char* message;
  };
  const DotError bad[] = {
      {tile(FP16, {16, 32}), tile(FP16, {16, 16}), std::nullopt, std::nullopt,
       "tl.dot needs 2-D operands with matching K: got [16x32] @ [16x16]"},
      {tile(FP16, {16}), tile(FP16, {16, 16}), std::nullopt, std::nullopt,
       "tl.dot needs two 2-D (or two 3-D) operands; got [16] @ [16x16]"},
      {tile(FP16, {16, 16}), tile(FP32, {16, 16}), std::nullopt, std::nullopt,
       "tl.dot operands must have the same dtype (got fp16 and fp32); convert one with .to()"},
      {tile(FP16, {8, 16}), tile(FP16, {16, 16}), std::nullopt, std::nullopt,
       "tl.dot needs M >= 16, N >= 16 and K >= 16 (got M=8, N=16, K=16); use larger blocks"},
      {tile(I8, {16, 16}), tile(I8, {16, 16}), std::nullopt, std::nullopt,
       "tl.dot needs M >= 16, N >= 16 and K >= 32 (got M=16, N=16, K=16); use larger blocks"},
      {tile(I32, {16, 16}), tile(I32, {16, 16}), std::nullopt, std::nullopt,
       "tl.dot does not support i32 operands; use fp16, bf16, fp32, fp64, fp8 or i8"},
      {tile(FP16, {16, 16}), tile(FP16, {16, 16}), tile(FP16, {16, 16}), std::nullopt,
       "tl.dot accumulator is fp16 but the product is fp32; make the accumulator fp32 (or pass out_dtype)"},
      {tile(FP16, {16, 16}), tile(FP16, {16, 16}), tile(FP32, {32, 16}), std::nullopt,
       "tl.dot accumulator has shape [32x16] but the product is [16x16]"},
      {tile(FP16, {16, 16}), tile(FP16, {16, 16}), std::nullopt, BF16,
       "tl.dot out_dtype=bfloat16 is unsupported; use float32 or float16 and convert with .to(tl.bfloat16)"},
  };
  for (const DotError& c : bad) {
    auto r = dotTyping(c.a, c.b, c.acc, c.out);
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_EQ(r.error(), c.message);
  }
}

TEST(TypeRules, CastsAndMathDTypes) {
  EXPECT_EQ(castError(Type::scalar(FP32), I32, false, true), "");
  EXPECT_EQ(castError(Type::scalar(FP32), FP16, false, true),
            "cannot bitcast fp32 (32 bits) to fp16 (16 bits); a bitcast needs types of the same width");
  EXPECT_EQ(castError(Type::pointer(FP32), I64, false, false), "");
  EXPECT_EQ(castError(Type::pointer(FP32), I32, false, false), "a pointer can only be converted to i64 (or i1), not i32");
  EXPECT_EQ(castError(Type::pointer(FP32), FP16, true, false), "");
  EXPECT_EQ(castError(Type::scalar(FP8E5), I32, false, false),
            "cannot convert fp8e5 to i32 directly; go through fp32 (.to(tl.float32) first)");
  EXPECT_EQ(mathDTypeError(MathFn::Exp, FP32), "");
  EXPECT_EQ(mathDTypeError(MathFn::Exp, FP16), "tl.exp expects fp32 or fp64 (got fp16); convert first, e.g. x.to(tl.float32)");
  EXPECT_EQ(mathDTypeError(MathFn::SqrtRn, FP64), "tl.sqrt_rn expects fp32 (got fp64); convert first, e.g. x.to(tl.float32)");
  EXPECT_EQ(mathDTypeError(MathFn::Abs, I8), "");
  EXPECT_EQ(mathDTypeError(MathFn::Umulhi, I32), "");
  EXPECT_NE(mathDTypeError(MathFn::Umulhi, I16), "");
}
