// Software pipelining of a resident tensor-core dot's K loop (CudaEmitter::Pipeline): the operand
// loads of later iterations run ahead into a ring of shared-memory stages through cp.async, so the
// tensor cores never wait for global memory, as Triton's num_stages does.
#include <algorithm>

#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"
#include "core/gpu/passes/VarCensus.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::gpu {

namespace {

constexpr int kChunkBytes = 16;              // one cp.async
constexpr size_t kSharedLimit = 200 * 1024;  // what one SM offers, with room for the compiler's own

// Elements of a load per 16-byte chunk: 8 fp16/bf16, 4 fp32 (tf32 dots).
int64_t chunkElems(const ir::Load& load) { return kChunkBytes / (ir::bitWidth(load.type.dtype()) / 8); }

// Whether a loop body holds nothing but Lets and Assigns (in Seqs).
bool onlyLetsAndAssigns(const ir::Stmt& s) {
  if (const auto* seq = s.as<ir::Seq>()) {
    for (const ir::Stmt& c : seq->stmts)
      if (!onlyLetsAndAssigns(c)) return false;
    return true;
  }
  return s.as<ir::Let>() || s.as<ir::Assign>();
}

class VarRefs : public ir::IRVisitor {
public:
  std::vector<ir::VarPtr> vars;
  void visitVarRef(const ir::VarRef& n) override { vars.push_back(n.var); }
};

std::vector<ir::VarPtr> varsRead(const ir::Expr& e) {
  VarRefs refs;
  refs.visitExpr(e);
  return refs.vars;
}

}  // namespace

std::optional<CudaEmitter::Pipeline> CudaEmitter::pipelineFor(const ir::For& loop, const ResidentAccumulator& r) const {
  if (options_.smArch < 80 || kernel_.options.numStages < 2) return std::nullopt;
  const auto* seq = loop.body.as<ir::Seq>();
  if (!seq) return std::nullopt;
  if (!onlyLetsAndAssigns(loop.body)) return std::nullopt;
  VarCensus body;
  body.visitStmt(loop.body);
  // `a @ b.T` with b loaded N x K: only wgmma reads such a B (K-major) straight from the ring.
  const bool bTransposed =
      !r.dot->b.as<ir::VarRef>() && transposedVarRef(r.dot->b) && r.layout.elem != "tf32" && warpgroupMmaFor(r.layout);
  const std::map<int, const ir::Load*> loads = deferrableOperandLoads(loop, r, bTransposed);
  const auto* aRef = r.dot->a.as<ir::VarRef>();
  const auto* bRef = bTransposed ? transposedVarRef(r.dot->b) : r.dot->b.as<ir::VarRef>();
  if (!aRef || !bRef || !loads.count(aRef->var->id) || !loads.count(bRef->var->id)) return std::nullopt;

  // Where the dot and each top-level assign are in the body: an induction step must come after the
  // dot, so the loads of iteration i see the offsets as they are when iteration i starts.
  size_t dotAt = 0;
  std::map<int, size_t> assignAt;
  for (size_t i = 0; i < seq->stmts.size(); ++i) {
    if (const auto* let = seq->stmts[i].as<ir::Let>(); let && let->var->id == r.result->id) dotAt = i;
    if (const auto* a = seq->stmts[i].as<ir::Assign>()) assignAt[a->var->id] = i;
  }

  Pipeline p;
  p.loop = &loop;
  std::map<int, int> stepLetOf;  // induction tile id -> id of the Let `tile + splat(step)`
  for (const auto& [letId, step] : inductionSteps_) stepLetOf[step.tile] = letId;
  // Every var the loads read must be computable for a later iteration from what is known now.
  std::vector<ir::Expr> pending;
  for (const ir::Load* load : {loads.at(aRef->var->id), loads.at(bRef->var->id)})
    for (const ir::Expr* e : {&load->ptr, &load->mask, &load->other})
      if (e->defined()) pending.push_back(*e);
  std::set<int> seen;
  while (!pending.empty()) {
    const ir::Expr e = pending.back();
    pending.pop_back();
    for (const ir::VarPtr& v : varsRead(e)) {
      if (!seen.insert(v->id).second || v->id == loop.iv->id) continue;
      if (auto let = body.lets.find(v->id); let != body.lets.end()) {
        const ir::Expr& value = let->second->value;
        if (v->isMutable || value.hasEffects() || !inlinable(value)) return std::nullopt;
        p.bodyValues[v->id] = value;
        pending.push_back(value);
        continue;
      }
      if (!body.assigns.count(v->id)) {
        // Declared before the loop and not changed in it; a tile must be recomputable at any index.
        if (v->type.isTile() && !inlined_.count(v->id)) return std::nullopt;
        continue;
      }
      auto at = assignAt.find(v->id);
      if (std::optional<ir::Expr> step = axisAnalysis().scalarInductionStep(v->id)) {
        // A scalar `v = v + step` after the dot (a block pointer's offset): v + n * step later.
        if (at == assignAt.end() || at->second < dotAt) return std::nullopt;
        for (const ir::VarPtr& s : varsRead(*step))
          if (s->id == loop.iv->id || body.lets.count(s->id) || body.assigns.count(s->id)) return std::nullopt;
        p.scalarSteps[v->id] = {v, *step};
        continue;
      }
      auto ind = induction_.find(v->id);
      auto stepLet = stepLetOf.find(v->id);
      if (ind == induction_.end() || stepLet == stepLetOf.end() || body.assignCount(v->id) != 1 || at == assignAt.end() ||
          at->second < dotAt)
        return std::nullopt;
      const ir::Expr& step = inductionSteps_.at(stepLet->second).step;
      for (const ir::VarPtr& s : varsRead(step))
        if (s->id == loop.iv->id || body.lets.count(s->id) || body.assigns.count(s->id)) return std::nullopt;
      p.inductionSteps[v->id] = step;
    }
  }

  // 16-byte chunks: one pointer and one mask per chunk (or a mask at both ends of an interval).
  const AxisAnalysis& axes = axisAnalysis();
  std::set<int> maskAtEnds;  // load var ids
  for (const ir::VarRef* ref : {aRef, bRef}) {
    const ir::Load* load = loads.at(ref->var->id);
    // 16-bit operands, or fp32 ones of a tf32 dot (staged as loaded, rounded as the fragments are read).
    const int bits = ir::bitWidth(load->type.dtype());
    if (!(bits == 16 || (bits == 32 && r.layout.elem == "tf32")) || load->isVolatile) return std::nullopt;
    const int64_t chunk = chunkElems(*load);
    if (axes.of(load->ptr, p.unitParams).contiguity < chunk) return std::nullopt;
    if (load->mask.defined() && axes.of(load->mask, p.unitParams).constancy < chunk) {
      if (!axes.intervalOverRuns(load->mask, chunk, p.unitParams)) return std::nullopt;
      maskAtEnds.insert(ref->var->id);
    }
  }

  // Chunk starts (multiples of 16 bytes of elements) on 16-byte boundaries, with nothing masked and
  // no stride assumed: then every chunk is one cp.async (the seed's `a_ptr + rm * stride_am + rk`
  // with 16-divisible strides and offsets).
  auto provenWhole = [&](const ir::Load* load) {
    std::set<int> assumed;
    const AxisInfo info = axes.of(load->ptr, assumed);
    const int64_t chunk = chunkElems(*load);
    return !load->mask.defined() && assumed.empty() && info.divisibilityAt(chunk) >= chunk;
  };
  const TensorCoreLayout& l = r.layout;
  p.a = OperandStream{loads.at(aRef->var->id), l.m, l.k, l.lda, 0};
  p.b = OperandStream{loads.at(bRef->var->id), l.k, l.n, l.ldb, l.offB};
  p.a.provenWhole = provenWhole(p.a.load);
  p.b.provenWhole = provenWhole(p.b.load);
  p.stageBytes = l.offC;  // A and B, each 128-byte aligned
  size_t ringSlack = 0;
  if ((p.wgmma = warpgroupMmaFor(l))) {
    // Swizzled, unpadded tiles; every 8-row group of a panel starts on a 1024-byte boundary. A
    // transposed B is staged as loaded, N rows of K, like A.
    auto align = [](size_t x) { return (x + 1023) / 1024 * 1024; };
    p.a = OperandStream{p.a.load, l.m, l.k, l.k, 0, true, p.a.provenWhole};
    const size_t offB = align(static_cast<size_t>(l.m * l.k * l.elemBytes));
    if (p.wgmma->transposed) {
      // tf32: B stays in padded rows, read into registers; only A goes through descriptors.
      p.b = OperandStream{p.b.load, l.k, l.n, l.ldb, offB, false, p.b.provenWhole};
      p.stageBytes = align(p.b.offset + static_cast<size_t>(l.k * l.ldb * l.elemBytes));
    } else {
      p.b = bTransposed ? OperandStream{p.b.load, l.n, l.k, l.k, offB, true, p.b.provenWhole}
                        : OperandStream{p.b.load, l.k, l.n, l.n, offB, true, p.b.provenWhole};
      p.stageBytes = align(p.b.offset + static_cast<size_t>(l.k * l.n * 2));
    }
    ringSlack = 1024;
  }
  p.bTransposed = bTransposed;
  p.a.maskAtEnds = maskAtEnds.count(aRef->var->id) > 0;
  p.b.maskAtEnds = maskAtEnds.count(bRef->var->id) > 0;
  const size_t resultBytes = static_cast<size_t>(l.m * l.ldc * 4);
  p.stages = kernel_.options.numStages;
  while (p.stages >= 2 && std::max(p.stages * p.stageBytes + ringSlack, resultBytes) > kSharedLimit) --p.stages;
  if (p.stages < 2) return std::nullopt;
  p.tma = tmaFits(p, loop, body);
  return p;
}

std::string CudaEmitter::inRange(const std::string& counter, const std::string& ahead) const {
  const std::string at = "(" + counter + " + " + ahead + " * " + pipeline_->step + ")";
  return "(" + pipeline_->step + " > 0 ? " + at + " < " + pipeline_->end + " : " + at + " > " + pipeline_->end + ")";
}

void CudaEmitter::pipelinePrologue() {
  Pipeline& p = *pipeline_;
  std::string unit;
  for (int param : p.unitParams) unit += (unit.empty() ? "" : " && ") + std::string("(ts_i64)p") + n2s(param) + " == 1";
  if (p.tma)
    line("// " + n2s(p.stages) + " stages of operands in flight (TMA)");
  else
    line("// " + n2s(p.stages) + " stages of operands in flight (cp.async); whole 16-byte chunks need " +
         (unit.empty() ? std::string("only alignment") : unit));
  line("const bool " + p.unitOk + " = " + (unit.empty() ? "true" : unit) + ";");
  line("int " + p.slot + " = 0;");
  assumeThreadRange_ = true;
  if (p.wgmma) {
    p.ring = "ts_ring" + p.slot.substr(7);
    line("unsigned char* const " + p.ring + " = ts_smem + ((1024u - (ts_shared_addr(ts_smem) & 1023u)) & 1023u);");
  }
  if (p.tma) tmaPrologue();
  // A loop, not unrolled: the copies' code is large and runs once per program.
  line("#pragma unroll 1");
  open("for (int ts_s = 0; ts_s < " + n2s(p.stages - 1) + "; ++ts_s)");
  open("if (" + inRange(p.start, "ts_s") + ")");
  stageAhead("ts_s", p.start, "ts_s");
  close();
  if (!p.tma) line("ts_cp_commit();");
  close();
}

void CudaEmitter::stageAhead(const std::string& slot, const std::string& counter, const std::string& ahead) {
  const Pipeline& p = *pipeline_;
  const std::string T = regType(p.loop->iv->type);
  memo_.clear();
  prefetchScalars_[p.loop->iv->id] = "((" + T + ")(" + counter + " + " + ahead + " * " + p.step + "))";
  for (const auto& [id, step] : p.inductionSteps)
    prefetchOffsets_[id] = "(" + induction_.at(id).offset + " + (ts_i64)" + ahead + " * (ts_i64)(" + expr(step) + "))";
  for (const auto& [id, varAndStep] : p.scalarSteps) {
    const auto& [v, step] = varAndStep;
    const std::string S = regType(v->type);
    prefetchScalars_[id] = "((" + S + ")(" + varName(v) + " + (" + S + ")" + ahead + " * (" + S + ")(" + expr(step) + ")))";
  }
  memo_.clear();
  const std::string base = p.ring + " + " + slot + " * " + std::to_string(p.stageBytes);
  if (p.tma) {
    tmaStage(slot, base);
  } else {
    stageOperand(p.a, base);
    stageOperand(p.b, base);
  }
  prefetchScalars_.clear();
  prefetchOffsets_.clear();
  memo_.clear();
}

void CudaEmitter::stageOperand(const OperandStream& s, const std::string& base) {
  const Pipeline& p = *pipeline_;
  const ir::Load& load = *s.load;
  const ir::DType dt = load.type.dtype();
  const int64_t kChunk = chunkElems(load);
  // The staged element's bits: 16-bit floats as stored, fp32 as its bits (rounded to tf32 later).
  const bool wide = ir::bitWidth(dt) == 32;
  const std::string E = wide ? "ts_u32" : "ts_u16";
  const int64_t chunks = s.rows * s.cols / kChunk;
  const std::string ptr = expr(load.ptr);
  const std::string mask = load.mask.defined() ? expr(load.mask) : "";
  const std::string other = load.other.defined() ? (wide ? "__float_as_uint(" + expr(load.other) + ")" : toMemory(dt, expr(load.other)))
                                                 : "(" + E + ")0";
  const int64_t perThread = (chunks + threads_ - 1) / threads_;
  // Chunk ts_r of this thread: its first element ts_i0 and where it goes in the stage.
  auto chunkHead = [&] {
    line("const int ts_c = ts_tid + ts_r * " + n2s(threads_) + ";");
    if (chunks % threads_ != 0) line("if (ts_c >= " + n2s(chunks) + ") break;");
    // Non-negative: the chunk's row and column (`/` and `%` by powers of two) become shifts and
    // masks, and the column, the same in each of the thread's chunks, is computed once.
    line("__builtin_assume(ts_c >= 0 && ts_c < " + n2s(perThread * threads_) + ");");
    line("const int ts_i0 = ts_c * " + n2s(kChunk) + ";");
    if (s.swizzled) {
      // Panels of 128 bytes of columns: 64 16-bit or 32 fp32 elements.
      const std::string panel = n2s(kChunk * 8);
      line("const int ts_row = ts_i0 / " + n2s(s.cols) + ", ts_col = ts_i0 % " + n2s(s.cols) + ";");
      line(E + "* ts_dst = (" + E + "*)(" + base + " + " + std::to_string(s.offset) + " + (ts_col / " + panel + ") * " +
           n2s(s.rows * 128) + " + ts_row * 128 + ((((ts_col % " + panel + ") / " + n2s(kChunk) + ") ^ (ts_row % 8)) * 16));");
    } else {
      line(E + "* ts_dst = (" + E + "*)(" + base + " + " + std::to_string(s.offset) + ") + (ts_i0 / " + n2s(s.cols) + ") * " +
           n2s(s.ld) + " + ts_i0 % " + n2s(s.cols) + ";");
    }
  };
  // The element-wise copy of a chunk (edges, misaligned or strided operands): rare, so small code
  // over speed. The chunks that need it are marked in ts_missed and copied by one rolled loop
  // after the fast copies, instead of a copy of this code in each unrolled chunk.
  auto elementWise = [&] {
    line("#pragma unroll 1");
    open("for (int ts_k = 0; ts_k < " + n2s(kChunk) + "; ++ts_k)");
    line("const int ts_i = ts_i0 + ts_k;");
    if (mask.empty()) line("ts_dst[ts_k] = *(const " + E + "*)(" + ptr + ");");
    else line("ts_dst[ts_k] = (" + mask + ") ? *(const " + E + "*)(" + ptr + ") : " + other + ";");
    close();
  };
  if (s.provenWhole) {
    line("// every chunk proven whole and 16-byte aligned");
    line("#pragma unroll");
    open("for (int ts_r = 0; ts_r < " + n2s(perThread) + "; ++ts_r)");
    chunkHead();
    line("const int ts_i = ts_i0;");
    line("ts_cp_async16(ts_dst, " + ptr + ");");
    close();
    return;
  }
  const bool deferred = perThread <= 32;
  open("");
  if (deferred) line("unsigned ts_missed = 0;");
  // A counted loop, fully unrolled: the chunks' addresses are known apart from the loop's offsets.
  line("#pragma unroll");
  open("for (int ts_r = 0; ts_r < " + n2s(perThread) + "; ++ts_r)");
  chunkHead();
  line("bool ts_whole;");
  open("");
  line("const int ts_i = ts_i0;");
  line("const void* ts_src = " + ptr + ";");
  // `&` rather than `&&`, and a predicated copy: no branches in the unrolled chunks.
  line("ts_whole = " + p.unitOk + (mask.empty() ? "" : " & (bool)(" + mask + ")") + " & (((unsigned long long)ts_src & 15) == 0);");
  if (s.maskAtEnds) {
    // The mask is an interval on the chunk: true at both ends, true throughout.
    open("");
    line("const int ts_i = ts_i0 + " + n2s(kChunk - 1) + ";");
    line("ts_whole = ts_whole & (bool)(" + mask + ");");
    close();
  }
  line("ts_cp_async16_if(ts_dst, ts_src, ts_whole);");
  close();
  if (deferred) {
    line("if (!ts_whole) ts_missed |= 1u << ts_r;");
  } else {
    open("if (!ts_whole)");
    elementWise();
    close();
  }
  close();
  if (deferred) {
    open("if (ts_missed != 0)");
    line("#pragma unroll 1");
    open("for (int ts_r = 0; ts_r < " + n2s(perThread) + "; ++ts_r)");
    line("if (((ts_missed >> ts_r) & 1u) == 0) continue;");
    chunkHead();
    elementWise();
    close();
    close();
  }
  close();
}

void CudaEmitter::pipelinedStep(const ResidentAccumulator& r) {
  const Pipeline& p = *pipeline_;
  if (p.wgmma) {
    warpgroupStep(r);
    return;
  }
  // Stage s is complete once at most stages - 2 later groups are pending; the barrier also ends
  // every warp's reads of the stage the copies below overwrite.
  line("ts_cp_wait<" + n2s(p.stages - 2) + ">();");
  sync();
  stageNextIteration();
  multiplyStaged(r.layout, r.frags, "ts_smem + " + p.slot + " * " + std::to_string(p.stageBytes), false);
  advanceSlot();
}

void CudaEmitter::stageNextIteration() {
  // Into the slot before this iteration's: the previous iteration read it, and every warp has
  // passed the barrier since.
  const Pipeline& p = *pipeline_;
  const std::string ahead = n2s(p.stages - 1);
  open("if (" + inRange(p.counter, ahead) + ")");
  line("const int ts_wr = " + p.slot + " == 0 ? " + ahead + " : " + p.slot + " - 1;");
  stageAhead("ts_wr", p.counter, ahead);
  close();
  if (!p.tma) line("ts_cp_commit();");
}

void CudaEmitter::advanceSlot() {
  const Pipeline& p = *pipeline_;
  line(p.slot + " = " + p.slot + " == " + n2s(p.stages - 1) + " ? 0 : " + p.slot + " + 1;");
}

void CudaEmitter::pipelineDrain() {
  line("ts_cp_wait<0>();");
  sync();
  pipeline_.reset();
}

}  // namespace tilescope::gpu
