// The ConvertLayout node (core/ir/Expr.h): what make() accepts and rejects, how it prints, and that
// the visitor and mutator reach through it.
#include <gtest/gtest.h>

#include "core/ir/IRMutator.h"
#include "core/ir/IRPrinter.h"
#include "core/ir/IRVisitor.h"
#include "core/base/Diagnostic.h"

using namespace tilescope::ir;

namespace {

TileLayout layout(LayoutKind kind, int warps = 4) {
  TileLayout l;
  l.kind = kind;
  l.warpsM = warps;
  return l;
}

Expr tile(DType t, Shape s) { return Splat::make(t == DType::FP32 ? FloatImm::make(t, 1) : IntImm::make(t, 1), std::move(s)); }
Expr halfTile(Shape s) { return Splat::make(FloatImm::make(DType::FP16, 1), std::move(s)); }

}  // namespace

TEST(ConvertLayout, KeepsTheValuesType) {
  const Expr x = tile(DType::FP32, {64, 32});
  const Expr c = ConvertLayout::make(x, layout(LayoutKind::Mma));
  EXPECT_EQ(c.type(), x.type());
  EXPECT_EQ(c.as<ConvertLayout>()->layout.kind, LayoutKind::Mma);
  EXPECT_TRUE(c.as<ConvertLayout>()->value.sameAs(x));
  EXPECT_FALSE(c.hasEffects());
  EXPECT_EQ(exprKindName(c.kind()), "ConvertLayout");
}

TEST(ConvertLayout, AcceptsLayoutsThatFitTheValue) {
  EXPECT_NO_THROW(ConvertLayout::make(tile(DType::FP32, {64}), layout(LayoutKind::RowSlice)));
  EXPECT_NO_THROW(ConvertLayout::make(halfTile({64, 32}), layout(LayoutKind::DotOperandA)));
  EXPECT_NO_THROW(ConvertLayout::make(halfTile({64, 32}), layout(LayoutKind::SharedOperand)));
  EXPECT_NO_THROW(ConvertLayout::make(tile(DType::I32, {3, 5, 7}), layout(LayoutKind::Blocked)));
  EXPECT_NO_THROW(ConvertLayout::make(Splat::make(ParamRef::make(0, "p", Type::pointer(DType::FP32)), {8}), layout(LayoutKind::Blocked)));
}

TEST(ConvertLayout, RejectsWhatNoLayoutHolds) {
  using tilescope::lang::InternalError;
  struct Case {
    const char* what;
    Expr value;
    TileLayout layout;
  };
  TileLayout unknown = layout(LayoutKind::Mma);
  unknown.kind = static_cast<LayoutKind>(77);
  TileLayout noWarps = layout(LayoutKind::Mma, 0);
  TileLayout oneStage = layout(LayoutKind::SharedOperand);
  oneStage.stages = 1;
  const Case cases[] = {
      {"undefined value", Expr(), layout(LayoutKind::Mma)},
      {"scalar", FloatImm::make(DType::FP32, 1), layout(LayoutKind::Blocked)},
      {"unknown kind", tile(DType::FP32, {64, 32}), unknown},
      {"no warps", tile(DType::FP32, {64, 32}), noWarps},
      {"mma of a row", tile(DType::FP32, {64}), layout(LayoutKind::Mma)},
      {"slice of a 2-D tile", tile(DType::FP32, {64, 32}), layout(LayoutKind::RowSlice)},
      {"dot operand of fp32", tile(DType::FP32, {64, 32}), layout(LayoutKind::DotOperandA)},
      {"shared ring of one stage", halfTile({64, 32}), oneStage},
      {"pointers in registers", Splat::make(ParamRef::make(0, "p", Type::pointer(DType::FP32)), {64, 32}), layout(LayoutKind::Mma)},
  };
  for (const Case& c : cases) EXPECT_THROW(ConvertLayout::make(c.value, c.layout), InternalError) << c.what;
}

TEST(ConvertLayout, PrintsItsTargetLayout) {
  const Expr c = ConvertLayout::make(tile(DType::FP32, {64, 32}), layout(LayoutKind::Mma));
  EXPECT_EQ(IRPrinter().print(c),
            "%0 = splat 1.0:fp32 : tensor<64x32xfp32>\n"
            "result = convert_layout %0, #mma<m16n8k16, warps=4x1> : tensor<64x32xfp32>\n");
  EXPECT_EQ(layout(LayoutKind::Blocked).str(), "#blocked");
}

TEST(ConvertLayout, VisitorAndMutatorReachItsValue) {
  const VarPtr x = Var::make("x", 0, Type::tile(DType::FP32, {64}), {});
  const Expr c = ConvertLayout::make(VarRef::make(x), layout(LayoutKind::RowSlice));
  struct Refs : IRVisitor {
    int n = 0;
    void visitVarRef(const VarRef&) override { ++n; }
  } refs;
  refs.visitExpr(c);
  EXPECT_EQ(refs.n, 1);

  EXPECT_TRUE(IRMutator().mutateExpr(c).sameAs(c));  // nothing changed: the same node
  const VarPtr y = Var::make("y", 1, x->type, {});
  struct Rename : IRMutator {
    VarPtr to;
    Expr mutateVarRef(const VarRef&, const Expr&) override { return VarRef::make(to); }
  } rename;
  rename.to = y;
  const Expr renamed = rename.mutateExpr(c);
  ASSERT_FALSE(renamed.sameAs(c));
  EXPECT_EQ(renamed.as<ConvertLayout>()->value.as<VarRef>()->var, y);
  EXPECT_EQ(renamed.as<ConvertLayout>()->layout.kind, LayoutKind::RowSlice);
}
