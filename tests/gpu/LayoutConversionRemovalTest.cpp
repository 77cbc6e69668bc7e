// The pass remove-layout-conversions (core/gpu/passes/LayoutConversionRemoval) on hand-built IR, one
// row per rule: which conversions it removes, which it folds or rematerialises, and which it keeps
// (a conversion that moves data, a mutable var's, a carried value whose entry value is not constant).
#include <gtest/gtest.h>

#include <functional>

#include "core/gpu/passes/LayoutConversionRemoval.h"
#include "core/ir/IRVerifier.h"

using namespace tilescope;
using namespace tilescope::ir;

namespace {

TileLayout layout(LayoutKind kind, bool warpgroup = false) {
  TileLayout l;
  l.kind = kind;
  l.warpsM = 4;
  l.warpgroup = warpgroup;
  return l;
}

const Shape kMat{64, 32};
const Shape kRow{64};

// A kernel `k(%f: fp32, %out: ptr<fp32>)` whose body the case builds; `x` (exp of a splat, so
// neither constant nor index-pure) and `row` are tiles it can convert, `sink` stores a tile.
struct Builder {
  Kernel k;
  int ids = 0;
  VarPtr x, row;
  Builder() {
    k.name = "k";
    k.params = {{"f", Type::scalar(DType::FP32), false, {}, false, {}}, {"out", Type::pointer(DType::FP32), false, {}, false, {}}};
    x = var("x", Type::tile(DType::FP32, kMat));
    row = var("row", Type::tile(DType::FP32, kRow));
  }
  VarPtr var(const std::string& name, Type t, bool isMutable = false) { return Var::make(name, ids++, std::move(t), {}, isMutable); }
  Expr f() const { return ParamRef::make(0, "f", Type::scalar(DType::FP32)); }
  Stmt defineX() const { return Let::make(x, MathCall::make(MathFn::Exp, {Splat::make(f(), kMat)})); }
  Stmt defineRow() const { return Let::make(row, MathCall::make(MathFn::Exp, {Splat::make(f(), kRow)})); }
  Stmt sink(const Expr& value) const {
    return Store::make(Splat::make(ParamRef::make(1, "out", Type::pointer(DType::FP32)), value.type().shape()), value);
  }
  Kernel done(std::vector<Stmt> body) {
    k.body = Seq::make(std::move(body));
    k.varCount = ids;
    return k;
  }
};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

struct Case {
  const char* rule;
  std::function<Kernel()> build;
  size_t conversionsBefore, conversionsAfter;
  std::vector<std::string> after;  // lines the dump after the pass contains
};

// The carried-value shape of a register loop: acc set before it, converted on entry, accumulated
// in the loop, converted back after it and stored.
Kernel carried(const std::function<std::vector<Stmt>(Builder&, const VarPtr&)>& beforeEntry) {
  Builder b;
  VarPtr acc = b.var("acc", Type::tile(DType::FP32, kMat), true);
  VarPtr i = b.var("i", Type::scalar(DType::I32));
  b.k.layouts[acc->id] = layout(LayoutKind::Mma);
  std::vector<Stmt> body = {b.defineX()};
  for (Stmt s : beforeEntry(b, acc)) body.push_back(std::move(s));
  body.push_back(Assign::make(acc, ConvertLayout::make(VarRef::make(acc), layout(LayoutKind::Mma))));
  body.push_back(For::make(i, IntImm::make(DType::I32, 0), IntImm::make(DType::I32, 4), IntImm::make(DType::I32, 1),
                           Assign::make(acc, Binary::make(BinaryOp::Add, VarRef::make(acc), VarRef::make(b.x)))));
  body.push_back(Assign::make(acc, ConvertLayout::make(VarRef::make(acc), layout(LayoutKind::Blocked))));
  body.push_back(b.sink(VarRef::make(acc)));
  return b.done(std::move(body));
}

Stmt initAcc(const VarPtr& acc, Expr value) { return Let::make(acc, std::move(value)); }
Expr zeros() { return Splat::make(FloatImm::make(DType::FP32, 0), kMat); }

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"a conversion that moves data stays",
       [] {
         Builder b;
         return b.done({b.defineX(), b.sink(ConvertLayout::make(VarRef::make(b.x), layout(LayoutKind::Mma)))});
       },
       1, 1, {"convert_layout x, #mma<m16n8k16, warps=4x1>"}},
      {"to the layout the table gives the value",
       [] {
         Builder b;
         b.k.layouts[b.x->id] = layout(LayoutKind::Mma);
         return b.done({b.defineX(), b.sink(ConvertLayout::make(VarRef::make(b.x), layout(LayoutKind::Mma)))});
       },
       1, 0, {"store %1, x"}},
      {"to blocked, of a value with no layout (blocked)",
       [] {
         Builder b;
         return b.done({b.defineRow(), b.sink(ConvertLayout::make(VarRef::make(b.row), layout(LayoutKind::Blocked)))});
       },
       1, 0, {"store %1, row"}},
      {"a conversion of a conversion: one conversion",
       [] {
         Builder b;
         Expr twice = ConvertLayout::make(ConvertLayout::make(VarRef::make(b.x), layout(LayoutKind::Mma)), layout(LayoutKind::Mma, true));
         return b.done({b.defineX(), b.sink(twice)});
       },
       2, 1, {"convert_layout x, #mma<wgmma m64, warps=4x1>"}},
      {"a conversion back to where the value was: none",
       [] {
         Builder b;
         Expr there = ConvertLayout::make(ConvertLayout::make(VarRef::make(b.row), layout(LayoutKind::RowSlice)), layout(LayoutKind::Blocked));
         return b.done({b.defineRow(), b.sink(there)});
       },
       2, 0, {"store %1, row"}},
      {"an index-pure value: recomputed in the target layout",
       [] {
         Builder b;
         VarPtr pos = b.var("pos", Type::tile(DType::FP32, kRow));
         Expr index = Cast::make(Binary::make(BinaryOp::Add, Arange::make(0, 64), Splat::make(ProgramId::make(0), kRow)), DType::FP32);
         return b.done({Let::make(pos, index), b.sink(ConvertLayout::make(VarRef::make(pos), layout(LayoutKind::RowSlice)))});
       },
       1, 0, {"store %4, pos"}},
      {"a splat constant: the constant in the target layout",
       [] {
         Builder b;
         return b.done({b.sink(ConvertLayout::make(zeros(), layout(LayoutKind::Mma)))});
       },
       1, 0, {"%1 = splat 0.0:fp32 : tensor<64x32xfp32>", "store %0, %1"}},
      {"an unread conversion: its let goes, and its layout",
       [] {
         Builder b;
         VarPtr y = b.var("y", Type::tile(DType::FP32, kMat));
         b.k.layouts[y->id] = layout(LayoutKind::Mma);
         return b.done({b.defineX(), Let::make(y, ConvertLayout::make(VarRef::make(b.x), layout(LayoutKind::Mma))), b.sink(VarRef::make(b.x))});
       },
       1, 0, {"store %1, x"}},
      {"a carried value entering as a constant: the constant assigned in its layout",
       [] { return carried([](Builder&, const VarPtr& acc) { return std::vector<Stmt>{initAcc(acc, zeros())}; }); },
       2, 1, {"assign acc = splat 0.0:fp32", "assign acc = convert_layout acc, #blocked"}},
      {"a carried value entering as a constant through an immutable var",
       [] {
         return carried([](Builder& b, const VarPtr& acc) {
           VarPtr z = b.var("z", Type::tile(DType::FP32, kMat));
           return std::vector<Stmt>{Let::make(z, zeros()), initAcc(acc, VarRef::make(z))};
         });
       },
       2, 1, {"assign acc = splat 0.0:fp32"}},
      {"a carried value entering as computed data stays converted",
       [] { return carried([](Builder& b, const VarPtr& acc) { return std::vector<Stmt>{initAcc(acc, VarRef::make(b.x))}; }); },
       2, 2, {"assign acc = convert_layout acc, #mma<m16n8k16, warps=4x1>"}},
      {"a carried value assigned in a branch after its constant stays converted",
       [] {
         return carried([](Builder& b, const VarPtr& acc) {
           Stmt branch = If::make(Binary::make(BinaryOp::Gt, b.f(), FloatImm::make(DType::FP32, 0)), Assign::make(acc, VarRef::make(b.x)));
           return std::vector<Stmt>{initAcc(acc, zeros()), branch};
         });
       },
       2, 2, {"assign acc = convert_layout acc, #mma<m16n8k16, warps=4x1>"}},
  };
  return all;
}

}  // namespace

TEST(RemoveLayoutConversions, EachRule) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.rule);
    const Kernel before = c.build();
    ASSERT_EQ(IRVerifier::verify(before), std::vector<std::string>{}) << before.dump();
    ASSERT_EQ(count(before.dump(), "convert_layout"), c.conversionsBefore) << before.dump();
    const Kernel after = gpu::passes::removeLayoutConversions(before);
    const std::string dump = after.dump();
    EXPECT_EQ(IRVerifier::verify(after), std::vector<std::string>{}) << dump;
    EXPECT_EQ(count(dump, "convert_layout"), c.conversionsAfter) << dump;
    for (const std::string& line : c.after) EXPECT_NE(dump.find(line), std::string::npos) << line << "\n" << dump;
    // Nothing left to remove: a second run changes nothing.
    EXPECT_EQ(gpu::passes::removeLayoutConversions(after).dump(), dump);
  }
}

TEST(RemoveLayoutConversions, ForgetsTheLayoutsOfVarsThatWent) {
  const Case& unread = cases()[7];
  ASSERT_EQ(std::string(unread.rule).rfind("an unread conversion", 0), 0u);
  const Kernel before = unread.build();
  ASSERT_EQ(before.layouts.size(), 1u);
  EXPECT_TRUE(gpu::passes::removeLayoutConversions(before).layouts.empty());
}
