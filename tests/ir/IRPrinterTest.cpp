#include <gtest/gtest.h>

#include "core/ir/IRPrinter.h"
#include "IRTestKernels.h"

using namespace tilescope::ir;

TEST(IRPrinter, PrintsOneNodePerLine) {
  const Kernel k = test::makeAddKernel();
  EXPECT_EQ(k.dump(),
            "kernel add_kernel(%x_ptr: ptr<fp32> {divisible=16}, %y_ptr: ptr<fp32> {divisible=16}, %out_ptr: ptr<fp32>, "
            "%n: i32, BLOCK: constexpr = 4) {\n"
            "  let pid: i32 = program_id 0\n"
            "  %0 = mul pid, 4:i32 : i32\n"
            "  %1 = splat %0 : tensor<4xi32>\n"
            "  %2 = arange 0, 4 : tensor<4xi32>\n"
            "  let offs: tensor<4xi32> = add %1, %2\n"
            "  %3 = splat %n : tensor<4xi32>\n"
            "  let mask: tensor<4xi1> = lt offs, %3\n"
            "  %4 = splat %x_ptr : tensor<4x!ptr<fp32>>\n"
            "  %5 = add %4, offs : tensor<4x!ptr<fp32>>\n"
            "  %6 = splat 0.0:fp32 : tensor<4xfp32>\n"
            "  let x: tensor<4xfp32> = load %5, mask=mask, other=%6\n"
            "  %7 = splat %out_ptr : tensor<4x!ptr<fp32>>\n"
            "  %8 = add %7, offs : tensor<4x!ptr<fp32>>\n"
            "  %9 = splat 2.0:fp32 : tensor<4xfp32>\n"
            "  %10 = mul x, %9 : tensor<4xfp32>\n"
            "  store %8, %10, mask=mask\n"
            "}\n");
  EXPECT_EQ(k.specializationKey(), "add_kernel[*fp32:16,*fp32:16,*fp32,i32,BLOCK=4]");
}

TEST(IRPrinter, PrintsControlFlowAndMutableVars) {
  const Kernel k = test::makeLoopKernel();
  EXPECT_EQ(k.dump(),
            "kernel loops(%n: i32) {\n"
            "  var acc: fp32 = 0.0:fp32\n"
            "  for i: i32 in range(0:i32, %n, 1:i32) {\n"
            "    assign acc = add acc, 1.0:fp32\n"
            "  }\n"
            "  %0 = gt acc, 3.0:fp32 : i1\n"
            "  if %0 {\n"
            "    device_print \"big\", acc\n"
            "  }\n"
            "  var c: i1 = gt acc, 0.0:fp32\n"
            "  while c {\n"
            "    assign acc = sub acc, 1.0:fp32\n"
            "    assign c = gt acc, 0.0:fp32\n"
            "  }\n"
            "}\n");
}

TEST(IRPrinter, SharedSubexpressionsPrintOnceAndNamesAreDisambiguated) {
  auto a = Var::make("x", 0, Type::tile(DType::FP32, {8}), {});
  auto b = Var::make("x", 1, Type::tile(DType::FP32, {8}), {});
  Expr shared = MathCall::make(MathFn::Exp, {VarRef::make(a)});
  Stmt s = Seq::make({Let::make(a, Splat::make(FloatImm::make(DType::FP32, 1.5), {8})),
                      Let::make(b, Binary::make(BinaryOp::Add, shared, shared))});
  EXPECT_EQ(IRPrinter().print(s),
            "let x: tensor<8xfp32> = splat 1.5:fp32\n"
            "%0 = exp x : tensor<8xfp32>\n"
            "let x.1: tensor<8xfp32> = add %0, %0\n");
}

TEST(IRPrinter, PrintsLocationsWhenAsked) {
  tilescope::lang::SourceFile file("k.py", "x = 1\ny = tl.arange(0, 4)\n");
  auto v = Var::make("y", 0, Type::tile(DType::I32, {4}), {&file, 6, 24});
  Stmt s = Let::make(v, Arange::make(0, 4, {&file, 10, 24}), {&file, 6, 24});
  EXPECT_EQ(IRPrinter({.locations = true}).print(s), "let y: tensor<4xi32> = arange 0, 4  loc(\"k.py\":2:1)\n");
}

TEST(IRPrinter, PrintsEveryExpressionKind) {
  const Type f16 = Type::tile(DType::FP16, {16, 16});
  auto p = Var::make("p", 0, Type::pointerTile(DType::FP16, {16, 16}), {});
  auto a = Var::make("a", 1, f16, {});
  auto lo = Var::make("lo", 2, Type::tile(DType::FP16, {16, 16}), {});
  Expr pa = VarRef::make(p);
  Expr dot = Dot::make(VarRef::make(a), Permute::make(VarRef::make(a), {1, 0}), {}, DType::FP32, InputPrecision::TF32);
  Expr red = Reduce::make(ReduceOp::ArgMax, dot, 1, true);
  Expr scan = Scan::make(ScanOp::CumSum, Cast::make(VarRef::make(a), DType::FP32), 0, true);
  Expr hint = Hint::make(HintKind::MultipleOf, IntImm::make(DType::I32, 16), {16});
  Expr rnd = Rand::make(RandKind::Int4x, hint, Arange::make(0, 16), 7, 2);
  Expr cas = AtomicCAS::make(pa, VarRef::make(a), VarRef::make(a), {}, MemSemantic::Relaxed, MemScope::Cta);
  Stmt s = Seq::make({Let::make(lo, cas), Let::make(Var::make("r", 3, red.type(), {}), red),
                      Let::make(Var::make("s", 4, scan.type(), {}), scan), Let::make(Var::make("q", 5, rnd.type(), {}), rnd)});
  EXPECT_EQ(IRPrinter().print(s),
            "let lo: tensor<16x16xfp16> = atomic_cas p?0, a?1, a?1, sem=relaxed, scope=cta\n"
            "%0 = permute a?1, order=[1, 0] : tensor<16x16xfp16>\n"
            "%1 = dot a?1, %0, input_precision=tf32 : tensor<16x16xfp32>\n"
            "let r: tensor<16x1xi32> = reduce_argmax %1, axis=1, keep_dims=True\n"
            "%2 = cast a?1 : tensor<16x16xfp32>\n"
            "let s: tensor<16x16xfp32> = scan_cumsum %2, axis=0, reverse=True\n"
            "%3 = multiple_of 16:i32, [16] : i32\n"
            "%4 = arange 0, 16 : tensor<16xi32>\n"
            "let q: tensor<16xu32> = randint4x %3, %4, n_rounds=7, component=2\n");
}
