#include "core/kernel/Emitter.h"

#include <algorithm>

#include "core/base/Diagnostic.h"

namespace tilescope::lang {

void Emitter::pushBlock() { blocks_.emplace_back(); }

ir::Stmt Emitter::popBlock(SourceRange range) {
  if (blocks_.empty()) throw InternalError("Emitter::popBlock without a block");
  std::vector<ir::Stmt> stmts = std::move(blocks_.back());
  blocks_.pop_back();
  return ir::Seq::make(std::move(stmts), range);
}

void Emitter::emit(ir::Stmt stmt) {
  if (blocks_.empty()) throw InternalError("Emitter::emit outside a block");
  blocks_.back().push_back(std::move(stmt));
}

ir::VarPtr Emitter::newVar(std::string name, ir::Type type, SourceRange range, bool isMutable) {
  return ir::Var::make(std::move(name), nextVarId_++, std::move(type), range, isMutable);
}

ir::Expr Emitter::let(const std::string& name, ir::Expr value, SourceRange range) {
  ir::VarPtr v = newVar(name, value.type(), range);
  emit(ir::Let::make(v, value, range));
  return ir::VarRef::make(v, range);
}

ir::Expr Emitter::effect(ir::Expr value, SourceRange range) {
  ir::VarPtr v = newVar("tmp", value.type(), range);
  emit(ir::Let::make(v, value, range));
  temps_.push_back(v.get());
  return ir::VarRef::make(v, value.range());
}

ir::Expr Emitter::renameLastTemp(const ir::Expr& ref, const std::string& name, SourceRange range) {
  const auto* r = ref.as<ir::VarRef>();
  if (!r || blocks_.empty() || blocks_.back().empty()) return {};
  const auto* let = blocks_.back().back().as<ir::Let>();
  if (!let || let->var != r->var) return {};
  if (std::find(temps_.begin(), temps_.end(), r->var.get()) == temps_.end()) return {};
  ir::Expr value = let->value;
  blocks_.back().pop_back();
  // The temporary's id stays unused; ids need to be unique, not dense.
  ir::VarPtr v = newVar(name, value.type(), range);
  emit(ir::Let::make(v, value, range));
  return ir::VarRef::make(v, range);
}

ir::Expr Emitter::cast(const ir::Expr& e, ir::DType t, SourceRange range) {
  if (e.type().dtype() == t && !e.type().isPointer()) return e;
  // Constants are converted right away (`range(0, n)` with an i64 n starts at 0:i64, not at a
  // cast of 0:i32); the result is the value the cast would compute.
  if (const auto* i = e.as<ir::IntImm>()) {
    const bool isUnsigned = ir::isUnsignedInt(i->type.dtype());
    if (t == ir::DType::I1) return ir::IntImm::make(t, i->value != 0, e.range());
    if (ir::isFloat(t))
      return ir::FloatImm::make(t, isUnsigned ? static_cast<double>(static_cast<uint64_t>(i->value)) : static_cast<double>(i->value),
                                e.range());
    return ir::IntImm::make(t, i->value, e.range());
  }
  if (const auto* f = e.as<ir::FloatImm>(); f && ir::isFloat(t)) return ir::FloatImm::make(t, f->value, e.range());
  return ir::Cast::make(e, t, false, false, ir::RoundingMode::None, range);
}

ir::Expr Emitter::broadcastTo(const ir::Expr& e, const ir::Shape& shape, SourceRange range) {
  const ir::Shape& from = e.type().shape();
  if (from == shape) return e;
  if (shape.empty()) throw InternalError("Emitter::broadcastTo: cannot broadcast " + e.type().str() + " to a scalar");
  if (from.empty()) return ir::Splat::make(e, shape, range);
  if (from.size() > shape.size()) throw InternalError("Emitter::broadcastTo: rank would shrink");
  ir::Expr out = e;
  for (size_t i = from.size(); i < shape.size(); ++i) out = ir::ExpandDims::make(out, 0, range);
  if (out.type().shape() == shape) return out;
  return ir::Broadcast::make(out, shape, range);
}

ir::Expr Emitter::constant(ir::DType t, double value, SourceRange range) {
  if (ir::isFloat(t)) return ir::FloatImm::make(t, value, range);
  return ir::IntImm::make(t, static_cast<int64_t>(value), range);
}

ir::Expr Emitter::intConstant(ir::DType t, int64_t value, SourceRange range) {
  if (ir::isFloat(t)) return ir::FloatImm::make(t, static_cast<double>(value), range);
  return ir::IntImm::make(t, value, range);
}

}  // namespace tilescope::lang
