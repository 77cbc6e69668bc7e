#include "core/sim/InvariantAnalysis.h"

#include "core/ir/IRVisitor.h"

namespace tilescope::sim {

namespace {

class Analyzer : public ir::IRVisitor {
public:
  explicit Analyzer(KernelFacts& facts) : facts_(facts) {}

  void visitExpr(const ir::Expr& e) override {
    if (!e.defined()) return;
    ir::IRVisitor::visitExpr(e);  // children first
    if (isInvariant(e)) facts_.invariant.insert(e.get());
  }

protected:
  void visitHostCall(const ir::HostCall& n) override {
    facts_.hasHostCalls = true;
    ir::IRVisitor::visitHostCall(n);
  }
  void visitPrint(const ir::Print& n) override {
    facts_.hasPrints = true;
    ir::IRVisitor::visitPrint(n);
  }

private:
  bool inv(const ir::Expr& e) const { return !e.defined() || facts_.invariant.count(e.get()) > 0; }

  bool isInvariant(const ir::Expr& e) const {
    using K = ir::ExprKind;
    switch (e.kind()) {
      case K::IntImm:
      case K::FloatImm:
      case K::ParamRef:
      case K::NumPrograms:
      case K::Arange: return true;
      case K::VarRef:
      case K::ProgramId:
      case K::Load:
      case K::AtomicRMW:
      case K::AtomicCAS: return false;
      case K::Splat: return inv(e.as<ir::Splat>()->value);
      case K::Broadcast: return inv(e.as<ir::Broadcast>()->value);
      case K::ExpandDims: return inv(e.as<ir::ExpandDims>()->value);
      case K::Reshape: return inv(e.as<ir::Reshape>()->value);
      case K::Permute: return inv(e.as<ir::Permute>()->value);
      case K::Cast: return inv(e.as<ir::Cast>()->value);
      case K::Unary: return inv(e.as<ir::Unary>()->value);
      case K::Binary: return inv(e.as<ir::Binary>()->a) && inv(e.as<ir::Binary>()->b);
      case K::Select: {
        const auto* n = e.as<ir::Select>();
        return inv(n->cond) && inv(n->a) && inv(n->b);
      }
      case K::MathCall:
        for (const ir::Expr& a : e.as<ir::MathCall>()->args)
          if (!inv(a)) return false;
        return true;
      case K::Reduce: return inv(e.as<ir::Reduce>()->value);
      case K::Scan: return inv(e.as<ir::Scan>()->value);
      case K::Dot: {
        const auto* n = e.as<ir::Dot>();
        return inv(n->a) && inv(n->b) && inv(n->acc);
      }
      case K::Rand: return inv(e.as<ir::Rand>()->seed) && inv(e.as<ir::Rand>()->offset);
      case K::Hint: return inv(e.as<ir::Hint>()->value);
      case K::ConvertLayout: return inv(e.as<ir::ConvertLayout>()->value);
      case K::InlineAsm: return false;
      case K::Combine:
        for (const ir::Expr& in : e.as<ir::Combine>()->inputs)
          if (!inv(in)) return false;
        return true;
    }
    return false;
  }

  KernelFacts& facts_;
};

}  // namespace

KernelFacts analyzeKernel(const ir::Kernel& kernel) {
  KernelFacts facts;
  Analyzer a(facts);
  a.visitKernel(kernel);
  return facts;
}

}  // namespace tilescope::sim
