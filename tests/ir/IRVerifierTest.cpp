// The verifier accepts well-formed kernels and reports each broken invariant (must-fail cases are
// built from raw nodes, bypassing the make() checks, as a buggy pass would).
#include <gtest/gtest.h>

#include "core/ir/IRVerifier.h"
#include "core/base/Diagnostic.h"
#include "IRTestKernels.h"

using namespace tilescope::ir;

namespace {

template <class T>
std::shared_ptr<T> raw(Type t) {
  auto n = std::make_shared<T>();
  n->type = std::move(t);
  return n;
}

const Type kI32 = Type::scalar(DType::I32);
const Type kTile = Type::tile(DType::FP32, {4});
const Type kPtrTile = Type::pointerTile(DType::FP32, {4});

Kernel kernelWith(Stmt body, int varCount = 16) {
  Kernel k;
  k.name = "k";
  k.params = {{"p", Type::pointer(DType::FP32), false, {}, false, {}},
              {"n", kI32, false, {}, false, {}},
              {"B", Type{}, true, Constant(int64_t{4}), false, {}}};
  k.body = std::move(body);
  k.varCount = varCount;
  return k;
}

Expr ptrTile() { return Splat::make(ParamRef::make(0, "p", Type::pointer(DType::FP32)), {4}); }
Expr zeros() { return Splat::make(FloatImm::make(DType::FP32, 0), {4}); }

// Expects exactly one problem containing `needle`.
void expectProblem(const Kernel& k, const std::string& needle) {
  const auto problems = IRVerifier::verify(k);
  ASSERT_EQ(problems.size(), 1u) << (problems.empty() ? "no problems" : problems[0]);
  EXPECT_NE(problems[0].find(needle), std::string::npos) << problems[0];
  EXPECT_THROW(IRVerifier::verifyOrThrow(k, "test"), tilescope::lang::InternalError);
}

}  // namespace

TEST(IRVerifier, AcceptsWellFormedKernels) {
  EXPECT_EQ(IRVerifier::verify(test::makeAddKernel()), std::vector<std::string>{});
  EXPECT_EQ(IRVerifier::verify(test::makeLoopKernel()), std::vector<std::string>{});
  EXPECT_NO_THROW(IRVerifier::verifyOrThrow(test::makeAddKernel(), "test"));
}

TEST(IRVerifier, RejectsBinaryWithDifferentOperandTypes) {
  auto b = raw<Binary>(kTile);
  b->op = BinaryOp::Add;
  b->a = zeros();
  b->b = Splat::make(IntImm::make(DType::I32, 1), {4});
  expectProblem(kernelWith(Let::make(Var::make("x", 0, kTile, {}), Expr(b))), "operand types differ");
}

TEST(IRVerifier, RejectsANodeWhoseTypeLies) {
  auto imm = raw<IntImm>(Type::scalar(DType::FP32));
  expectProblem(kernelWith(Let::make(Var::make("x", 0, Type::scalar(DType::FP32), {}), Expr(imm))), "is not an integer");
  auto add = raw<Binary>(Type::tile(DType::FP32, {8}));  // operands are [4]
  add->a = zeros();
  add->b = zeros();
  expectProblem(kernelWith(Let::make(Var::make("x", 0, add->type, {}), Expr(add))), "but its operands give tensor<4xfp32>");
}

TEST(IRVerifier, RejectsLoadsOutsideLet) {
  Expr load = Load::make(ptrTile());
  Expr sum = Binary::make(BinaryOp::Add, load, zeros());
  expectProblem(kernelWith(Let::make(Var::make("x", 0, kTile, {}), sum)), "Load has memory effects but is not the value of a Let");
  auto store = std::make_shared<Store>();
  store->ptr = ptrTile();
  store->value = Load::make(ptrTile());
  expectProblem(kernelWith(Stmt(store)), "Load has memory effects");
}

TEST(IRVerifier, RejectsUseBeforeDefinition) {
  auto x = Var::make("x", 0, kI32, {});
  auto y = Var::make("y", 1, kI32, {});
  expectProblem(kernelWith(Seq::make({Let::make(y, VarRef::make(x)), Let::make(x, IntImm::make(DType::I32, 1))})),
                "var 'x' is used where it is not defined");
}

TEST(IRVerifier, RejectsUseOutsideTheDefiningBranch) {
  auto x = Var::make("x", 0, kI32, {});
  auto y = Var::make("y", 1, kI32, {});
  Expr cond = Binary::make(BinaryOp::Lt, ParamRef::make(1, "n", kI32), IntImm::make(DType::I32, 3));
  expectProblem(kernelWith(Seq::make({If::make(cond, Let::make(x, IntImm::make(DType::I32, 1))), Let::make(y, VarRef::make(x))})),
                "var 'x' is used where it is not defined");
}

TEST(IRVerifier, RejectsVarIntroducedTwice) {
  auto x = Var::make("x", 0, kI32, {});
  expectProblem(kernelWith(Seq::make({Let::make(x, IntImm::make(DType::I32, 1)), Let::make(x, IntImm::make(DType::I32, 2))})),
                "introduced twice");
}

TEST(IRVerifier, RejectsDuplicateVarIds) {
  auto x = Var::make("x", 3, kI32, {});
  auto y = Var::make("y", 3, kI32, {});
  expectProblem(kernelWith(Seq::make({Let::make(x, IntImm::make(DType::I32, 1)), Let::make(y, IntImm::make(DType::I32, 2))})),
                "share id 3");
}

TEST(IRVerifier, RejectsAssignToImmutableVar) {
  auto x = Var::make("x", 0, kI32, {});
  auto assign = std::make_shared<Assign>();
  assign->var = x;
  assign->value = IntImm::make(DType::I32, 2);
  expectProblem(kernelWith(Seq::make({Let::make(x, IntImm::make(DType::I32, 1)), Stmt(assign)})), "assign to immutable var 'x'");
}

TEST(IRVerifier, RejectsAssignThatChangesTheType) {
  auto x = Var::make("acc", 0, kI32, {}, true);
  auto assign = std::make_shared<Assign>();
  assign->var = x;
  assign->value = FloatImm::make(DType::FP32, 2);
  expectProblem(kernelWith(Seq::make({Let::make(x, IntImm::make(DType::I32, 1)), Stmt(assign)})),
                "assign to 'acc' of type i32 changes it to fp32");
}

TEST(IRVerifier, RejectsStoreOfTheWrongShape) {
  auto store = std::make_shared<Store>();
  store->ptr = ptrTile();
  store->value = Splat::make(FloatImm::make(DType::FP32, 0), {8});
  expectProblem(kernelWith(Stmt(store)), "store value tensor<8xfp32> does not match pointer tensor<4x!ptr<fp32>>");
}

TEST(IRVerifier, RejectsMaskOfTheWrongShape) {
  auto store = std::make_shared<Store>();
  store->ptr = ptrTile();
  store->value = zeros();
  store->mask = Splat::make(IntImm::make(DType::I1, 1), {2});
  expectProblem(kernelWith(Stmt(store)), "store mask tensor<2xi1> does not match pointer");
  auto load = raw<Load>(kTile);
  load->ptr = ptrTile();
  load->mask = Splat::make(IntImm::make(DType::I32, 1), {4});
  expectProblem(kernelWith(Let::make(Var::make("x", 0, kTile, {}), Expr(load))), "mask type tensor<4xi32>");
}

TEST(IRVerifier, RejectsTileIfCondition) {
  auto branch = std::make_shared<If>();
  branch->cond = Splat::make(IntImm::make(DType::I1, 1), {4});
  branch->thenBody = Barrier::make();
  expectProblem(kernelWith(Stmt(branch)), "if condition is tensor<4xi1>, not i1");
}

TEST(IRVerifier, RejectsLoopBoundsOfAnotherType) {
  auto loop = std::make_shared<For>();
  loop->iv = Var::make("i", 0, kI32, {});
  loop->start = IntImm::make(DType::I32, 0);
  loop->end = IntImm::make(DType::I64, 10);
  loop->step = IntImm::make(DType::I32, 1);
  loop->body = Barrier::make();
  expectProblem(kernelWith(Stmt(loop)), "loop bound i64 differs from loop variable i32");
}

TEST(IRVerifier, RejectsImmutableWhileCondition) {
  auto c = Var::make("c", 0, Type::scalar(DType::I1), {});
  auto loop = std::make_shared<While>();
  loop->cond = c;
  loop->body = Barrier::make();
  expectProblem(kernelWith(Seq::make({Let::make(c, IntImm::make(DType::I1, 0)), Stmt(loop)})), "must be a mutable i1 var");
}

TEST(IRVerifier, RejectsBadParameterReferences) {
  auto ref = raw<ParamRef>(kI32);
  ref->index = 2;
  ref->name = "B";
  expectProblem(kernelWith(Let::make(Var::make("x", 0, kI32, {}), Expr(ref))), "ParamRef to constexpr parameter 'B'");
  auto wrong = raw<ParamRef>(Type::scalar(DType::I64));
  wrong->index = 1;
  wrong->name = "n";
  expectProblem(kernelWith(Let::make(Var::make("x", 0, wrong->type, {}), Expr(wrong))), "has type i64 but its operands give i32");
}

TEST(IRVerifier, RejectsReturnInsideALoop) {
  Stmt loop = For::make(Var::make("i", 0, kI32, {}), IntImm::make(DType::I32, 0), IntImm::make(DType::I32, 4),
                        IntImm::make(DType::I32, 1), Return::make());
  expectProblem(kernelWith(loop), "return inside a loop");
}

TEST(IRVerifier, RejectsVarIdsOutsideTheKernelCount) {
  expectProblem(kernelWith(Let::make(Var::make("x", 7, kI32, {}), IntImm::make(DType::I32, 1)), 2), "outside 0..1");
}

// A general combine (tl.reduce with a jit combine function): its params are visible in its results
// only, so two outputs of one tuple may share them; a result reading any other var is reported.
TEST(IRVerifier, CombineParamsAreScopedToTheCombine) {
  const Type f32 = Type::scalar(DType::FP32);
  VarPtr acc = Var::make("acc", 1, f32, {});
  VarPtr x = Var::make("x", 2, f32, {});
  const Expr input = zeros();
  const Expr sum = Binary::make(BinaryOp::Add, VarRef::make(acc), VarRef::make(x));
  const Expr r0 = Combine::make({input}, {acc, x}, {sum}, 0, false, 0, false, false);
  const Expr s0 = Combine::make({input}, {acc, x}, {sum}, 0, true, 0, false, true);
  const Stmt ok = Seq::make({Let::make(Var::make("r", 3, f32, {}), r0), Let::make(Var::make("s", 4, kTile, {}), s0)});
  EXPECT_EQ(IRVerifier::verify(kernelWith(ok)), std::vector<std::string>{});

  VarPtr outside = Var::make("outside", 5, f32, {});
  const Expr leak = Combine::make({input}, {acc, x}, {Binary::make(BinaryOp::Add, VarRef::make(acc), VarRef::make(outside))}, 0,
                                  false, 0, false, false);
  expectProblem(kernelWith(Let::make(Var::make("r", 3, f32, {}), leak)), "var 'outside' is used where it is not defined");
}

// A pass that builds a ConvertLayout by hand (bypassing make()) is caught: the type must be the
// value's, and the layout one that exists and fits the value.
TEST(IRVerifier, RejectsConversionsThatChangeTheTypeOrNameNoLayout) {
  auto wrongType = raw<ConvertLayout>(Type::tile(DType::FP32, {8}));
  wrongType->value = zeros();
  wrongType->layout.kind = LayoutKind::Blocked;
  expectProblem(kernelWith(Let::make(Var::make("x", 0, wrongType->type, {}), Expr(wrongType))),
                "ConvertLayout has type tensor<8xfp32> but its operands give tensor<4xfp32>");

  auto unknown = raw<ConvertLayout>(kTile);
  unknown->value = zeros();
  unknown->layout.kind = static_cast<LayoutKind>(42);
  expectProblem(kernelWith(Let::make(Var::make("x", 0, kTile, {}), Expr(unknown))), "unknown layout kind 42");

  auto misfit = raw<ConvertLayout>(kTile);
  misfit->value = zeros();
  misfit->layout.kind = LayoutKind::Mma;
  expectProblem(kernelWith(Let::make(Var::make("x", 0, kTile, {}), Expr(misfit))), "is a layout of 2-D tiles");

  auto ofScalar = raw<ConvertLayout>(kI32);
  ofScalar->value = IntImm::make(DType::I32, 3);
  ofScalar->layout.kind = LayoutKind::Blocked;
  expectProblem(kernelWith(Let::make(Var::make("x", 0, kI32, {}), Expr(ofScalar))), "layouts are of tiles");
}

TEST(IRVerifier, RejectsAConvertedVarListedInAnotherLayout) {
  // The kernel's blocked layout for x's shape (one element per thread), as assign-blocked-layouts
  // would list it.
  TileLayout blocked;
  blocked.kind = LayoutKind::Blocked;
  VarPtr x = Var::make("x", 0, kTile, {});
  Kernel k = kernelWith(Let::make(x, ConvertLayout::make(zeros(), blocked)));
  blocked.threads = k.options.numWarps * 32;
  blocked.slotsPerThread = 1;
  blocked.order = {0};
  k = kernelWith(Let::make(x, ConvertLayout::make(zeros(), blocked)));
  k.blockedVectorWidths[kTile.numel()] = 1;
  EXPECT_EQ(IRVerifier::verify(k), std::vector<std::string>{});  // not listed: fine
  k.layouts[0] = blocked;
  EXPECT_EQ(IRVerifier::verify(k), std::vector<std::string>{});  // listed as what it converts to
  TileLayout slice;
  slice.kind = LayoutKind::RowSlice;
  k.layouts[0] = slice;
  expectProblem(k, "let 'x' is listed in layout #slice<dim=1, #mma<m16n8k16, warps=1x1>> but converts to #blocked");
}
