#include <gtest/gtest.h>

#include <set>

#include "core/ir/IRMutator.h"
#include "core/ir/IRVerifier.h"
#include "core/ir/IRVisitor.h"
#include "core/base/Diagnostic.h"
#include "IRTestKernels.h"

using namespace tilescope::ir;

namespace {

// Replaces every i32 constant c by c * factor.
class ScaleInts : public IRMutator {
public:
  explicit ScaleInts(int64_t f) : factor_(f) {}

protected:
  Expr mutateIntImm(const IntImm& n, const Expr& self) override {
    if (n.type.dtype() != DType::I32) return self;
    return IntImm::make(DType::I32, n.value * factor_, n.range);
  }

private:
  int64_t factor_;
};

// Turns every fp32 constant into an fp16 one: produces ill-typed operands.
class BreakTypes : public IRMutator {
protected:
  Expr mutateFloatImm(const FloatImm& n, const Expr&) override { return FloatImm::make(DType::FP16, n.value); }
};

class CountNodes : public IRVisitor {
public:
  int exprs = 0, loads = 0, stmts = 0;
  void visitExpr(const Expr& e) override {
    if (e) ++exprs;
    IRVisitor::visitExpr(e);
  }
  void visitStmt(const Stmt& s) override {
    if (s) ++stmts;
    IRVisitor::visitStmt(s);
  }

protected:
  void visitLoad(const Load& n) override {
    ++loads;
    IRVisitor::visitLoad(n);
  }
};

}  // namespace

TEST(IRMutator, IdentityReturnsTheSameTree) {
  const Kernel k = test::makeAddKernel();
  IRMutator identity;
  EXPECT_TRUE(identity.mutateStmt(k.body).sameAs(k.body));
  const Kernel loops = test::makeLoopKernel();
  EXPECT_TRUE(identity.mutateStmt(loops.body).sameAs(loops.body));
  const Kernel copy = identity.mutateKernel(k);
  EXPECT_TRUE(copy.body.sameAs(k.body));
  EXPECT_EQ(copy.params.size(), k.params.size());
  // A real rewrite rebuilds only the statements on the path to a changed node.
  ScaleInts scale(3);
  Stmt scaled = scale.mutateStmt(k.body);
  ASSERT_FALSE(scaled.sameAs(k.body));
  const auto& before = k.body.as<Seq>()->stmts;
  const auto& after = scaled.as<Seq>()->stmts;
  ASSERT_EQ(before.size(), after.size());
  EXPECT_TRUE(after[0].sameAs(before[0]));   // let pid = program_id 0: no ints inside
  EXPECT_FALSE(after[1].sameAs(before[1]));  // offs = pid * 4 + arange: the 4 changed
  EXPECT_TRUE(after[3].sameAs(before[3]));   // the load has no i32 constants
  Kernel mutated = k;
  mutated.body = scaled;
  EXPECT_NE(mutated.dump().find("mul pid, 12:i32"), std::string::npos) << mutated.dump();
  EXPECT_NO_THROW(IRVerifier::verifyOrThrow(mutated, "ScaleInts"));
}

// A pass after the GPU pipeline's layout pass rewrites the body and keeps its tables.
TEST(IRMutator, MutateKernelKeepsTheKernelsTables) {
  Kernel k = test::makeAddKernel();
  k.registerLoops.insert(7);
  TileLayout l;
  l.kind = LayoutKind::RowSlice;
  k.layouts[3] = l;
  ScaleInts scale(3);
  const Kernel out = scale.mutateKernel(k);
  ASSERT_FALSE(out.body.sameAs(k.body));
  EXPECT_EQ(out.registerLoops, std::set<int>{7});
  ASSERT_EQ(out.layouts.size(), 1u);
  EXPECT_EQ(out.layouts.at(3).kind, LayoutKind::RowSlice);
  EXPECT_EQ(out.varCount, k.varCount);
  EXPECT_EQ(out.name, k.name);
}

TEST(IRMutator, RebuildingAnIllTypedNodeThrows) {
  const Kernel k = test::makeAddKernel();
  BreakTypes breaker;
  EXPECT_THROW(breaker.mutateStmt(k.body), tilescope::lang::InternalError);
}

TEST(IRVisitor, VisitsEveryNodeOnce) {
  CountNodes count;
  count.visitKernel(test::makeAddKernel());
  EXPECT_EQ(count.loads, 1);
  EXPECT_EQ(count.stmts, 6);   // Seq + 4 lets + store
  EXPECT_EQ(count.exprs, 28);  // nodes of all expression trees, counted per occurrence
}
