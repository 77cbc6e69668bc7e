// The emission of a loop the layout pass (core/gpu/passes/LayoutAssignment) keeps in tensor-core
// registers: it prints what the kernel's layout table says and decides nothing of its own.
//   #mma       value: X/2 fp32 registers per thread, slot j of a [16 warps, X] tile at row
//              16 warp + lane/4 + 8 ((j >> 1) & 1), column 8 (j >> 2) + 2 (lane % 4) + (j & 1);
//   #slice     row vector: 2 registers per thread (rows lane/4 and lane/4 + 8 of its warp);
//              reductions are quad shuffles, `m[:, None]` reads them;
//   #dot_op<a> mma.sync's A fragments (2 x 16-bit floats per register), built from #mma registers
//              (p.to(fp16)) or once on entry through shared memory (q);
//   #shared<b> a ring of two shared-memory stages per B operand, rows padded by 16 bytes, filled by
//              cp.async one iteration ahead and read by ldmatrix (.trans for a row-major B).
// The conversions at the loop's ends are the layout pass's ConvertLayout statements around the
// loop (a Let per A operand converted once on entry, an Assign per carried value on entry, unless
// remove-layout-conversions rematerialised a constant there, and one per carried value on exit):
// each is printed as it says, through shared memory.
#include <algorithm>

#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"
#include "core/gpu/passes/VarCensus.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::gpu {

namespace {

void flattenBody(const ir::Stmt& s, std::vector<ir::Stmt>& out) {
  if (!s) return;
  if (const auto* seq = s.as<ir::Seq>()) {
    for (const ir::Stmt& c : seq->stmts) flattenBody(c, out);
    return;
  }
  out.push_back(s);
}

// Whether e reads a value the register loop holds in a layout (so it cannot be evaluated at an
// arbitrary element index).
class RegionReads : public ir::IRVisitor {
public:
  const std::map<int, std::string>& names;
  bool found = false;
  explicit RegionReads(const std::map<int, std::string>& n) : names(n) {}

protected:
  void visitVarRef(const ir::VarRef& n) override { found = found || names.count(n.var->id) > 0; }
  void visitReduce(const ir::Reduce& n) override {
    found = true;
    ir::IRVisitor::visitReduce(n);
  }
  void visitDot(const ir::Dot& n) override {
    found = true;
    ir::IRVisitor::visitDot(n);
  }
};

bool isConstantSplat(const ir::Expr& e) {
  const auto* s = e.as<ir::Splat>();
  return s && (s->value.as<ir::FloatImm>() || s->value.as<ir::IntImm>());
}

const ir::ConvertLayout* conversionTo(const ir::Expr& e, std::initializer_list<ir::LayoutKind> kinds) {
  const auto* c = e.as<ir::ConvertLayout>();
  if (!c) return nullptr;
  for (ir::LayoutKind k : kinds)
    if (c->layout.kind == k) return c;
  return nullptr;
}

// One of the layout pass's statements before a register loop (`loop`: its body's census): an A
// operand converted once on entry, or a value the loop carries converted (or its constant
// rematerialised) into its layout; each var once, so a user's own assignment before those stays
// an ordinary statement.
bool isEntryConversion(const ir::Stmt& s, const VarCensus& loop, std::set<int>& seen) {
  if (const auto* let = s.as<ir::Let>()) {
    const ir::ConvertLayout* c = conversionTo(let->value, {ir::LayoutKind::DotOperandA});
    return c && c->layout.convertedOnEntry && seen.insert(let->var->id).second;
  }
  const auto* a = s.as<ir::Assign>();
  if (!a || !loop.assigns.count(a->var->id)) return false;
  if (!conversionTo(a->value, {ir::LayoutKind::Mma, ir::LayoutKind::RowSlice}) && !isConstantSplat(a->value)) return false;
  return seen.insert(a->var->id).second;
}

// A carried value converted back to the blocked layout after the loop.
bool isExitConversion(const ir::Stmt& s, const VarCensus& loop, std::set<int>& seen) {
  const auto* a = s.as<ir::Assign>();
  if (!a || !loop.assigns.count(a->var->id)) return false;
  const ir::ConvertLayout* c = conversionTo(a->value, {ir::LayoutKind::Blocked});
  const auto* ref = c ? c->value.as<ir::VarRef>() : nullptr;
  return ref && ref->var->id == a->var->id && seen.insert(a->var->id).second;
}

// The var of a dot's B operand (`v` or the `k` of `tl.trans(k)`).
int bOperandId(const ir::Dot& n) {
  const ir::VarRef* ref = n.b.as<ir::VarRef>();
  if (!ref) ref = n.b.as<ir::Permute>()->value.as<ir::VarRef>();
  return ref->var->id;
}

}  // namespace

std::string registerLoopPrelude() {
  return R"(// ---- register-resident loops (mma.sync m16n8k16, ldmatrix, quad shuffles) ----
TS_DEV void ts_ldsm4(ts_u32* r, const void* p) {
  const unsigned a = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a) : "memory");
}
TS_DEV void ts_ldsm4_t(ts_u32* r, const void* p) {
  const unsigned a = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a) : "memory");
}
TS_DEV void ts_mma16816_f16(float* c, const ts_u32* a, ts_u32 b0, ts_u32 b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
TS_DEV void ts_mma16816_bf16(float* c, const ts_u32* a, ts_u32 b0, ts_u32 b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
// Two floats rounded to 16-bit floats in one register, lo in the low half (mma.sync's order).
TS_DEV ts_u32 ts_pack_f16(float lo, float hi) { ts_u32 r; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }
TS_DEV ts_u32 ts_pack_bf16(float lo, float hi) { ts_u32 r; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }
// ---- end of register-resident loops ----
)";
}

bool CudaEmitter::isRegisterLoop(const ir::For& n) const { return kernel_.registerLoops.count(n.iv->id) > 0; }

std::map<size_t, std::pair<size_t, size_t>> CudaEmitter::registerLoopGroups(const std::vector<ir::Stmt>& stmts) const {
  std::map<size_t, std::pair<size_t, size_t>> groups;
  for (size_t j = 0; j < stmts.size(); ++j) {
    const auto* loop = stmts[j].as<ir::For>();
    if (!loop || !isRegisterLoop(*loop)) continue;
    VarCensus census;
    census.visitStmt(loop->body);
    std::set<int> seen;
    size_t start = j;
    while (start > 0 && isEntryConversion(stmts[start - 1], census, seen)) --start;
    seen.clear();
    size_t end = j + 1;
    while (end < stmts.size() && isExitConversion(stmts[end], census, seen)) ++end;
    groups[start] = {j, end};
  }
  return groups;
}

const ir::TileLayout* CudaEmitter::layoutOf(int varId) const {
  auto it = kernel_.layouts.find(varId);
  return it == kernel_.layouts.end() || it->second.kind == ir::LayoutKind::Blocked ? nullptr : &it->second;
}

void CudaEmitter::openRegisterSlots(const ir::Type& t) {
  line("#pragma unroll");
  if (t.rank() == 1) {
    open("for (int ts_j = 0; ts_j < 2; ++ts_j)");
    line("const unsigned ts_i = (unsigned)(ts_rrow + ts_j * 8);");
    return;
  }
  const int64_t X = t.shape()[1];
  open("for (int ts_j = 0; ts_j < " + n2s(X / 2) + "; ++ts_j)");
  // Unsigned: the row and column that index-pure values take back out of it (ts_i / X, ts_i % X)
  // are then plain shifts and masks (a causal mask's registers: 208 -> 165).
  line("const unsigned ts_i = (unsigned)((ts_rrow + ((ts_j >> 1) & 1) * 8) * " + n2s(X) +
       " + (ts_j >> 2) * 8 + ts_rquad * 2 + (ts_j & 1));");
}

int64_t CudaEmitter::registerSlots(const ir::Type& t) { return t.rank() == 1 ? 2 : t.shape()[1] / 2; }

std::optional<std::string> CudaEmitter::registerExpr(const ir::Expr& e) {
  using K = ir::ExprKind;
  switch (e.kind()) {
    case K::VarRef: {
      auto it = registerNames_.find(e.as<ir::VarRef>()->var->id);
      if (it == registerNames_.end()) return std::nullopt;
      if (index_ != "ts_i") throw NotIndexable{};
      return it->second + "[ts_j]";
    }
    case K::Broadcast: {
      const auto* x = e.as<ir::Broadcast>()->value.as<ir::ExpandDims>();
      if (!x || x->axis != 1 || e.type().rank() != 2) return std::nullopt;
      RegionReads reads(registerNames_);
      reads.visitExpr(x->value);
      if (!reads.found) return std::nullopt;
      // A row of the slice broadcast along the accumulator's columns: the thread's own registers.
      std::string rowsName;
      if (const auto* ref = x->value.as<ir::VarRef>()) rowsName = registerNames_.at(ref->var->id);
      else {
        const std::string v = expr(x->value);
        rowsName = "t" + std::to_string(tempCounter_++);
        line(regType(x->value.type()) + " " + rowsName + "[2];");
        openRegisterSlots(x->value.type());
        line(rowsName + "[ts_j] = " + v + ";");
        close();
      }
      return rowsName + "[(ts_j >> 1) & 1]";
    }
    case K::Reduce: return registerReduce(*e.as<ir::Reduce>());
    case K::Dot: return registerDot(*e.as<ir::Dot>());
    default: return std::nullopt;
  }
}

std::string CudaEmitter::registerReduce(const ir::Reduce& n) {
  // Each thread folds its slots of its two rows, then the quad (the 4 lanes sharing those rows)
  // by two shuffles: no shared memory, since a warp owns whole rows.
  const std::string v = expr(n.value);
  const bool max = n.op == ir::ReduceOp::Max;
  const std::string r = "t" + std::to_string(tempCounter_++);
  line(std::string("float ") + r + "[2] = {" + (max ? "-__int_as_float(0x7f800000), -__int_as_float(0x7f800000)" : "0.0f, 0.0f") + "};");
  openRegisterSlots(n.value.type());
  line("const float ts_x = " + v + ";");
  const std::string slot = r + "[(ts_j >> 1) & 1]";
  line(slot + " = " + (max ? "fmaxf(" + slot + ", ts_x)" : slot + " + ts_x") + ";");
  close();
  line("#pragma unroll");
  open("for (int ts_h = 0; ts_h < 2; ++ts_h)");
  for (int lane : {1, 2}) {
    const std::string other = "__shfl_xor_sync(0xffffffffu, " + r + "[ts_h], " + std::to_string(lane) + ")";
    line(r + "[ts_h] = " + (max ? "fmaxf(" + r + "[ts_h], " + other + ")" : r + "[ts_h] + " + other) + ";");
  }
  close();
  return r + "[ts_j]";
}

std::string CudaEmitter::registerDot(const ir::Dot& n) {
  const ir::Type& at = n.a.type();
  const int64_t N = n.type.shape()[1], Kd = at.shape()[1];
  const bool bf16 = at.dtype() == ir::DType::BF16;
  const std::string c = "t" + std::to_string(tempCounter_++);
  // The accumulator: the acc operand evaluated in the #mma layout, or zeros.
  if (n.acc.defined()) {
    const std::string acc = expr(n.acc);
    line("float " + c + "[" + n2s(N / 2) + "];");
    openRegisterSlots(n.type);
    line(c + "[ts_j] = " + acc + ";");
    close();
  } else {
    line("float " + c + "[" + n2s(N / 2) + "] = {};");
  }
  // A: fragments converted on entry, or packed from #mma registers (#dot_op<a>).
  std::string frags;
  if (const auto* ref = n.a.as<ir::VarRef>(); ref && operandSharedA_.count(ref->var->id)) {
    registerWarpgroupDot(n, c, "", registerRing_ + " + ts_rslot * " + std::to_string(registerStageBytes_) + " + " +
                                       std::to_string(registerStages_.at(bOperandId(n)).offset),
                         registerRing_ + " + " + std::to_string(operandSharedA_.at(ref->var->id)));
    return c + "[ts_j]";
  } else if (const auto* ref = n.a.as<ir::VarRef>(); ref && operandFrags_.count(ref->var->id)) {
    frags = operandFrags_.at(ref->var->id);
  } else {
    // p.to(fp16) as A: the layout pass's conversion from #mma registers to #dot_op<a> fragments.
    const ir::ConvertLayout* conversion = conversionTo(n.a, {ir::LayoutKind::DotOperandA});
    if (!conversion) throw lang::InternalError("cuda codegen: a register loop's dot has an A operand in no #dot_op<a> layout");
    // A cast of fp32 values to the operand's type rounds once, in the packing.
    ir::Expr source = conversion->value;
    if (const auto* cast = source.as<ir::Cast>(); cast && !cast->bitcast && cast->rounding == ir::RoundingMode::None &&
                                                  cast->value.type().dtype() == ir::DType::FP32)
      source = cast->value;
    const std::string v = expr(source);
    const std::string vals = "t" + std::to_string(tempCounter_++);
    line("float " + vals + "[" + n2s(Kd / 2) + "];");
    openRegisterSlots(at);
    line(vals + "[ts_j] = " + v + ";");
    close();
    frags = "t" + std::to_string(tempCounter_++);
    line("ts_u32 " + frags + "[" + n2s(Kd / 16) + "][4];");
    const std::string pack = bf16 ? "ts_pack_bf16" : "ts_pack_f16";
    line("#pragma unroll");
    open("for (int ts_k = 0; ts_k < " + n2s(Kd / 16) + "; ++ts_k)");
    // k-step ts_k covers the accumulator's n-blocks 2 ts_k (a0..a3) and 2 ts_k + 1 (a4..a7).
    line(frags + "[ts_k][0] = " + pack + "(" + vals + "[ts_k * 8 + 0], " + vals + "[ts_k * 8 + 1]);");
    line(frags + "[ts_k][1] = " + pack + "(" + vals + "[ts_k * 8 + 2], " + vals + "[ts_k * 8 + 3]);");
    line(frags + "[ts_k][2] = " + pack + "(" + vals + "[ts_k * 8 + 4], " + vals + "[ts_k * 8 + 5]);");
    line(frags + "[ts_k][3] = " + pack + "(" + vals + "[ts_k * 8 + 6], " + vals + "[ts_k * 8 + 7]);");
    close();
  }
  // B from its shared-memory stage.
  const ir::VarRef* bref = n.b.as<ir::VarRef>();
  if (!bref) bref = n.b.as<ir::Permute>()->value.as<ir::VarRef>();
  const RegisterStage& s = registerStages_.at(bref->var->id);
  if (s.swizzled) {
    registerWarpgroupDot(n, c, frags,
                         registerRing_ + " + ts_rslot * " + std::to_string(registerStageBytes_) + " + " + std::to_string(s.offset));
    return c + "[ts_j]";
  }
  const std::string base = "((const ts_u16*)(" + registerRing_ + " + ts_rslot * " + std::to_string(registerStageBytes_) + " + " +
                           std::to_string(s.offset) + "))";
  const std::string mma = bf16 ? "ts_mma16816_bf16" : "ts_mma16816_f16";
  line("#pragma unroll");
  open("for (int ts_k = 0; ts_k < " + n2s(Kd / 16) + "; ++ts_k)");
  line("#pragma unroll");
  open("for (int ts_n = 0; ts_n < " + n2s(N / 16) + "; ++ts_n)");
  line("ts_u32 ts_b[4];");
  if (s.transposed) {
    // The stage holds B's columns as rows (k's rows): ldmatrix gives each lane B's column pairs.
    line("ts_ldsm4(ts_b, " + base + " + (ts_n * 16 + ((ts_lane >> 4) << 3) + (ts_lane & 7)) * " + n2s(s.ld) +
         " + ts_k * 16 + ((ts_lane >> 3) & 1) * 8);");
  } else {
    line("ts_ldsm4_t(ts_b, " + base + " + (ts_k * 16 + ((ts_lane >> 3) & 1) * 8 + (ts_lane & 7)) * " + n2s(s.ld) +
         " + ts_n * 16 + (ts_lane >> 4) * 8);");
  }
  line(mma + "(&" + c + "[ts_n * 8], " + frags + "[ts_k], ts_b[0], ts_b[1]);");
  line(mma + "(&" + c + "[ts_n * 8 + 4], " + frags + "[ts_k], ts_b[2], ts_b[3]);");
  close();
  close();
  return c + "[ts_j]";
}

void CudaEmitter::stageRegisterOperands(const std::string& slot) {
  // Every B operand of the iteration whose induction value is in scope: 16-byte cp.async chunks
  // where the axis analysis proves them whole and aligned, else element copies.
  for (const auto& [id, s] : registerStages_) {
    const ir::Load& load = *s.load;
    const int64_t rows = s.rows, cols = s.cols, chunks = rows * cols / 8;
    const std::string dst = "((ts_u16*)(" + registerRing_ + " + (" + slot + ") * " + std::to_string(registerStageBytes_) + " + " +
                            std::to_string(s.offset) + "))";
    if (s.wholeChunks) {
      line("#pragma unroll");
      open("for (int ts_c = ts_tid; ts_c < " + n2s(chunks) + "; ts_c += " + std::to_string(threads_) + ")");
      const std::string index = "(ts_c / " + n2s(cols / 8) + " * " + n2s(cols) + " + ts_c % " + n2s(cols / 8) + " * 8)";
      const std::string ptr = withIndex(index, load.ptr);
      if (s.swizzled) {
        // Chunk c8 of row r: panel c8 / 8, then chunk (c8 % 8) ^ (r % 8) of the row's 128 bytes.
        line("const int ts_r = ts_c / " + n2s(cols / 8) + ", ts_c8 = ts_c % " + n2s(cols / 8) + ";");
        line("ts_cp_async16(" + dst + " + (ts_c8 >> 3) * " + n2s(rows * 64) + " + ts_r * 64 + (((ts_c8 & 7) ^ (ts_r & 7)) << 3), " +
             ptr + ");");
      } else {
        line("ts_cp_async16(" + dst + " + ts_c / " + n2s(cols / 8) + " * " + n2s(s.ld) + " + ts_c % " + n2s(cols / 8) + " * 8, " +
             ptr + ");");
      }
      close();
    } else {
      line("#pragma unroll 4");
      open("for (int ts_e = ts_tid; ts_e < " + n2s(rows * cols) + "; ts_e += " + std::to_string(threads_) + ")");
      // Masked or not provably whole chunks: element copies (masked-off elements get `other`).
      const std::string ptr = withIndex("ts_e", load.ptr);
      std::string value = "*(const ts_u16*)(" + ptr + ")";
      if (load.mask.defined()) {
        const std::string other =
            load.other.defined() ? std::string(s.bf16 ? "ts_f2b(" : "ts_f2h(") + withIndex("ts_e", load.other) + ")" : "(ts_u16)0";
        value = "((" + withIndex("ts_e", load.mask) + ") ? " + value + " : " + other + ")";
      }
      if (s.swizzled) {
        line("const int ts_r = ts_e / " + n2s(cols) + ", ts_cc = ts_e % " + n2s(cols) + ";");
        line(dst + "[(ts_cc >> 6) * " + n2s(rows * 64) + " + ts_r * 64 + ((((ts_cc & 63) >> 3) ^ (ts_r & 7)) << 3) + (ts_cc & 7)] = " +
             value + ";");
      } else {
        line(dst + "[ts_e / " + n2s(cols) + " * " + n2s(s.ld) + " + ts_e % " + n2s(cols) + "] = " + value + ";");
      }
      close();
    }
  }
}

void CudaEmitter::registerLoop(const ir::For& n, const std::vector<ir::Stmt>& entry, const std::vector<ir::Stmt>& exit) {
  std::vector<ir::Stmt> body;
  flattenBody(n.body, body);
  tensorCores_ = true;
  registerLoopUsed_ = true;
  result_.usesTensorCores = true;
  memoryBarrierIfNeeded();
  line("// loop '" + n.iv->name + "' in tensor-core registers (layouts from the assign-layouts pass)");
  open("");
  line("const int ts_lane = ts_tid & 31, ts_rrow = (ts_tid >> 5) * 16 + (ts_lane >> 2), ts_rquad = ts_lane & 3;");
  // The stages of the B operands.
  registerStages_.clear();
  registerStageBytes_ = 0;
  for (const ir::Stmt& s : body) {
    const auto* let = s.as<ir::Let>();
    const ir::TileLayout* l = let ? layoutOf(let->var->id) : nullptr;
    if (!l || l->kind != ir::LayoutKind::SharedOperand) continue;
    RegisterStage st;
    st.load = let->value.as<ir::Load>();
    st.rows = let->var->type.shape()[0];
    st.cols = let->var->type.shape()[1];
    st.swizzled = l->warpgroup;
    st.ld = st.swizzled ? st.cols : st.cols + 8;
    st.transposed = l->transposed;
    registerStageCount_ = l->stages;
    st.offset = registerStageBytes_;
    std::set<int> unit;
    const AxisInfo info = axisAnalysis().of(st.load->ptr, unit);
    st.wholeChunks = !st.load->mask.defined() && unit.empty() && st.cols % 8 == 0 && info.contiguity >= 8 &&
                     info.divisibilityAt(8) >= 8;
    st.bf16 = let->var->type.dtype() == ir::DType::BF16;
    registerStageBytes_ += static_cast<size_t>(st.rows * st.ld * 2);
    registerStages_[let->var->id] = st;
  }
  const bool swizzled = !registerStages_.empty() && registerStages_.begin()->second.swizzled;
  const int S = registerStageCount_;
  registerRing_ = "ts_smem";
  if (swizzled) {
    // The 128-byte swizzle repeats every 8 rows of 128 bytes: the ring starts on a 1024-byte boundary.
    registerRing_ = "ts_rring";
    line("unsigned char* const ts_rring = ts_smem + ((1024u - (ts_shared_addr(ts_smem) & 1023u)) & 1023u);");
  }
  // The body's index-pure tiles (offsets, pointers) are recomputed where used, so the copies one
  // iteration ahead can evaluate them before the body binds them.
  for (const ir::Stmt& s : body)
    if (const auto* let = s.as<ir::Let>(); let && !layoutOf(let->var->id) && kernel_.recomputedAtUse.count(let->var->id))
      inlined_[let->var->id] = let->value;
  size_t sharedNeeded = S * registerStageBytes_ + (swizzled ? 1024 : 0);
  // The layout pass's conversions on entry, in its order: A operands defined before the loop into
  // #dot_op<a> fragments (through shared memory once), carried values into their registers (a
  // rematerialised constant fills them; a conversion goes through shared memory).
  size_t entryOffset = S * registerStageBytes_;  // wgmma: A tiles staged after the ring
  line("__syncthreads();");
  for (const ir::Stmt& conversion : entry) {
    const auto* let = conversion.as<ir::Let>();
    if (!let) continue;
    const int id = let->var->id;
    const ir::ConvertLayout& c = *let->value.as<ir::ConvertLayout>();
    const ir::Type& type = c.value.type();
    const int64_t M = type.shape()[0], Kd = type.shape()[1], ld = Kd + 8;
    const bool bf16 = type.dtype() == ir::DType::BF16;
    if (c.layout.warpgroup) {
      // wgmma reads it from shared memory: staged once after the ring, in the 128-byte swizzle (the
      // loop's first fence and barrier make the stores visible to the tensor cores).
      const size_t offset = entryOffset;
      entryOffset += static_cast<size_t>(M * Kd * 2 + 1023) / 1024 * 1024;
      sharedNeeded = std::max(sharedNeeded, entryOffset + 1024);
      memo_.clear();
      openLoop(type.numel());
      line("const unsigned ts_r = ts_i / " + n2s(Kd) + ", ts_cc = ts_i % " + n2s(Kd) + ";");
      line("((ts_u16*)(ts_rring + " + std::to_string(offset) + "))[(ts_cc >> 6) * " + n2s(M * 64) +
           " + ts_r * 64 + ((((ts_cc & 63) >> 3) ^ (ts_r & 7)) << 3) + (ts_cc & 7)] = " + (bf16 ? "ts_f2b(" : "ts_f2h(") +
           expr(c.value) + ");");
      closeLoop(type.numel());
      operandSharedA_[id] = offset;
      continue;
    }
    sharedNeeded = std::max(sharedNeeded, static_cast<size_t>(M * ld * 2));
    memo_.clear();
    openLoop(type.numel());
    line("((ts_u16*)ts_smem)[(ts_i / " + n2s(Kd) + ") * " + n2s(ld) + " + ts_i % " + n2s(Kd) + "] = " +
         (bf16 ? "ts_f2b(" : "ts_f2h(") + expr(c.value) + ");");
    closeLoop(type.numel());
    line("__syncthreads();");
    const std::string frags = "ts_a" + std::to_string(tempCounter_++);
    operandFrags_[id] = frags;
    line("ts_u32 " + frags + "[" + n2s(Kd / 16) + "][4];");
    line("#pragma unroll");
    open("for (int ts_k = 0; ts_k < " + n2s(Kd / 16) + "; ++ts_k)");
    line("const ts_u16* ts_q = (const ts_u16*)ts_smem + ts_rrow * " + n2s(ld) + " + ts_k * 16 + ts_rquad * 2;");
    line(frags + "[ts_k][0] = *(const ts_u32*)ts_q;");
    line(frags + "[ts_k][1] = *(const ts_u32*)(ts_q + " + n2s(8 * ld) + ");");
    line(frags + "[ts_k][2] = *(const ts_u32*)(ts_q + 8);");
    line(frags + "[ts_k][3] = *(const ts_u32*)(ts_q + " + n2s(8 * ld + 8) + ");");
    close();
    line("__syncthreads();");
  }
  VarCensus census;
  census.visitStmt(n.body);
  for (const ir::Stmt& conversion : entry) {
    const auto* assign = conversion.as<ir::Assign>();
    if (!assign) continue;
    const ir::VarPtr& var = assign->var;
    const std::string name = "r" + std::to_string(var->id) + "_" + varName(var);
    line(regType(var->type) + " " + name + "[" + n2s(registerSlots(var->type)) + "];");
    memo_.clear();
    if (const auto* c = assign->value.as<ir::ConvertLayout>()) {
      sharedNeeded = std::max(sharedNeeded, static_cast<size_t>(var->type.numel() * 4));
      openLoop(var->type.numel());
      line("((float*)ts_smem)[ts_i] = " + expr(c->value) + ";");
      closeLoop(var->type.numel());
      line("__syncthreads();");
      openRegisterSlots(var->type);
      line(name + "[ts_j] = ((const float*)ts_smem)[ts_i];");
      close();
      line("__syncthreads();");
    } else {
      const std::string v = expr(assign->value);
      openRegisterSlots(var->type);
      line(name + "[ts_j] = " + v + ";");
      close();
    }
    registerNames_[var->id] = name;
  }
  for (const auto& [id, assigns] : census.assigns) {
    const ir::VarPtr& var = assigns.front()->var;
    if (!registerNames_.count(id))
      throw lang::InternalError("cuda codegen: the register loop's carried value '" + var->name + "' has no conversion on entry");
    if (var->type.dtype() != ir::DType::FP32) throw lang::InternalError("cuda codegen: a register loop carries a non-fp32 tile");
  }
  forgetAssignedIn(n.body);
  // The loop: iteration i's operands landed at its top; i + 1's are copied while it computes.
  memo_.clear();
  const std::string T = regType(n.iv->type);
  const std::string id = std::to_string(tempCounter_++);
  const std::string s = "ts_start" + id, e = "ts_end" + id, st = "ts_step" + id, c = "ts_iv" + id;
  line("const ts_i64 " + s + " = (ts_i64)(" + expr(n.start) + "), " + e + " = (ts_i64)(" + expr(n.end) + "), " + st + " = (ts_i64)(" +
       expr(n.step) + ");");
  line("int ts_rslot = 0;");
  // The prologue: iterations 0 .. S - 2 into slots 0 .. S - 2, one commit group each (empty past the
  // end, so that waiting for all but the last S - 2 groups always means this iteration's landed).
  for (int ahead = 0; ahead < S - 1; ++ahead) {
    const std::string at = ahead == 0 ? s : s + " + " + std::to_string(ahead) + " * " + st;
    open("if (" + at + " < " + e + ")");
    line("const " + T + " " + varName(n.iv) + " = (" + T + ")(" + at + ");");
    memo_.clear();
    stageRegisterOperands(std::to_string(ahead));
    close();
    line("ts_cp_commit();");
  }
  open("for (ts_i64 " + c + " = " + s + "; " + c + " < " + e + "; " + c + " += " + st + ")");
  line("ts_cp_wait<" + std::to_string(S - 2) + ">();");
  // cp.async's writes become visible to the tensor cores' (async proxy) reads.
  if (swizzled) line("ts_fence_async_shared();");
  line("__syncthreads();");
  const std::string next = S == 2 ? c + " + " + st : c + " + " + std::to_string(S - 1) + " * " + st;
  open("if (" + next + " < " + e + ")");
  line("const " + T + " " + varName(n.iv) + " = (" + T + ")(" + next + ");");
  memo_.clear();
  stageRegisterOperands(S == 2 ? "ts_rslot ^ 1" : "ts_rslot == 0 ? " + std::to_string(S - 1) + " : ts_rslot - 1");
  close();
  line("ts_cp_commit();");
  line("const " + T + " " + varName(n.iv) + " = (" + T + ")" + c + ";");
  inRegisterLoop_ = true;
  for (const ir::Stmt& stmtInBody : body) {
    memo_.clear();
    lineDirective(stmtInBody.range());
    if (const auto* let = stmtInBody.as<ir::Let>()) {
      const ir::TileLayout* l = layoutOf(let->var->id);
      if (l && l->kind == ir::LayoutKind::SharedOperand) continue;  // in its stage already
      if (l && (l->kind == ir::LayoutKind::Mma || l->kind == ir::LayoutKind::RowSlice)) {
        const std::string v = expr(let->value);
        const std::string name = "r" + std::to_string(let->var->id) + "_" + varName(let->var);
        line(regType(let->var->type) + " " + name + "[" + n2s(registerSlots(let->var->type)) + "];");
        openRegisterSlots(let->var->type);
        line(name + "[ts_j] = " + v + ";");
        close();
        registerNames_[let->var->id] = name;
        continue;
      }
      stmt(stmtInBody);
      continue;
    }
    const auto* assign = stmtInBody.as<ir::Assign>();
    const std::string v = expr(assign->value);
    openRegisterSlots(assign->var->type);
    line(registerNames_.at(assign->var->id) + "[ts_j] = " + v + ";");
    close();
  }
  inRegisterLoop_ = false;
  line(S == 2 ? "ts_rslot ^= 1;" : "ts_rslot = ts_rslot == " + std::to_string(S - 1) + " ? 0 : ts_rslot + 1;");
  close();
  // After the loop: every copy landed; the carried values back in the blocked layout.
  memo_.clear();
  line("ts_cp_wait<0>();");
  line("__syncthreads();");
  for (const ir::Stmt& conversion : exit) {
    const ir::VarPtr& var = conversion.as<ir::Assign>()->var;
    const std::string name = registerNames_.at(var->id);
    openRegisterSlots(var->type);
    line(std::string(var->type.rank() == 1 ? "if (ts_rquad == 0) " : "") + "((float*)ts_smem)[ts_i] = " + name + "[ts_j];");
    close();
    line("__syncthreads();");
    sharedNeeded = std::max(sharedNeeded, static_cast<size_t>(var->type.numel() * 4));
    openLoop(var->type.numel());
    line(varName(var) + "[ts_j] = ((const float*)ts_smem)[ts_i];");
    closeLoop(var->type.numel());
    line("__syncthreads();");
  }
  close();
  registerNames_.clear();
  operandFrags_.clear();
  operandSharedA_.clear();
  useShared(sharedNeeded);
}

}  // namespace tilescope::gpu
