// Memory statements of the CUDA generator: tile and scalar loads, stores and atomics, with the
// vector accesses the blocked layout allows where the run-time checks pass.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"
#include "core/ir/Numerics.h"

#include <cstdio>

namespace tilescope::gpu {

using ir::DType;

void CudaEmitter::memoryBarrierIfNeeded() {
  // Stores of other threads of this program must be visible to the loads that follow them.
  if (storesBefore_ != PendingStores::None) sync();
}

// One PTX atom instruction for the read-modify-writes the hardware has (sm_70+: the memory
// order and scope as qualifiers, as Triton emits them), as an expression of the old value; empty
// where the CAS loop must do it (float min/max/xchg, older GPUs). Integer results are exact, as the
// CAS loop's; fp32 add rounds to nearest like it, but the instruction flushes subnormal inputs and
// results to zero (Triton's atomic_add does the same).
std::string CudaEmitter::nativeAtomic(const ir::AtomicRMW& n, const std::string& ptr, const std::string& val) const {
  if (options_.smArch < 70) return "";
  const DType dt = n.ptr.type().dtype();
  const bool wide = ir::bitWidth(dt) == 64, isFloat = ir::isFloat(dt), isSigned = ir::isSignedInt(dt);
  std::string op, type;
  switch (n.op) {
    case ir::AtomicOp::Add:
      op = "add";
      type = isFloat ? (wide ? "f64" : "f32") : wide ? "u64" : isSigned ? "s32" : "u32";
      break;
    case ir::AtomicOp::Max:
    case ir::AtomicOp::Min:
      if (isFloat) return "";
      op = n.op == ir::AtomicOp::Max ? "max" : "min";
      type = std::string(isSigned ? "s" : "u") + (wide ? "64" : "32");
      break;
    case ir::AtomicOp::And:
    case ir::AtomicOp::Or:
    case ir::AtomicOp::Xor:
    case ir::AtomicOp::Xchg:
      if (isFloat) return "";
      op = n.op == ir::AtomicOp::And ? "and" : n.op == ir::AtomicOp::Or ? "or" : n.op == ir::AtomicOp::Xor ? "xor" : "exch";
      type = wide ? "b64" : "b32";
      break;
  }
  const char* order = n.sem == ir::MemSemantic::Relaxed   ? "relaxed"
                      : n.sem == ir::MemSemantic::Acquire ? "acquire"
                      : n.sem == ir::MemSemantic::Release ? "release"
                                                          : "acq_rel";
  const char* scope = n.scope == ir::MemScope::Cta ? "cta" : n.scope == ir::MemScope::Sys ? "sys" : "gpu";
  const std::string mt = memType(dt);
  const std::string reg = isFloat ? (wide ? "d" : "f") : wide ? "l" : "r";
  return "([&] { " + mt + " ts_old; asm volatile(\"atom." + order + "." + scope + ".global." + op + "." + type +
         " %0, [%1], %2;\" : \"=" + reg + "\"(ts_old) : \"l\"(" + ptr + "), \"" + reg + "\"((" + mt + ")(" + val +
         ")) : \"memory\"); return ts_old; }())";
}

void CudaEmitter::memoryLet(const ir::VarPtr& var, const ir::Expr& value, bool declare) {
  const ir::Type& t = var->type;
  const std::string name = varName(var);
  const std::string T = regType(t);
  memoryBarrierIfNeeded();
  if (deferredLoads_.count(var->id)) return;  // loaded inside the dot's staging loop
  if (const auto* n = value.as<ir::Load>()) {
    const std::string ptr = expr(n->ptr);
    const std::string mask = n->mask ? expr(n->mask) : "";
    const std::string other = n->other ? expr(n->other) : "(" + T + ")0";
    const std::string mt = memType(t.dtype());
    const std::string deref = n->isVolatile ? "*(volatile " + mt + "*)(" + ptr + ")" : "*(" + ptr + ")";
    const std::string body = mask.empty() ? name + (t.isTile() ? "[ts_j]" : "") + " = " + fromMemory(t.dtype(), deref) + ";"
                                          : "{ " + T + " ts_v = " + other + "; if (" + mask + ") ts_v = " +
                                                fromMemory(t.dtype(), deref) + "; " + name + (t.isTile() ? "[ts_j]" : "") +
                                                " = ts_v; }";
    if (t.isScalar()) {
      if (declare) line(T + " " + name + ";");
      line(body);
      return;
    }
    const bool vector = layout(t.numel()).vec > 1 && !n->isVolatile;
    const bool stayPacked = vector && declare && !var->isMutable && packs(t);
    if (declare && !stayPacked) line(T + " " + name + "[" + std::to_string(slots(t.numel())) + "];");
    if (vector) {
      vectorLoad(*n, name, t, stayPacked ? var->id : -1);
      return;
    }
    openLoop(t.numel());
    line(body);
    closeLoop(t.numel());
    return;
  }
  // Atomics: 32- and 64-bit elements through a CAS loop.
  const ir::Expr& ptrExpr = value.as<ir::AtomicRMW>() ? value.as<ir::AtomicRMW>()->ptr : value.as<ir::AtomicCAS>()->ptr;
  const DType dt = ptrExpr.type().dtype();
  if (ir::bitWidth(dt) != 32 && ir::bitWidth(dt) != 64)
    unsupported(value.range(), std::string("atomics on ") + std::string(ir::dtypeName(dt)) + " elements");
  const std::string mt = memType(dt);
  std::string call, mask;
  ir::MemSemantic sem = ir::MemSemantic::AcqRel;
  if (const auto* n = value.as<ir::AtomicRMW>()) {
    std::string op;
    switch (n->op) {
      case ir::AtomicOp::Add: op = "ts_op_add"; break;
      case ir::AtomicOp::Max: op = ir::isFloat(dt) ? "ts_op_fmax" : "ts_op_max"; break;
      case ir::AtomicOp::Min: op = ir::isFloat(dt) ? "ts_op_fmin" : "ts_op_min"; break;
      case ir::AtomicOp::Xchg: op = "ts_op_xchg"; break;
      case ir::AtomicOp::And: op = "ts_op_and"; break;
      case ir::AtomicOp::Or: op = "ts_op_or"; break;
      case ir::AtomicOp::Xor: op = "ts_op_xor"; break;
    }
    const std::string ptr = expr(n->ptr);
    const std::string val = expr(n->val);
    mask = n->mask ? expr(n->mask) : "";
    call = "ts_atomic_rmw<" + mt + ">(" + ptr + ", (" + mt + ")(" + val + "), " + op + "())";
    sem = n->sem;
    if (std::string native = nativeAtomic(*n, ptr, val); !native.empty()) {
      call = native;
      sem = ir::MemSemantic::Relaxed;  // the instruction carries the ordering: no fences around it
    }
  } else {
    const auto* c = value.as<ir::AtomicCAS>();
    const std::string ptr = expr(c->ptr);
    const std::string cmp = expr(c->cmp);
    const std::string val = expr(c->val);
    call = "ts_atomic_cas<" + mt + ">(" + ptr + ", (" + mt + ")(" + cmp + "), (" + mt + ")(" + val + "))";
    sem = c->sem;
  }
  const std::string fence = sem == ir::MemSemantic::Relaxed ? "" : "__threadfence(); ";
  const std::string guarded = "{ " + T + " ts_v = (" + T + ")0; " + (mask.empty() ? "" : "if (" + mask + ") ") + "{ " + fence +
                              "ts_v = (" + T + ")" + call + "; " + fence + "} ";
  if (t.isScalar()) {
    // One thread does a scalar atomic; the others get its result through shared memory.
    useShared(8);
    if (declare) line(T + " " + name + ";");
    line("if (ts_tid == 0) " + guarded + "*(" + T + "*)ts_smem = ts_v; }");
    sync();
    line(name + " = *(" + T + "*)ts_smem;");
    sync();
  } else {
    if (declare) line(T + " " + name + "[" + std::to_string(slots(t.numel())) + "];");
    openLoop(t.numel());
    line(guarded + name + "[ts_j] = ts_v; }");
    closeLoop(t.numel());
  }
  storesBefore_ = PendingStores::ByAnyThread;
}

void CudaEmitter::store(const ir::Store& n) {
  const bool scalar = n.ptr.type().isScalar();
  // Thread 0 does a scalar store: after its own scalar stores it needs no barrier.
  if (!scalar || storesBefore_ == PendingStores::ByAnyThread) memoryBarrierIfNeeded();
  const ir::Type& pt = n.ptr.type();
  const DType dt = pt.dtype();
  const std::string ptr = expr(n.ptr);
  const std::string mask = n.mask ? expr(n.mask) : "";
  const std::string body = "*(" + ptr + ") = " + storedValue(n.value, dt) + ";";
  if (pt.isScalar()) {
    line("if (ts_tid == 0" + (mask.empty() ? "" : " && (" + mask + ")") + ") " + body);
  } else if (layout(pt.numel()).vec > 1) {
    vectorStore(n);
  } else {
    openLoop(pt.numel());
    line(mask.empty() ? body : "if (" + mask + ") " + body);
    closeLoop(pt.numel());
  }
  storesBefore_ = scalar ? std::max(storesBefore_, PendingStores::ByThreadZero) : PendingStores::ByAnyThread;
}

// A tile load with vec > 1: per group of vec slots, one vector access when the run-time check
// (ts_vec_ok: consecutive pointers, the first aligned to the access width, every mask true) passes,
// else the element-wise code (masked-out elements get `other`, memory is read only where the mask is).
// 16-bit floats (fp16, bf16) stay packed as loaded until after the last group:
// converting inside a group's branch would wait for its load before the next group's is issued.
void CudaEmitter::vectorLoad(const ir::Load& n, const std::string& name, const ir::Type& t, int packedVar) {
  const int64_t numel = t.numel();
  const int vec = layout(numel).vec;
  const std::string V = std::to_string(vec);
  const std::string T = regType(t);
  const std::string mt = memType(t.dtype());
  const std::string ptr = expr(n.ptr);
  const std::string mask = n.mask ? expr(n.mask) : "";
  const std::string other = n.other ? expr(n.other) : "(" + T + ")0";
  const std::string slot = "ts_g * " + V + " + ts_k";
  const std::string each = "for (int ts_k = 0; ts_k < " + V + "; ++ts_k)";
  const std::string at = "const int ts_j = " + slot + ", ts_i = ts_i0 + ts_k;";
  const bool packed = packs(t);
  const std::string words = name + "_words", W = std::to_string(vec / 2);
  // A constant `other` (tl.load(..., other=1.0)) of a packed tile as memory bits written at
  // generation time: no conversion chain per element at run time, and whole words where a group is
  // filled with it.
  std::optional<double> otherValue;
  if (packed && n.other)
    if (std::optional<ir::Expr> c = constantSplat(n.other); c && c->as<ir::FloatImm>()) otherValue = c->as<ir::FloatImm>()->value;
  const std::string otherMemory = otherValue ? memoryLiteral(t.dtype(), *otherValue) : toMemory(t.dtype(), other);
  if (packed) line("unsigned " + words + "[" + std::to_string(slots(numel) / 2) + "];");
  openGroups(numel);
  line(mt + "* ts_vp[" + V + "];" + (mask.empty() ? "" : " bool ts_vm[" + V + "];"));
  const std::string groupMask = mask.empty() ? "" : maskOfGroup(n.mask, mask, vec);
  const std::string groupPtr = pointerOfGroup(n.ptr, ptr, vec, mt);
  line("#pragma unroll");
  open(each);
  line(at);
  line("ts_vp[ts_k] = " + groupPtr + ";" + (mask.empty() ? "" : " ts_vm[ts_k] = " + groupMask + ";"));
  close();
  // Groups the axis analysis proves consecutive and aligned, under one mask value each (as for
  // stores below): the vector load alone, or `other` where the group's mask is false; no run-time
  // check and no element-wise path, whose branch per group kept the loads of a row apart.
  // Masked groups of 32-bit elements keep the checked path: on the H200 (2026-11-26, one build,
  // A/B by switching this choice) the proven form cost fp32 row sums 31%, column sums 24% and the
  // chunked layer norm 11%, while 16-bit (packed) groups gained 11% (fp16 softmax).
  std::set<int> assumedUnit;
  const AxisInfo ptrInfo = axisAnalysis().of(n.ptr, assumedUnit);
  if (assumedUnit.empty() && ptrInfo.contiguity >= vec && ptrInfo.divisibilityAt(vec) >= vec &&
      (mask.empty() || (packed && groupMask == "ts_m0"))) {
    if (mask.empty()) {
      if (packed) {
        line("ts_vld_words<" + V + ">(ts_vp[0], &" + words + "[ts_g * " + W + "]);  // proven consecutive and aligned");
      } else {
        line(mt + " ts_vv[" + V + "];");
        line("ts_vld(ts_vp[0], ts_vv);  // proven consecutive and aligned");
        line("#pragma unroll");
        line(each + " " + name + "[" + slot + "] = " + fromMemory(t.dtype(), "ts_vv[ts_k]") + ";");
      }
    } else {
      // Packed (the condition above): the words start as `other`, then one predicated load (no
      // branch per group, so ptxas may schedule the loads next to their use, as Triton's are).
      if (otherValue) {
        char word[16];
        std::snprintf(word, sizeof word, "0x%08llxu",
                      static_cast<unsigned long long>(sim::floatToBits(t.dtype(), *otherValue) * 0x10001u));
        line("#pragma unroll");
        line("for (int ts_w = 0; ts_w < " + W + "; ++ts_w) " + words + "[ts_g * " + W + " + ts_w] = " + word + ";");
      } else {
        line(mt + " ts_ev[" + V + "];");
        line("#pragma unroll");
        open(each);
        line(at);
        line("ts_ev[ts_k] = " + otherMemory + ";");
        close();
        line("#pragma unroll");
        line("for (int ts_w = 0; ts_w < " + W + "; ++ts_w) " + words + "[ts_g * " + W + " + ts_w] = ts_pack2(ts_ev[2 * ts_w], ts_ev[2 * ts_w + 1]);");
      }
      line("ts_vld_words_if<" + V + ">(ts_vp[0], &" + words + "[ts_g * " + W + "], ts_m0);  // proven consecutive and aligned");
    }
  } else {
    open("if (ts_vec_ok(ts_vp" + std::string(mask.empty() ? "" : ", ts_vm") + "))");
    if (packed) {
      line("ts_vld_words<" + V + ">(ts_vp[0], &" + words + "[ts_g * " + W + "]);");
    } else {
      line(mt + " ts_vv[" + V + "];");
      line("ts_vld(ts_vp[0], ts_vv);");
      line("#pragma unroll");
      line(each + " " + name + "[" + slot + "] = " + fromMemory(t.dtype(), "ts_vv[ts_k]") + ";");
    }
    close("} else {");
    ++indent_;
    // Element-wise: memory elements (then packed) or register values.
    const std::string E = packed ? mt : T;
    const std::string element = packed ? "*ts_vp[ts_k]" : fromMemory(t.dtype(), "*ts_vp[ts_k]");
    const std::string target = packed ? "ts_ev[ts_k]" : name + "[ts_j]";
    if (packed) line(mt + " ts_ev[" + V + "];");
    line("#pragma unroll");
    open(each);
    line(at);
    if (mask.empty()) line(target + " = " + element + ";");
    else line("{ " + E + " ts_v = " + (packed ? otherMemory : other) + "; if (ts_vm[ts_k]) ts_v = " + element + "; " +
              target + " = ts_v; }");
    close();
    if (packed) {
      line("#pragma unroll");
      line("for (int ts_w = 0; ts_w < " + W + "; ++ts_w) " + words + "[ts_g * " + W + " + ts_w] = ts_pack2(ts_ev[2 * ts_w], ts_ev[2 * ts_w + 1]);");
    }
    close();
  }
  closeGroups(numel);
  if (packedVar >= 0) {
    packedLoads_[packedVar] = words;
  } else if (packed) {
    line("#pragma unroll");
    line("for (int ts_j = 0; ts_j < " + std::to_string(slots(numel)) + "; ++ts_j) " + name + "[ts_j] = " +
         fromMemory(t.dtype(), "ts_half(" + words + "[ts_j / 2], ts_j % 2)") + ";");
  }
}

std::string CudaEmitter::storedValue(const ir::Expr& value, DType dt) {
  // An fp32 value rounded to fp16/bf16/fp8 (the checker's cast to the pointer's element) and then
  // converted to memory bits is one conversion: the rounding is the conversion's own.
  const auto* cast = value.as<ir::Cast>();
  if (cast && (dt == DType::FP16 || dt == DType::BF16 || ir::isFp8(dt)) && value.type().dtype() == dt && !cast->bitcast &&
      cast->rounding == ir::RoundingMode::None && !value.type().isPointer() && cast->value.type().dtype() == DType::FP32)
    return toMemory(dt, expr(cast->value));
  const std::string e = expr(value);
  // A 16-bit value read from 16-bit bits (a packed load, a transposed fp16 tile) is stored as those bits.
  const std::string widened = dt == DType::FP16 ? "ts_h2f(" : dt == DType::BF16 ? "ts_b2f(" : "";
  if (!widened.empty() && value.type().dtype() == dt && e.rfind(widened, 0) == 0 && e.back() == ')') {
    int depth = 0;
    size_t closes = 0;
    for (size_t i = widened.size() - 1; i < e.size(); ++i) {
      depth += e[i] == '(' ? 1 : e[i] == ')' ? -1 : 0;
      if (depth == 0) {
        closes = i;
        break;
      }
    }
    if (closes == e.size() - 1) return e.substr(widened.size(), e.size() - widened.size() - 1);
  }
  return toMemory(dt, e);
}

std::string CudaEmitter::maskOfGroup(const ir::Expr& maskExpr, const std::string& mask, int vec) {
  // Groups start at multiples of vec along the last dimension; a mask constant over such runs (Triton's
  // axis constancy: `cols < N` with N divisible by 16) is evaluated once per group, at its first element.
  std::set<int> assumedUnit;
  if (axisAnalysis().of(maskExpr, assumedUnit).constancy < vec || !assumedUnit.empty()) return mask;
  line("bool ts_m0;");
  open("");
  line("const int ts_j = ts_g * " + std::to_string(vec) + ", ts_i = ts_i0;");
  line("ts_m0 = " + mask + ";");
  close();
  return "ts_m0";
}

std::string CudaEmitter::pointerOfGroup(const ir::Expr& ptrExpr, const std::string& ptr, int vec, const std::string& memType) {
  // Pointers contiguous over runs of vec along the last dimension (Triton's axis contiguity): the
  // group's address is computed once, at its first element, and the others follow from it. The
  // vector access still checks the alignment at run time.
  std::set<int> assumedUnit;
  if (axisAnalysis().of(ptrExpr, assumedUnit).contiguity < vec || !assumedUnit.empty()) return ptr;
  line(memType + "* ts_p0;");
  open("");
  line("const int ts_j = ts_g * " + std::to_string(vec) + ", ts_i = ts_i0;");
  line("ts_p0 = " + ptr + ";");
  close();
  return "ts_p0 + ts_k";
}

bool CudaEmitter::packs(const ir::Type& t) const {
  return (t.dtype() == DType::FP16 || t.dtype() == DType::BF16) && layout(t.numel()).vec % 2 == 0 &&
         slots(t.numel()) <= maxUnrolledSlots();
}

// A tile store with vec > 1: one vector store per group whose pointers are consecutive and aligned
// and whose mask is all true; element-wise stores (only where the mask is true) otherwise.
void CudaEmitter::vectorStore(const ir::Store& n) {
  const int64_t numel = n.ptr.type().numel();
  const DType dt = n.ptr.type().dtype();
  const std::string V = std::to_string(layout(numel).vec);
  const std::string mt = memType(dt);
  const std::string ptr = expr(n.ptr);
  const std::string stored = storedValue(n.value, dt);
  const std::string mask = n.mask ? expr(n.mask) : "";
  const std::string each = "for (int ts_k = 0; ts_k < " + V + "; ++ts_k)";
  openGroups(numel);
  line(mt + "* ts_vp[" + V + "]; " + mt + " ts_vv[" + V + "];" + (mask.empty() ? "" : " bool ts_vm[" + V + "];"));
  const std::string groupMask = mask.empty() ? "" : maskOfGroup(n.mask, mask, layout(numel).vec);
  const std::string groupPtr = pointerOfGroup(n.ptr, ptr, layout(numel).vec, mt);
  line("#pragma unroll");
  open(each);
  line("const int ts_j = ts_g * " + V + " + ts_k, ts_i = ts_i0 + ts_k;");
  line("ts_vp[ts_k] = " + groupPtr + "; ts_vv[ts_k] = " + stored + ";" + (mask.empty() ? "" : " ts_vm[ts_k] = " + groupMask + ";"));
  close();
  // Groups the axis analysis proves consecutive and aligned to the access, with one mask value per
  // group (`rn < N` for N divisible by 16): the vector store needs no run-time check and no
  // element-wise path (`c_ptr + rm * stride_cm + rn` with 16-divisible strides).
  std::set<int> assumedUnit;
  const AxisInfo ptrInfo = axisAnalysis().of(n.ptr, assumedUnit);
  const int vec = layout(numel).vec;
  if (assumedUnit.empty() && ptrInfo.contiguity >= vec && ptrInfo.divisibilityAt(vec) >= vec &&
      (mask.empty() || groupMask == "ts_m0")) {
    // Masked: a predicated store rather than a branch per group (one basic block for ptxas).
    line(std::string(mask.empty() ? "ts_vst(ts_vp[0], ts_vv)" : "ts_vst_if(ts_vp[0], ts_vv, ts_m0)") +
         ";  // proven consecutive and aligned");
    closeGroups(numel);
    return;
  }
  open("if (ts_vec_ok(ts_vp" + std::string(mask.empty() ? "" : ", ts_vm") + "))");
  line("ts_vst(ts_vp[0], ts_vv);");
  close("} else {");
  ++indent_;
  line("#pragma unroll");
  line(each + (mask.empty() ? " " : " if (ts_vm[ts_k]) ") + "*ts_vp[ts_k] = ts_vv[ts_k];");
  close();
  closeGroups(numel);
}

}  // namespace tilescope::gpu
