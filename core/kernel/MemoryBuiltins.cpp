// tl.load, tl.store and the atomics: pointer checks, mask/other/value broadcasting and casts exactly
// as Triton's semantic.py does them, with every effect bound by a Let.
#include <cmath>

#include "core/kernel/BlockPointer.h"
#include "core/kernel/BuiltinRegistry.h"

namespace tilescope::lang {

namespace {

using builtin::describeArg;

// The pointer operand; records which kernel parameter should have been a pointer when it is not.
ir::Expr pointerArg(ExprChecker& ec, const BoundArgs& a) {
  const Value& v = a.get("pointer");
  if (v.isTensor() && v.expr.type().isPointer()) return v.expr;
  if (v.isTensor()) {
    if (auto p = builtin::rootParameter(ec.ctx(), v.expr)) ec.ctx().pointerDemand = *p;
  }
  ec.error(a.range("pointer"), a.name() + " needs a pointer or a tensor of pointers; " + describeArg(a, "pointer"));
}

// mask converted to the pointer's shape; Triton broadcasts the pointer too when the mask is larger.
ir::Expr maskArg(ExprChecker& ec, const BoundArgs& a, ir::Expr& ptr, bool mayWidenPointer) {
  ir::Expr mask = ec.tensorOf(a.get("mask"), a.range("mask"), a.name() + " mask");
  if (!mask.type().isBool())
    ec.error(a.range("mask"), a.name() + " mask must be a boolean tensor (got " + mask.type().str() +
                                  "); build it with a comparison such as offs < n");
  const ir::Shape& ps = ptr.type().shape();
  if (ps.empty() && mask.type().isTile())
    ec.error(a.range("mask"), a.name() + " mask has shape " + ir::shapeString(mask.type().shape()) +
                                  " but the pointer is a scalar; a scalar pointer takes a scalar mask");
  auto common = ir::broadcastShapes(ps, mask.type().shape());
  if (!common || (!mayWidenPointer && *common != ps))
    ec.error(a.range("mask"), a.name() + " mask has shape " + ir::shapeString(mask.type().shape()) +
                                  " but the pointer tile is " + ir::shapeString(ps));
  ptr = Emitter::broadcastTo(ptr, *common, a.callRange());
  return Emitter::broadcastTo(mask, *common, a.range("mask"));
}

// A value operand (store value, atomic val/cmp): cast to the pointee dtype, broadcast to the
// pointer's shape without changing it.
ir::Expr valueArg(ExprChecker& ec, const BoundArgs& a, const std::string& param, const ir::Expr& ptr) {
  const ir::Type& pt = ptr.type();
  ir::Expr v = ec.tensorAs(a.get(param), pt.dtype(), a.range(param), a.name() + " " + param);
  const ir::Shape& vs = v.type().shape();
  if (pt.isScalar() && !vs.empty())
    ec.error(a.range(param), a.name() + " " + param + " has shape " + ir::shapeString(vs) + " but the pointer is a scalar");
  auto common = ir::broadcastShapes(pt.shape(), vs);
  if (!common || *common != pt.shape())
    ec.error(a.range(param), a.name() + " " + param + " has shape " + ir::shapeString(vs) + " but the pointer tile is " +
                                 ir::shapeString(pt.shape()));
  return Emitter::broadcastTo(v, pt.shape(), a.range(param));
}

std::string optionString(ExprChecker& ec, const BoundArgs& a, const std::string& param) {
  if (!a.given(param)) return {};
  return ec.requireConstString(a.get(param), a.range(param), a.name() + " " + param);
}

void rejectBlockPointerOptions(ExprChecker& ec, const BoundArgs& a) {
  for (const char* opt : {"boundary_check", "padding_option"}) {
    if (!a.given(opt)) continue;
    const Value& v = a.get(opt);
    const bool empty = (v.isTuple() && v.elements.empty()) || (v.isConst() && v.constant.isString() && v.constant.asString().empty());
    if (!empty)
      ec.error(a.range(opt), a.name() + " " + opt + " applies to block pointers (tl.make_block_ptr); for a tensor of pointers pass mask= instead");
  }
}

// boundary_check of a load or store through a block pointer: the dims whose indices are masked.
std::vector<int64_t> boundaryDims(ExprChecker& ec, const BoundArgs& a, size_t rank) {
  std::vector<int64_t> dims;
  if (!a.given("boundary_check")) return dims;
  const Value& v = a.get("boundary_check");
  const ValueList entries = v.isTuple() ? v.elements : ValueList{v};
  for (const Value& e : entries) {
    const int64_t d = ec.requireConstInt(e, a.range("boundary_check"), a.name() + " boundary_check entries");
    if (d < 0 || d >= static_cast<int64_t>(rank))
      ec.error(a.range("boundary_check"), a.name() + " boundary_check names dimension " + std::to_string(d) +
                                              " but the block has dimensions 0.." + std::to_string(rank - 1) + " only");
    dims.push_back(d);
  }
  return dims;
}

// A load or store through a block pointer: its pointer tile and boundary mask. Triton takes no
// mask / other there: the block pointer's shape is the bound.
BlockAccess blockPointerAccess(ExprChecker& ec, const BoundArgs& a) {
  for (const char* opt : {"mask", "other"})
    if (a.has(opt) && a.given(opt))
      ec.error(a.range(opt), a.name() + " through a block pointer takes boundary_check (and, for loads, padding_option), not " +
                                 std::string(opt) + "; the block pointer's shape bounds the access");
  const BlockPointer bp = BlockPointer::of(a.get("pointer"));
  return lowerBlockPointer(ec, bp, boundaryDims(ec, a, bp.rank()), a.callRange());
}

Value load(ExprChecker& ec, const BoundArgs& a) {
  ir::Expr ptr, mask, other;
  if (a.get("pointer").isBlockPointer()) {
    const BlockAccess access = blockPointerAccess(ec, a);
    ptr = access.pointers;
    mask = access.mask;
    const std::string padding = optionString(ec, a, "padding_option");
    if (padding != "" && padding != "zero" && padding != "nan")
      ec.error(a.range("padding_option"), "tl.load padding_option must be '', 'zero' or 'nan', not '" + padding + "'");
    const ir::DType t = ptr.type().dtype();
    if (padding == "nan" && !ir::isFloat(t))
      ec.error(a.range("padding_option"), "tl.load padding_option 'nan' needs floating-point elements, not " + std::string(ir::dtypeName(t)));
    if (mask) {
      // Without a padding option Triton leaves the padded elements undefined; here they are zero.
      const Value fill = Value::ofConst(padding == "nan" ? ConstValue::floating(std::nan("")) : ConstValue::integer(0));
      other = Emitter::broadcastTo(ec.tensorAs(fill, t, a.callRange(), "tl.load padding"), ptr.type().shape(), a.callRange());
    }
  } else {
    ptr = pointerArg(ec, a);
    rejectBlockPointerOptions(ec, a);
    if (a.given("mask")) mask = maskArg(ec, a, ptr, /*mayWidenPointer=*/true);
    if (a.given("other")) {
      if (!mask) ec.error(a.range("other"), "tl.load 'other' is only used for masked-off lanes, so it needs a mask");
      other = ec.tensorAs(a.get("other"), ptr.type().dtype(), a.range("other"), "tl.load other");
      auto common = ir::broadcastShapes(ptr.type().shape(), other.type().shape());
      if (!common || *common != ptr.type().shape())
        ec.error(a.range("other"), "tl.load other has shape " + ir::shapeString(other.type().shape()) +
                                       " but the pointer tile is " + ir::shapeString(ptr.type().shape()));
      other = Emitter::broadcastTo(other, ptr.type().shape(), a.range("other"));
    }
  }
  const std::string cacheText = optionString(ec, a, "cache_modifier");
  auto cache = ir::parseLoadCacheModifier(cacheText);
  if (!cache) ec.error(a.range("cache_modifier"), "tl.load cache_modifier must be '', '.ca', '.cg' or '.cv', not '" + cacheText + "'");
  const std::string evictText = optionString(ec, a, "eviction_policy");
  auto evict = ir::parseEvictionPolicy(evictText);
  if (!evict) ec.error(a.range("eviction_policy"), "eviction_policy must be '', 'evict_first' or 'evict_last', not '" + evictText + "'");
  const bool isVolatile = a.given("volatile") && ec.requireConstBool(a.get("volatile"), a.range("volatile"), "volatile");
  ir::Expr load = ir::Load::make(ptr, mask, other, a.callRange(), *cache, *evict, isVolatile);
  return Value::ofTensor(ec.emitter().effect(load, a.callRange()));
}

Value store(ExprChecker& ec, const BoundArgs& a) {
  ir::Expr ptr, mask;
  if (a.get("pointer").isBlockPointer()) {
    const BlockAccess access = blockPointerAccess(ec, a);
    ptr = access.pointers;
    mask = access.mask;
  } else {
    ptr = pointerArg(ec, a);
    rejectBlockPointerOptions(ec, a);
  }
  ir::Expr value = valueArg(ec, a, "value", ptr);
  if (a.given("mask")) mask = maskArg(ec, a, ptr, /*mayWidenPointer=*/false);
  const std::string cacheText = optionString(ec, a, "cache_modifier");
  auto cache = ir::parseStoreCacheModifier(cacheText);
  if (!cache) ec.error(a.range("cache_modifier"), "tl.store cache_modifier must be '', '.wb', '.cg', '.cs' or '.wt', not '" + cacheText + "'");
  const std::string evictText = optionString(ec, a, "eviction_policy");
  auto evict = ir::parseEvictionPolicy(evictText);
  if (!evict) ec.error(a.range("eviction_policy"), "eviction_policy must be '', 'evict_first' or 'evict_last', not '" + evictText + "'");
  ec.emitter().emit(ir::Store::make(ptr, value, mask, a.callRange(), *cache, *evict));
  return Value::ofConst(ConstValue::none());
}

void checkAtomicDType(ExprChecker& ec, const BoundArgs& a, ir::AtomicOp op, ir::DType t) {
  using ir::DType;
  const std::string name = a.name();
  if ((t == DType::FP16 || t == DType::BF16) && op != ir::AtomicOp::Add)
    ec.error(a.callRange(), name + " does not support " + std::string(ir::dtypeName(t)) + " (only atomic_add does)");
  if (ir::bitWidth(t) < 16 || t == DType::I16 || t == DType::U16 || ir::isFp8(t))
    ec.error(a.callRange(), name + " does not support " + std::string(ir::dtypeName(t)) + " elements");
  if ((op == ir::AtomicOp::Max || op == ir::AtomicOp::Min) && ir::isFloat(t) && t != DType::FP32 && t != DType::FP64)
    ec.error(a.callRange(), name + " supports fp32 and fp64 floats only");
  if ((op == ir::AtomicOp::And || op == ir::AtomicOp::Or || op == ir::AtomicOp::Xor) && !ir::isInt(t))
    ec.error(a.callRange(), name + " needs integer elements, got " + std::string(ir::dtypeName(t)));
}

std::pair<ir::MemSemantic, ir::MemScope> semScope(ExprChecker& ec, const BoundArgs& a) {
  const std::string semText = optionString(ec, a, "sem");
  auto sem = ir::parseMemSemantic(semText);
  if (!sem) ec.error(a.range("sem"), "sem must be 'acquire', 'release', 'acq_rel' or 'relaxed', not '" + semText + "'");
  const std::string scopeText = optionString(ec, a, "scope");
  auto scope = ir::parseMemScope(scopeText);
  if (!scope) ec.error(a.range("scope"), "scope must be 'gpu', 'cta' or 'sys', not '" + scopeText + "'");
  return {*sem, *scope};
}

void addAtomic(BuiltinRegistry& r, const char* name, ir::AtomicOp op) {
  r.add(name, "pointer, val, mask=None, sem=None, scope=None", [op](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr ptr = pointerArg(ec, a);
    checkAtomicDType(ec, a, op, ptr.type().dtype());
    ir::Expr val = valueArg(ec, a, "val", ptr);
    ir::Expr mask;
    if (a.given("mask")) mask = maskArg(ec, a, ptr, /*mayWidenPointer=*/false);
    auto [sem, scope] = semScope(ec, a);
    ir::Expr rmw = ir::AtomicRMW::make(op, ptr, val, mask, a.callRange(), sem, scope);
    return Value::ofTensor(ec.emitter().effect(rmw, a.callRange()));
  });
}

}  // namespace

void registerMemoryBuiltins(BuiltinRegistry& r) {
  r.add("tl.load",
        "pointer, mask=None, other=None, boundary_check=None, padding_option=None, cache_modifier=None, "
        "eviction_policy=None, volatile=False",
        load);
  r.add("tl.store", "pointer, value, mask=None, boundary_check=None, cache_modifier=None, eviction_policy=None", store);
  addAtomic(r, "tl.atomic_add", ir::AtomicOp::Add);
  addAtomic(r, "tl.atomic_max", ir::AtomicOp::Max);
  addAtomic(r, "tl.atomic_min", ir::AtomicOp::Min);
  addAtomic(r, "tl.atomic_xchg", ir::AtomicOp::Xchg);
  addAtomic(r, "tl.atomic_and", ir::AtomicOp::And);
  addAtomic(r, "tl.atomic_or", ir::AtomicOp::Or);
  addAtomic(r, "tl.atomic_xor", ir::AtomicOp::Xor);
  r.add("tl.atomic_cas", "pointer, cmp, val, sem=None, scope=None", [](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr ptr = pointerArg(ec, a);
    const int bits = ir::bitWidth(ptr.type().dtype());
    if (bits != 16 && bits != 32 && bits != 64)
      ec.error(a.callRange(), "tl.atomic_cas supports 16, 32 and 64-bit elements, not " + std::string(ir::dtypeName(ptr.type().dtype())));
    ir::Expr cmp = valueArg(ec, a, "cmp", ptr);
    ir::Expr val = valueArg(ec, a, "val", ptr);
    auto [sem, scope] = semScope(ec, a);
    ir::Expr cas = ir::AtomicCAS::make(ptr, cmp, val, a.callRange(), sem, scope);
    return Value::ofTensor(ec.emitter().effect(cas, a.callRange()));
  });
}

}  // namespace tilescope::lang
