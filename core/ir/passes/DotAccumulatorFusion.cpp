#include "core/ir/passes/DotAccumulatorFusion.h"

#include "core/ir/IRMutator.h"

namespace tilescope::ir::passes {

namespace {

// A constant zero (+0 or -0, integer or float), or a splat of one: what tl.zeros and an omitted
// accumulator amount to.
bool isZeroConstant(const Expr& e) {
  if (const auto* i = e.as<IntImm>()) return i->value == 0;
  if (const auto* f = e.as<FloatImm>()) return f->value == 0.0;
  if (const auto* s = e.as<Splat>()) return isZeroConstant(s->value);
  return false;
}

// Whether `e` is a dot that can take `other` as its accumulator.
const Dot* fusableDot(const Expr& e, const Expr& other) {
  const auto* d = e.as<Dot>();
  if (!d) return nullptr;
  if (d->acc.defined() && !isZeroConstant(d->acc)) return nullptr;
  // Triton keeps the add after a float dot that accumulates imprecisely (fp8 on Hopper).
  if (isFloat(d->type.dtype()) && d->maxNumImpreciseAcc != 0) return nullptr;
  if (!(other.type() == d->type)) return nullptr;
  return d;
}

class Fuser : public IRMutator {
protected:
  Expr mutateBinary(const Binary& n, const Expr& self) override {
    const Expr mutated = IRMutator::mutateBinary(n, self);
    const auto* b = mutated.as<Binary>();
    if (!b || b->op != BinaryOp::Add) return mutated;
    const Dot* d = fusableDot(b->b, b->a);
    const Expr* other = &b->a;
    if (!d) {
      d = fusableDot(b->a, b->b);
      other = &b->b;
    }
    if (!d) return mutated;
    // The dot keeps its own source range: the inspector's dot views point at the tl.dot call.
    return Dot::make(d->a, d->b, *other, d->type.dtype(), d->precision, d->range, d->maxNumImpreciseAcc);
  }
};

}  // namespace

Kernel fuseDotAccumulator(const Kernel& kernel) {
  Fuser fuser;
  return fuser.mutateKernel(kernel);
}

}  // namespace tilescope::ir::passes
