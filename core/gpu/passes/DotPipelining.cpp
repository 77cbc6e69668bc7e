#include "core/gpu/passes/DotPipelining.h"

#include <algorithm>
#include <variant>

#include "core/gpu/passes/AxisAnalysis.h"
#include "core/gpu/passes/RecomputedValues.h"
#include "core/gpu/passes/ResidentAccumulators.h"
#include "core/gpu/passes/VarCensus.h"

namespace tilescope::gpu::passes {

namespace {

constexpr int kChunkBytes = 16;              // one cp.async
constexpr size_t kSharedLimit = 200 * 1024;  // what one SM offers, with room for the compiler's own
constexpr int64_t kTmaPanel = 64;            // 16-bit elements per 128-byte swizzled row
constexpr int64_t kMaxBoxDim = 256;          // TMA's largest box side

// Elements of a load per 16-byte chunk: 8 fp16/bf16, 4 fp32 (tf32 dots).
int64_t chunkElems(const ir::Load& load) { return kChunkBytes / (ir::bitWidth(load.type.dtype()) / 8); }

// The widest of wgmma's swizzles (128, 64 or 32 bytes) whose panels tile a staged row of `cols`
// elements: 128 for whole 64-column panels of 16-bit elements, 64 for BLOCK_K = 32, 32 for
// BLOCK_K = 16, as Triton picks the shared layout's swizzle from the contiguous dim. 0: none fits.
int64_t swizzleFor(int64_t cols, int64_t elemBytes) {
  for (int64_t bytes : {128, 64, 32})
    if ((cols * elemBytes) % bytes == 0) return bytes;
  return 0;
}

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

// Whether e reads nothing the loop changes (its induction var, its Lets and Assigns).
bool loopInvariant(const ir::Expr& e, const ir::For& loop, const VarCensus& body) {
  for (const ir::VarPtr& v : varsRead(e))
    if (v->id == loop.iv->id || body.lets.count(v->id) || body.assigns.count(v->id)) return false;
  return true;
}

const ir::Load* loadOf(const VarCensus& census, int id) { return census.lets.at(id)->value.as<ir::Load>(); }

// Whether the operands can be copied by TMA: the wgmma path, both loads 2-D fp16/bf16 descriptor
// boxes staged as loaded, their maps' fields unchanged by the loop.
bool tmaFits(const ir::PipelinePlan& p, const ir::For& loop, const VarCensus& body) {
  for (const ir::OperandStreamPlan* s : {&p.a, &p.b}) {
    const ir::Load* load = loadOf(body, s->load);
    const ir::TensorBox* box = load->box.get();
    if (!box || box->block.size() != 2) return false;
    // The stage holds the box as loaded: rows x cols, cols in 64-element panels.
    if (box->block[0] != s->rows || box->block[1] != s->cols) return false;
    // TMA boxes here are 128-byte swizzled panels only (BLOCK_K = 32 or 16 takes cp.async).
    if (s->cols % kTmaPanel != 0 || s->swizzleBytes != 128 || s->rows > kMaxBoxDim) return false;
    const ir::DType dt = load->type.dtype();
    if (dt != ir::DType::FP16 && dt != ir::DType::BF16) return false;
    // The map is built before the loop: what it says must not change inside it.
    if (!loopInvariant(box->base, loop, body)) return false;
    for (const auto* list : {&box->shape, &box->strides})
      for (const ir::Expr& e : *list)
        if (!loopInvariant(e, loop, body)) return false;
  }
  return true;
}

class Pipeliner {
public:
  Pipeliner(const ir::Kernel& kernel, const GpuTarget& target)
      : kernel_(kernel), target_(target), axes_(kernel) {
    kernelVars_.visitStmt(kernel.body);
    // find-induction-tiles and analyse-axes ran before this pass (GpuPipeline.cpp).
    for (const auto& [id, tile] : kernel.inductionTiles)
      for (const auto& [letId, step] : tile.steps) stepLetOf_[id] = letId;
  }

  // The plan for the resident loop, or why it is not pipelined.
  std::variant<ir::PipelinePlan, std::string> plan(const ir::For& loop, const ir::ResidentAccumulatorPlan& r,
                                                   const ir::DotLowering& lowering, const ir::Dot& dot) const {
    if (target_.smArch < 80) return std::string("cp.async needs sm_80");
    if (kernel_.options.numStages < 2) return std::string("num_stages < 2");
    const auto* seq = loop.body.as<ir::Seq>();
    if (!seq || !onlyLetsAndAssigns(loop.body)) return std::string("the body holds more than Lets and Assigns");
    VarCensus body;
    body.visitStmt(loop.body);
    const ir::TensorCoreShape& l = lowering.tensorCores;
    // `a @ b.T` with b loaded N x K: only wgmma reads such a B (K-major) straight from the ring.
    const bool bTransposed = !dot.b.as<ir::VarRef>() && transposedVarRef(dot.b) && l.elem != "tf32" && lowering.warpgroup;
    const std::set<int> loads = deferrableOperandLoads(loop, dot, r.result, bTransposed);
    const auto* aRef = dot.a.as<ir::VarRef>();
    const auto* bRef = bTransposed ? transposedVarRef(dot.b) : dot.b.as<ir::VarRef>();
    if (!aRef || !bRef || !loads.count(aRef->var->id) || !loads.count(bRef->var->id))
      return std::string("an operand is not a load read only by the dot");

    // Where the dot and each top-level assign are in the body: an induction step must come after
    // the dot, so the loads of iteration i see the offsets as they are when iteration i starts.
    size_t dotAt = 0;
    std::map<int, size_t> assignAt;
    for (size_t i = 0; i < seq->stmts.size(); ++i) {
      if (const auto* let = seq->stmts[i].as<ir::Let>(); let && let->var->id == r.result) dotAt = i;
      if (const auto* a = seq->stmts[i].as<ir::Assign>()) assignAt[a->var->id] = i;
    }

    ir::PipelinePlan p;
    // Every var the loads read must be computable for a later iteration from what is known now.
    std::vector<ir::Expr> pending;
    for (const ir::Load* load : {loadOf(body, aRef->var->id), loadOf(body, bRef->var->id)})
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
          if (v->isMutable || value.hasEffects() || !indexPure(value))
            return "the loads read " + v->name + ", which cannot be recomputed for a later iteration";
          p.bodyValues.insert(v->id);
          pending.push_back(value);
          continue;
        }
        if (!body.assigns.count(v->id)) {
          // Declared before the loop and not changed in it; a tile must be recomputable at any index.
          if (v->type.isTile() && !recomputedBeforeLoop(v->id))
            return "the loads read the tile " + v->name + ", which is held in registers, not recomputable at any index";
          continue;
        }
        auto at = assignAt.find(v->id);
        if (std::optional<ir::Expr> step = axes_.scalarInductionStep(v->id)) {
          // A scalar `v = v + step` after the dot (a block pointer's offset): v + n * step later.
          if (at == assignAt.end() || at->second < dotAt) return v->name + " is advanced before the dot";
          for (const ir::VarPtr& s : varsRead(*step))
            if (s->id == loop.iv->id || body.lets.count(s->id) || body.assigns.count(s->id))
              return "the step of " + v->name + " changes in the loop";
          p.scalarInductions.insert(v->id);
          continue;
        }
        auto stepLet = stepLetOf_.find(v->id);
        if (!kernel_.inductionTiles.count(v->id) || stepLet == stepLetOf_.end() || body.assignCount(v->id) != 1 ||
            at == assignAt.end() || at->second < dotAt)
          return "the loads read " + v->name + ", which the loop changes other than by one scalar step after the dot";
        for (const ir::VarPtr& s : varsRead(kernel_.inductionTiles.at(v->id).steps.at(stepLet->second)))
          if (s->id == loop.iv->id || body.lets.count(s->id) || body.assigns.count(s->id))
            return "the step of " + v->name + " changes in the loop";
        p.inductionTiles.insert(v->id);
      }
    }

    // 16-byte chunks: one pointer and one mask per chunk (or a mask at both ends of an interval).
    std::set<int> maskAtEnds;  // load var ids
    for (const ir::VarRef* ref : {aRef, bRef}) {
      const ir::Load* load = loadOf(body, ref->var->id);
      // 16-bit operands, or fp32 ones of a tf32 dot (staged as loaded, rounded as the fragments are read).
      const int bits = ir::bitWidth(load->type.dtype());
      if (!(bits == 16 || (bits == 32 && l.elem == "tf32")) || load->isVolatile)
        return ref->var->name + "'s elements are neither 16-bit nor tf32 operands";
      const int64_t chunk = chunkElems(*load);
      if (axes_.of(load->ptr, p.unitParams).contiguity < chunk)
        return ref->var->name + "'s pointers are not contiguous over 16-byte chunks";
      if (load->mask.defined() && axes_.of(load->mask, p.unitParams).constancy < chunk) {
        if (!axes_.intervalOverRuns(load->mask, chunk, p.unitParams))
          return ref->var->name + "'s mask is neither constant nor an interval over 16-byte chunks";
        maskAtEnds.insert(ref->var->id);
      }
    }

    // Chunk starts (multiples of 16 bytes of elements) on 16-byte boundaries, with nothing masked
    // and no stride assumed: then every chunk is one cp.async (the seed's `a_ptr + rm * stride_am +
    // rk` with 16-divisible strides and offsets).
    auto provenWhole = [&](const ir::Load* load) {
      std::set<int> assumed;
      const AxisInfo info = axes_.of(load->ptr, assumed);
      const int64_t chunk = chunkElems(*load);
      return !load->mask.defined() && assumed.empty() && info.divisibilityAt(chunk) >= chunk;
    };
    const int aId = aRef->var->id, bId = bRef->var->id;
    const bool aWhole = provenWhole(loadOf(body, aId)), bWhole = provenWhole(loadOf(body, bId));
    p.a = ir::OperandStreamPlan{aId, l.m, l.k, l.lda, 0, false, aWhole};
    p.b = ir::OperandStreamPlan{bId, l.k, l.n, l.ldb, l.offB, false, bWhole};
    p.stageBytes = l.offC;  // A and B, each 128-byte aligned
    size_t ringSlack = 0;
    if (const std::optional<ir::WarpgroupShape>& g = lowering.warpgroup) {
      // Swizzled, unpadded tiles; every 8-row group of a panel starts on a 1024-byte boundary. A
      // transposed B is staged as loaded, N rows of K, like A.
      auto align = [](size_t x) { return (x + 1023) / 1024 * 1024; };
      p.a = ir::OperandStreamPlan{aId, l.m, l.k, l.k, 0, true, aWhole};
      // A's rows are K: 128-byte panels where K is a multiple of 64 (32 fp32), else 64 or 32 bytes.
      p.a.swizzleBytes = swizzleFor(l.k, l.elemBytes);
      if (p.a.swizzleBytes == 0) return std::string("a's rows are no whole 32-byte swizzle panels");
      const size_t offB = align(static_cast<size_t>(l.m * l.k * l.elemBytes));
      if (g->transposed) {
        // tf32: B stays in padded rows, read into registers; only A goes through descriptors.
        p.b = ir::OperandStreamPlan{bId, l.k, l.n, l.ldb, offB, false, bWhole};
        p.stageBytes = align(p.b.offset + static_cast<size_t>(l.k * l.ldb * l.elemBytes));
      } else {
        p.b = bTransposed ? ir::OperandStreamPlan{bId, l.n, l.k, l.k, offB, true, bWhole}
                          : ir::OperandStreamPlan{bId, l.k, l.n, l.n, offB, true, bWhole};
        // A transposed B's rows are K, like A's; else N (whole 64-column panels: 128 bytes).
        p.b.swizzleBytes = swizzleFor(p.b.cols, l.elemBytes);
        if (p.b.swizzleBytes == 0) return std::string("b's rows are no whole 32-byte swizzle panels");
        p.stageBytes = align(p.b.offset + static_cast<size_t>(l.k * l.n * 2));
      }
      ringSlack = 1024;
    }
    p.bTransposed = bTransposed;
    p.a.maskAtEnds = maskAtEnds.count(aId) > 0;
    p.b.maskAtEnds = maskAtEnds.count(bId) > 0;
    const size_t resultBytes = static_cast<size_t>(l.m * l.ldc * 4);
    p.stages = kernel_.options.numStages;
    while (p.stages >= 2 && std::max(p.stages * p.stageBytes + ringSlack, resultBytes) > kSharedLimit) --p.stages;
    if (p.stages < 2) return std::string("two stages do not fit in shared memory");
    p.tma = lowering.warpgroup && target_.tma && tmaFits(p, loop, body);
    return p;
  }

private:
  // What the emitter recomputes where it is used: an immutable tile Let of an index-pure value.
  bool recomputedBeforeLoop(int id) const {
    auto let = kernelVars_.lets.find(id);
    if (let == kernelVars_.lets.end()) return false;
    const ir::Expr& value = let->second->value;
    return !let->second->var->isMutable && !value.hasEffects() && indexPure(value);
  }

  const ir::Kernel& kernel_;
  GpuTarget target_;
  AxisAnalysis axes_;
  VarCensus kernelVars_;
  std::map<int, int> stepLetOf_;  // induction tile id -> id of the Let `tile + splat(step)`
};

}  // namespace

ir::Kernel pipelineDotLoops(const ir::Kernel& kernel, const GpuTarget& target) {
  ir::Kernel out = kernel;
  out.dotPlan.pipelines.clear();
  out.dotPlan.notPipelined.clear();
  if (kernel.dotPlan.resident.empty()) return out;
  const Pipeliner pipeliner(out, target);
  const std::vector<const ir::Dot*> dots = ir::dotsInOrder(kernel.body);
  VarCensus census;
  census.visitStmt(kernel.body);
  for (const auto& [iv, r] : kernel.dotPlan.resident) {
    ir::DotLowering& lowering = out.dotPlan.dots.at(r.dot);
    auto result = pipeliner.plan(*census.loops.at(iv), r, lowering, *dots.at(static_cast<size_t>(r.dot)));
    if (const std::string* why = std::get_if<std::string>(&result)) {
      out.dotPlan.notPipelined[iv] = *why;
      continue;
    }
    const ir::PipelinePlan& p = std::get<ir::PipelinePlan>(result);
    if (p.bTransposed) out.dotPlan.resident[iv].deferredLoads.insert(p.b.load);  // tl.trans(b) loads into the ring too
    if (lowering.warpgroup) lowering.engine = lowering.warpgroup->transposed ? ir::DotEngine::Tf32Wgmma : ir::DotEngine::Wgmma;
    out.dotPlan.pipelines[iv] = p;
  }
  return out;
}

}  // namespace tilescope::gpu::passes
