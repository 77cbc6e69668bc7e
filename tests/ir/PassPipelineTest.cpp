// The IR pass layer (core/ir/passes): each pass on small hand-built kernels, the verifier run after a
// pass (a pass that breaks an invariant is an InternalError naming it), and the pipeline's order as
// the observer sees it.
#include <gtest/gtest.h>

#include <functional>

#include "core/base/Diagnostic.h"
#include "core/ir/IRVerifier.h"
#include "core/ir/passes/ConstantFolding.h"
#include "core/ir/passes/DeadLetElimination.h"
#include "core/ir/passes/DotAccumulatorFusion.h"
#include "core/ir/passes/IRDumpObserver.h"
#include "core/ir/passes/Pass.h"
#include "IRTestKernels.h"

using namespace tilescope::ir;
using namespace tilescope::ir::passes;

namespace {

// kernel k(%n: i32, %p: ptr<fp32>) with the given body; vars get ids in order of `vars`.
Kernel kernelWith(std::vector<Stmt> body, int varCount) {
  Kernel k;
  k.name = "k";
  k.params = {{"n", Type::scalar(DType::I32), false, {}, false, {}}, {"p", Type::pointer(DType::FP32), false, {}, false, {}}};
  k.body = Seq::make(std::move(body));
  k.varCount = varCount;
  return k;
}

Expr n() { return ParamRef::make(0, "n", Type::scalar(DType::I32)); }
Expr p() { return ParamRef::make(1, "p", Type::pointer(DType::FP32)); }
Expr i32(int64_t v) { return IntImm::make(DType::I32, v); }

}  // namespace

TEST(ConstantFolding, FoldsIntegerConstantsAndIdentities) {
  const Shape s{4};
  auto a = Var::make("a", 0, Type::scalar(DType::I32), {});
  auto b = Var::make("b", 1, Type::scalar(DType::I32), {});
  auto ptrs = Var::make("ptrs", 2, Type::pointerTile(DType::FP32, s), {});
  auto offs = Var::make("offs", 3, Type::tile(DType::I32, s), {});
  const Kernel k = kernelWith(
      {Let::make(a, Binary::make(BinaryOp::Add, Binary::make(BinaryOp::Mul, n(), i32(1)), i32(0))),
       Let::make(b, Binary::make(BinaryOp::Mul, i32(6), Binary::make(BinaryOp::Sub, i32(9), i32(2)))),
       Let::make(offs, Binary::make(BinaryOp::Mul, Splat::make(i32(1), s), Arange::make(0, 4))),
       Let::make(ptrs, Binary::make(BinaryOp::Add, Splat::make(p(), s), Binary::make(BinaryOp::Add, VarRef::make(offs), Splat::make(i32(0), s)))),
       Store::make(VarRef::make(ptrs), Splat::make(FloatImm::make(DType::FP32, 1.0), s), {}),
       Store::make(Splat::make(p(), s), Splat::make(Cast::make(Binary::make(BinaryOp::Add, VarRef::make(a), VarRef::make(b)), DType::FP32), s))},
      4);
  const Kernel folded = foldConstants(k);
  IRVerifier::verifyOrThrow(folded, "fold-constants");
  EXPECT_EQ(folded.dump(),
            "kernel k(%n: i32, %p: ptr<fp32>) {\n"
            "  let a: i32 = %n\n"
            "  let b: i32 = 42:i32\n"
            "  let offs: tensor<4xi32> = arange 0, 4\n"
            "  %0 = splat %p : tensor<4x!ptr<fp32>>\n"
            "  let ptrs: tensor<4x!ptr<fp32>> = add %0, offs\n"
            "  %1 = splat 1.0:fp32 : tensor<4xfp32>\n"
            "  store ptrs, %1\n"
            "  %2 = splat %p : tensor<4x!ptr<fp32>>\n"
            "  %3 = add a, b : i32\n"
            "  %4 = cast %3 : fp32\n"
            "  %5 = splat %4 : tensor<4xfp32>\n"
            "  store %2, %5\n"
            "}\n");
}

TEST(ConstantFolding, WrapsAtTheDTypesWidthAndLeavesFloatsAndKernelsWithoutWorkAlone) {
  auto a = Var::make("a", 0, Type::scalar(DType::I32), {});
  auto x = Var::make("x", 1, Type::scalar(DType::FP32), {});
  const Kernel k = kernelWith({Let::make(a, Binary::make(BinaryOp::Add, i32(2147483647), i32(1))),
                               Let::make(x, Binary::make(BinaryOp::Add, FloatImm::make(DType::FP32, 0.0),
                                                         Cast::make(VarRef::make(a), DType::FP32)))},
                              2);
  const Kernel folded = foldConstants(k);
  const auto* seq = folded.body.as<Seq>();
  ASSERT_NE(seq, nullptr);
  const auto* wrapped = seq->stmts[0].as<Let>()->value.as<IntImm>();
  ASSERT_NE(wrapped, nullptr);
  EXPECT_EQ(wrapped->value, -2147483648LL);
  // 0.0 + x is not x for x = -0.0: the float add stays.
  EXPECT_NE(seq->stmts[1].as<Let>()->value.as<Binary>(), nullptr);

  const Kernel add = test::makeAddKernel();  // nothing to fold: the same body object comes back
  EXPECT_TRUE(foldConstants(add).body.sameAs(add.body));
}

TEST(DeadLetElimination, RemovesUnreadPureLetsTransitivelyAndKeepsLoadsAndMutableVars) {
  const Shape s{4};
  auto offs = Var::make("offs", 0, Type::tile(DType::I32, s), {});
  auto total = Var::make("total", 1, Type::scalar(DType::I32), {});  // read only by `twice`
  auto twice = Var::make("twice", 2, Type::scalar(DType::I32), {});  // read by nobody
  auto loaded = Var::make("loaded", 3, Type::tile(DType::FP32, s), {});  // unread, but a load
  auto acc = Var::make("acc", 4, Type::scalar(DType::I32), {}, true);    // only assigned
  const Kernel k = kernelWith(
      {Let::make(offs, Arange::make(0, 4)),
       Let::make(total, Reduce::make(ReduceOp::Sum, VarRef::make(offs), std::nullopt)),
       Let::make(twice, Binary::make(BinaryOp::Mul, VarRef::make(total), i32(2))),
       Let::make(loaded, Load::make(Binary::make(BinaryOp::Add, Splat::make(p(), s), VarRef::make(offs)))),
       Let::make(acc, i32(0)), Assign::make(acc, n())},
      5);
  const Kernel out = eliminateDeadLets(k);
  IRVerifier::verifyOrThrow(out, "eliminate-dead-lets");
  EXPECT_EQ(out.dump(),
            "kernel k(%n: i32, %p: ptr<fp32>) {\n"
            "  let offs: tensor<4xi32> = arange 0, 4\n"
            "  %0 = splat %p : tensor<4x!ptr<fp32>>\n"
            "  %1 = add %0, offs : tensor<4x!ptr<fp32>>\n"
            "  let loaded: tensor<4xfp32> = load %1\n"
            "  var acc: i32 = 0:i32\n"
            "  assign acc = %n\n"
            "}\n");
  const Kernel add = test::makeAddKernel();  // every Let is read
  EXPECT_TRUE(eliminateDeadLets(add).body.sameAs(add.body));
}

namespace {

// kernel k(%n: i32, %p: ptr<fp32>) { var acc: tensor<16x16xfp32> = 0; a, b: fp16 tiles; `stmts` }
const auto& accVar() {
  static const auto acc = Var::make("acc", 0, Type::tile(DType::FP32, {16, 16}), {}, true);
  return acc;
}

Kernel dotKernelWith(const std::function<std::vector<Stmt>(Expr acc, Expr a, Expr b)>& stmts) {
  const Shape s{16, 16};
  const auto& acc = accVar();
  auto a = Var::make("a", 1, Type::tile(DType::FP16, s), {});
  auto b = Var::make("b", 2, Type::tile(DType::FP16, s), {});
  std::vector<Stmt> body = {Let::make(acc, Splat::make(FloatImm::make(DType::FP32, 0.0), s)),
                            Let::make(a, Splat::make(FloatImm::make(DType::FP16, 1.5), s)),
                            Let::make(b, Splat::make(FloatImm::make(DType::FP16, 2.5), s))};
  for (Stmt st : stmts(VarRef::make(acc), VarRef::make(a), VarRef::make(b))) body.push_back(std::move(st));
  return kernelWith(std::move(body), 3);
}

Stmt assignAcc(const Expr& value) {
  return Assign::make(accVar(), value);
}

Expr fp32Dot(const Expr& a, const Expr& b, Expr acc = {}, int maxNumImpreciseAcc = 0) {
  return Dot::make(a, b, std::move(acc), DType::FP32, InputPrecision::IEEE, {}, maxNumImpreciseAcc);
}

}  // namespace

TEST(DotAccumulatorFusion, AccPlusDotBecomesADotIntoAccOnEitherSide) {
  const Shape s{16, 16};
  const Kernel k = dotKernelWith([&](Expr acc, Expr a, Expr b) {
    const Expr zeros = Splat::make(FloatImm::make(DType::FP32, 0.0), s);
    return std::vector<Stmt>{
        assignAcc(Binary::make(BinaryOp::Add, acc, fp32Dot(a, b))),         // acc += tl.dot(a, b)
        assignAcc(Binary::make(BinaryOp::Add, fp32Dot(a, b, zeros), acc)),  // tl.dot(a, b, zeros) + acc
        Store::make(Splat::make(p(), s), acc)};
  });
  const Kernel out = fuseDotAccumulator(k);
  IRVerifier::verifyOrThrow(out, "fuse-dot-accumulator");
  EXPECT_EQ(out.dump(),
            "kernel k(%n: i32, %p: ptr<fp32>) {\n"
            "  var acc: tensor<16x16xfp32> = splat 0.0:fp32\n"
            "  let a: tensor<16x16xfp16> = splat 1.5:fp16\n"
            "  let b: tensor<16x16xfp16> = splat 2.5:fp16\n"
            "  assign acc = dot a, b, acc=acc, input_precision=ieee\n"
            "  assign acc = dot a, b, acc=acc, input_precision=ieee\n"
            "  %0 = splat %p : tensor<16x16x!ptr<fp32>>\n"
            "  store %0, acc\n"
            "}\n");
}

TEST(DotAccumulatorFusion, LeavesDotsWithAnAccumulatorImpreciseAccumulationOrOtherAddsAlone) {
  const Shape s{16, 16};
  const Kernel k = dotKernelWith([&](Expr acc, Expr a, Expr b) {
    const Expr ones = Splat::make(FloatImm::make(DType::FP32, 1.0), s);
    return std::vector<Stmt>{
        assignAcc(Binary::make(BinaryOp::Add, acc, fp32Dot(a, b, ones))),        // a nonzero accumulator
        assignAcc(Binary::make(BinaryOp::Add, acc, fp32Dot(a, b, {}, 32))),      // max_num_imprecise_acc
        assignAcc(Binary::make(BinaryOp::Sub, acc, fp32Dot(a, b))),              // not an add
        assignAcc(Binary::make(BinaryOp::Add, acc, Binary::make(BinaryOp::Mul, acc, acc)))};
  });
  const Kernel out = fuseDotAccumulator(k);
  EXPECT_EQ(out.dump(), k.dump());
  EXPECT_TRUE(out.body.sameAs(k.body));
  // The other operand must have the dot's type: an fp16 dot added to an fp16 value fuses, and the
  // checker's casts keep an fp16 value from meeting an fp32 dot.
  const Kernel half = dotKernelWith([&](Expr, Expr a, Expr b) {
    return std::vector<Stmt>{Store::make(
        Splat::make(p(), s), Cast::make(Binary::make(BinaryOp::Add, a, Dot::make(a, b, {}, DType::FP16)), DType::FP32))};
  });
  EXPECT_NE(fuseDotAccumulator(half).dump().find("dot a, b, acc=a, input_precision=ieee : tensor<16x16xfp16>"), std::string::npos)
      << fuseDotAccumulator(half).dump();
}

TEST(PassPipeline, APassThatBreaksAnInvariantIsAnInternalErrorNamingIt) {
  // Drops the kernel's first statement (the Let of pid), so later statements read an undefined var.
  const Pass broken{"drop-first-statement", "a deliberately wrong pass", [](const Kernel& k) {
                      Kernel out = k;
                      std::vector<Stmt> rest = k.body.as<Seq>()->stmts;
                      rest.erase(rest.begin());
                      out.body = Seq::make(std::move(rest));
                      return out;
                    }};
  const Kernel k = test::makeAddKernel();
  try {
    runPass(broken, k, Verify::Always, nullptr);
    FAIL() << "the verifier let a broken kernel through";
  } catch (const tilescope::lang::InternalError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("after pass 'drop-first-statement'"), std::string::npos) << what;
    EXPECT_NE(what.find("var 'pid' is used where it is not defined"), std::string::npos) << what;
  }
  // A correct pass goes through and the observer sees its result.
  IRDumpObserver dump;
  const Pass identity{"identity", "nothing", [](const Kernel& kernel) { return kernel; }};
  runPass(identity, k, Verify::Always, &dump);
  EXPECT_EQ(dump.dumpAfter("identity"), k.dump());
}
