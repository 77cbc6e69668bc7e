#include "core/ir/passes/ConstantFolding.h"

#include <cstdint>

#include "core/ir/IRMutator.h"
#include "core/ir/TypeRules.h"

namespace tilescope::ir::passes {

namespace {

// Whether an operand is an integer constant (an IntImm, or a splat of one) equal to `value`.
bool isIntConstant(const Expr& e, int64_t value) {
  if (const auto* i = e.as<IntImm>()) return i->value == value;
  if (const auto* s = e.as<Splat>()) return isIntConstant(s->value, value);
  return false;
}

bool isIntegerValue(const Expr& e) { return !e.type().isPointer() && !isFloat(e.type().dtype()); }

class Folder : public IRMutator {
protected:
  Expr mutateBinary(const Binary& n, const Expr& self) override {
    const Expr folded = IRMutator::mutateBinary(n, self);
    const auto* b = folded.as<Binary>();
    if (!b) return folded;
    // Pointer arithmetic: the pointer on the left, an integer offset on the right.
    const bool pointer = b->a.type().isPointer();
    if (!pointer && !isIntegerValue(b->a)) return folded;
    if (b->type.dtype() == DType::I1) return folded;  // i1 add/mul are xor/and; leave them
    const auto* x = b->a.as<IntImm>();
    const auto* y = b->b.as<IntImm>();
    if (x && y) {
      const DType t = b->type.dtype();
      // Unsigned arithmetic: wrapping, with no signed overflow in C++.
      const auto ux = static_cast<uint64_t>(x->value), uy = static_cast<uint64_t>(y->value);
      uint64_t r = 0;
      bool foldable = true;
      switch (b->op) {
        case BinaryOp::Add: r = ux + uy; break;
        case BinaryOp::Sub: r = ux - uy; break;
        case BinaryOp::Mul: r = ux * uy; break;
        case BinaryOp::And: r = ux & uy; break;
        case BinaryOp::Or: r = ux | uy; break;
        case BinaryOp::Xor: r = ux ^ uy; break;
        default: foldable = false; break;
      }
      if (foldable) return IntImm::make(t, wrapToDType(t, static_cast<int64_t>(r)), b->range);
    }
    const bool add = b->op == BinaryOp::Add, sub = b->op == BinaryOp::Sub, mul = b->op == BinaryOp::Mul;
    const bool rightIs0 = isIntConstant(b->b, 0), rightIs1 = isIntConstant(b->b, 1);
    // Pointer arithmetic: the pointer on the left, never a constant.
    const bool leftIs0 = !pointer && isIntConstant(b->a, 0), leftIs1 = !pointer && isIntConstant(b->a, 1);
    if ((add || sub) && rightIs0) return b->a;
    if (add && leftIs0) return b->b;
    if (mul && rightIs1) return b->a;
    if (mul && leftIs1) return b->b;
    return folded;
  }
};

}  // namespace

Kernel foldConstants(const Kernel& kernel) {
  Folder folder;
  return folder.mutateKernel(kernel);
}

}  // namespace tilescope::ir::passes
