#pragma once
// Small kernels built by hand for the IR unit tests (what the checker would make of the Python).
#include "core/ir/Kernel.h"

namespace tilescope::ir::test {

// @triton.jit
// def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):  # BLOCK = 4
//     pid = tl.program_id(0)
//     offs = pid * BLOCK + tl.arange(0, BLOCK)
//     mask = offs < n
//     x = tl.load(x_ptr + offs, mask=mask, other=0.0)
//     tl.store(out_ptr + offs, x * 2, mask=mask)
inline Kernel makeAddKernel() {
  Kernel k;
  k.name = "add_kernel";
  const Type fptr = Type::pointer(DType::FP32);
  k.params = {{"x_ptr", fptr, false, {}, true, {}},
              {"y_ptr", fptr, false, {}, true, {}},
              {"out_ptr", fptr, false, {}, false, {}},
              {"n", Type::scalar(DType::I32), false, {}, false, {}},
              {"BLOCK", Type{}, true, Constant(int64_t{4}), false, {}}};
  const Shape s{4};
  int id = 0;
  auto pid = Var::make("pid", id++, Type::scalar(DType::I32), {});
  auto offs = Var::make("offs", id++, Type::tile(DType::I32, s), {});
  auto mask = Var::make("mask", id++, Type::tile(DType::I1, s), {});
  auto x = Var::make("x", id++, Type::tile(DType::FP32, s), {});
  k.varCount = id;

  Expr xp = ParamRef::make(0, "x_ptr", fptr);
  Expr op = ParamRef::make(2, "out_ptr", fptr);
  Expr n = ParamRef::make(3, "n", Type::scalar(DType::I32));
  Expr start = Binary::make(BinaryOp::Mul, VarRef::make(pid), IntImm::make(DType::I32, 4));
  Expr offsE = Binary::make(BinaryOp::Add, Splat::make(start, s), Arange::make(0, 4));
  Expr maskE = Binary::make(BinaryOp::Lt, VarRef::make(offs), Splat::make(n, s));
  Expr load = Load::make(Binary::make(BinaryOp::Add, Splat::make(xp, s), VarRef::make(offs)), VarRef::make(mask),
                         Splat::make(FloatImm::make(DType::FP32, 0.0), s));
  Expr doubled = Binary::make(BinaryOp::Mul, VarRef::make(x), Splat::make(FloatImm::make(DType::FP32, 2.0), s));
  Stmt store = Store::make(Binary::make(BinaryOp::Add, Splat::make(op, s), VarRef::make(offs)), doubled, VarRef::make(mask));
  k.body = Seq::make({Let::make(pid, ProgramId::make(0)), Let::make(offs, offsE), Let::make(mask, maskE), Let::make(x, load),
                      store});
  return k;
}

// A loop with a loop-carried accumulator, an if and a while:
//   acc = 0.0 (mutable fp32); for i in range(0, n, 1): acc = acc + 1.0
//   if acc > 3.0: tl.device_print("big", acc)
//   c = acc > 0.0; while c: acc = acc - 1.0; c = acc > 0.0
inline Kernel makeLoopKernel() {
  Kernel k;
  k.name = "loops";
  k.params = {{"n", Type::scalar(DType::I32), false, {}, false, {}}};
  int id = 0;
  const Type f = Type::scalar(DType::FP32);
  auto acc = Var::make("acc", id++, f, {}, true);
  auto i = Var::make("i", id++, Type::scalar(DType::I32), {});
  auto c = Var::make("c", id++, Type::scalar(DType::I1), {}, true);
  k.varCount = id;
  Expr n = ParamRef::make(0, "n", Type::scalar(DType::I32));
  Stmt loop = For::make(i, IntImm::make(DType::I32, 0), n, IntImm::make(DType::I32, 1),
                        Assign::make(acc, Binary::make(BinaryOp::Add, VarRef::make(acc), FloatImm::make(DType::FP32, 1.0))));
  Stmt branch = If::make(Binary::make(BinaryOp::Gt, VarRef::make(acc), FloatImm::make(DType::FP32, 3.0)),
                         Print::make("big", {VarRef::make(acc)}, false, true));
  Expr positive = Binary::make(BinaryOp::Gt, VarRef::make(acc), FloatImm::make(DType::FP32, 0.0));
  Stmt wh = While::make(c, Seq::make({Assign::make(acc, Binary::make(BinaryOp::Sub, VarRef::make(acc), FloatImm::make(DType::FP32, 1.0))),
                                      Assign::make(c, Binary::make(BinaryOp::Gt, VarRef::make(acc), FloatImm::make(DType::FP32, 0.0)))}));
  k.body = Seq::make({Let::make(acc, FloatImm::make(DType::FP32, 0.0)), loop, branch, Let::make(c, positive), wh});
  return k;
}

}  // namespace tilescope::ir::test
