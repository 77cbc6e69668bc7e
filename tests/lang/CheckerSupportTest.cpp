// The checker's small building blocks: constexpr folding with Python semantics, suggestions,
// values and scopes.
#include <gtest/gtest.h>

#include <cmath>

#include "core/kernel/ConstValue.h"
#include "core/kernel/Scope.h"
#include "core/base/Suggest.h"

using namespace tilescope::lang;

namespace {

ConstValue I(int64_t v) { return ConstValue::integer(v); }
ConstValue F(double v) { return ConstValue::floating(v); }
ConstValue B(bool v) { return ConstValue::boolean(v); }

ConstValue fold(ConstOp op, const ConstValue& a, const ConstValue& b) {
  std::string err;
  auto v = foldBinary(op, a, b, err);
  EXPECT_TRUE(v.has_value()) << err;
  return v.value_or(ConstValue::none());
}

std::string foldError(ConstOp op, const ConstValue& a, const ConstValue& b) {
  std::string err;
  EXPECT_FALSE(foldBinary(op, a, b, err).has_value());
  return err;
}

}  // namespace

TEST(CheckerConstValue, ArithmeticFollowsPython) {
  struct Case {
    ConstOp op;
    ConstValue a, b, expected;
  };
  const Case cases[] = {
      {ConstOp::FloorDiv, I(-7), I(2), I(-4)},  {ConstOp::Mod, I(-7), I(2), I(1)},    {ConstOp::Mod, I(7), I(-2), I(-1)},
      {ConstOp::FloorDiv, I(7), I(-2), I(-4)},  {ConstOp::TrueDiv, I(7), I(2), F(3.5)}, {ConstOp::TrueDiv, I(4), I(2), F(2.0)},
      {ConstOp::Pow, I(2), I(10), I(1024)},     {ConstOp::Pow, I(2), I(-1), F(0.5)},  {ConstOp::Pow, I(-1), I(7), I(-1)},
      {ConstOp::Mod, F(-7.5), F(2.0), F(0.5)},  {ConstOp::FloorDiv, F(7.5), I(2), F(3.0)}, {ConstOp::Add, B(true), B(true), I(2)},
      {ConstOp::BitAnd, B(true), B(false), B(false)}, {ConstOp::BitOr, I(12), I(3), I(15)}, {ConstOp::LShift, I(1), I(10), I(1024)},
      {ConstOp::RShift, I(-8), I(1), I(-4)},    {ConstOp::Mul, I(3), F(0.5), F(1.5)},
      // CPython's float floor division, not floor(a / b) (which gives 10.0 here).
      {ConstOp::FloorDiv, F(1.0), F(0.1), F(9.0)}, {ConstOp::Mod, F(1.0), F(0.1), F(0.09999999999999995)},
      {ConstOp::Mod, I(INT64_MIN), I(-1), I(0)},
  };
  for (const Case& c : cases) {
    const ConstValue got = fold(c.op, c.a, c.b);
    EXPECT_EQ(got.typeName(), c.expected.typeName()) << c.a.repr() << " op " << c.b.repr();
    EXPECT_EQ(got, c.expected) << c.a.repr() << " op " << c.b.repr() << " = " << got.repr();
  }
  EXPECT_EQ(fold(ConstOp::Add, ConstValue::string("ab"), ConstValue::string("c")).asString(), "abc");
  EXPECT_EQ(foldError(ConstOp::FloorDiv, I(1), I(0)), "integer division by zero in a constexpr expression");
  EXPECT_EQ(foldError(ConstOp::TrueDiv, F(1), I(0)), "division by zero in a constexpr expression");
  EXPECT_EQ(foldError(ConstOp::Mul, I(INT64_MAX), I(2)),
            "integer overflow in a constexpr expression (tilescope folds constexpr ints in 64 bits)");
  EXPECT_EQ(foldError(ConstOp::Add, ConstValue::string("a"), I(1)), "unsupported operand types for +: 'str' and 'int'");
  EXPECT_EQ(foldError(ConstOp::BitAnd, F(1.0), I(1)), "unsupported operand types for &: 'float' and 'int'");
}

TEST(CheckerConstValue, ComparisonsReprAndTruthiness) {
  std::string err;
  EXPECT_TRUE(foldCompare(ConstCmp::Lt, I(1), F(1.5), err)->asBool());
  EXPECT_TRUE(foldCompare(ConstCmp::Eq, I(1), B(true), err)->asBool());
  EXPECT_FALSE(foldCompare(ConstCmp::Lt, F(NAN), F(1), err)->asBool());
  EXPECT_FALSE(foldCompare(ConstCmp::Lt, ConstValue::none(), I(1), err).has_value());
  EXPECT_EQ(err, "'<' not supported between 'NoneType' and 'int'");
  EXPECT_EQ(I(3).repr(), "3");
  EXPECT_EQ(F(0.1).repr(), "0.1");
  EXPECT_EQ(F(2).repr(), "2.0");
  EXPECT_EQ(F(-INFINITY).repr(), "-inf");
  EXPECT_EQ(B(false).repr(), "False");
  EXPECT_EQ(ConstValue::string("it's").repr(), "'it\\'s'");
  EXPECT_EQ(ConstValue::dtype(tilescope::ir::DType::FP16).repr(), "triton.language.float16");
  EXPECT_EQ(ConstValue::dtype(tilescope::ir::DType::FP16, true).str(), "pointer<fp16>");
  EXPECT_FALSE(ConstValue::none().truthy());
  EXPECT_FALSE(F(0.0).truthy());
  EXPECT_TRUE(ConstValue::string("x").truthy());
  std::string e2;
  EXPECT_EQ(foldUnary(ConstUnary::Neg, B(true), e2)->asInt(), -1);
  EXPECT_EQ(foldUnary(ConstUnary::Invert, I(5), e2)->asInt(), -6);
  EXPECT_TRUE(foldUnary(ConstUnary::Not, I(0), e2)->asBool());
}

TEST(CheckerSuggest, FindsCloseNamesOnly) {
  EXPECT_EQ(editDistance("arange", "arnge"), 1);
  EXPECT_EQ(editDistance("arange", "aragne"), 1);  // a transposition is one edit
  EXPECT_EQ(editDistance("", "abc"), 3);
  const std::vector<std::string> names = {"arange", "load", "store", "program_id", "num_programs"};
  EXPECT_EQ(closestMatch("arnge", names), "arange");
  EXPECT_EQ(closestMatch("progam_id", names), "program_id");
  EXPECT_EQ(closestMatch("Load", names), "load");
  EXPECT_EQ(closestMatch("xyz", names), std::nullopt);
  EXPECT_EQ(closestMatch("load", names), std::nullopt);  // an exact name is not a suggestion
}

TEST(CheckerScope, BindsAndCopiesIndependently) {
  Scope a;
  a.bind("x", Value::ofConst(I(1)), {});
  a.bind("B", Value::ofConst(I(16)), {}, true);
  Scope b = a;
  b.bind("x", Value::ofConst(I(2)), {});
  EXPECT_EQ(a.find("x")->value.constant.asInt(), 1);
  EXPECT_EQ(b.find("x")->value.constant.asInt(), 2);
  EXPECT_TRUE(b.find("B")->isConstexpr);
  EXPECT_EQ(b.find("y"), nullptr);
  EXPECT_EQ(a.names(), (std::vector<std::string>{"B", "x"}));
  EXPECT_TRUE(Value::ofConst(I(1)).sameAs(Value::ofConst(I(1))));
  EXPECT_FALSE(Value::ofConst(I(1)).sameAs(Value::ofConst(F(1.0))));
  EXPECT_TRUE(Value::ofTuple({Value::ofConst(I(1))}).isConstTree());
}
