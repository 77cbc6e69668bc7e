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

// Elements of a load per 16-byte chunk: 8 fp16/bf16, 4 fp32 (tf32 dots), 16 int8 (s8 dots).
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

    // B contiguous along axis 0 rather than its rows: staged K-major, chunks along K.
    std::set<int> kMajorUnit;
    const bool bKMajor = !bTransposed && kMajorB(loadOf(body, bRef->var->id), lowering, kMajorUnit);

    // 16-byte chunks: one pointer and one mask per chunk (or a mask at both ends of an interval).
    std::set<int> maskAtEnds;  // load var ids
    for (const ir::VarRef* ref : {aRef, bRef}) {
      const ir::Load* load = loadOf(body, ref->var->id);
      if (bKMajor && ref == bRef) {
        p.unitParams.insert(kMajorUnit.begin(), kMajorUnit.end());
        continue;
      }
      // 16-bit operands, fp32 ones of a tf32 dot (staged as loaded, rounded as the fragments are
      // read), or int8 ones of an s8 dot (16 per chunk).
      const int bits = ir::bitWidth(load->type.dtype());
      if (!(bits == 16 || (bits == 32 && l.elem == "tf32") || (bits == 8 && l.elem == "s8")) || load->isVolatile)
        return ref->var->name + "'s elements are neither 16-bit, tf32 nor int8 operands";
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
    const bool aWhole = provenWhole(loadOf(body, aId));
    const bool bWhole = bKMajor ? kMajorUnit.empty() && kMajorWhole(loadOf(body, bId)) : provenWhole(loadOf(body, bId));
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
    if (bKMajor) {
      // N rows of K: padded like A's rows for wmma's col-major fragments; wgmma reads it as it reads
      // a transposed B (swizzled N x K, K-major descriptors).
      if (lowering.warpgroup) {
        p.b = ir::OperandStreamPlan{bId, l.n, l.k, l.k, p.b.offset, true, bWhole};
        p.b.swizzleBytes = swizzleFor(p.b.cols, l.elemBytes);  // rows of K, as a transposed B's
        if (p.b.swizzleBytes == 0) return std::string("b's rows are no whole 32-byte swizzle panels");
      } else {
        p.b = ir::OperandStreamPlan{bId, l.n, l.k, l.lda, l.offB, false, bWhole};
        p.stageBytes = (l.offB + static_cast<size_t>(l.n * l.lda * l.elemBytes) + 127) / 128 * 128;
      }
      p.b.kMajor = true;
    }
    p.bTransposed = bTransposed || (bKMajor && lowering.warpgroup);
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
  // Whether B's load is staged K-major: its K x N pointer tile is contiguous along axis 0 over
  // 16-byte chunks, and its rows are so only by an assumption that is false or less sure: a stride
  // of 1 that the launch's specialization says is a multiple of 16 (`offs_n[None, :] * stride_wn` of
  // a W stored N x K), or any stride assumed 1 while the K stride is the constant 1 (a launch's unit
  // stride). Both by assumptions (strides of unknown values): the rows, as before. A mask must be
  // constant over the chunks along K. 16-bit operands on wmma or Hopper's wgmma (tf32 stays
  // row-major). `unit`: the strides along K assumed to be 1.
  bool kMajorB(const ir::Load* load, const ir::DotLowering& lowering, std::set<int>& unit) const {
    const ir::TensorCoreShape& l = lowering.tensorCores;
    if ((l.elem != "f16" && l.elem != "bf16") || l.fp8 || load->isVolatile || load->type.rank() != 2) return false;
    if (lowering.warpgroup ? lowering.warpgroup->transposed : lowering.engine != ir::DotEngine::Wmma) return false;
    const int64_t chunk = chunkElems(*load);
    auto neverOne = [&](const std::set<int>& params) {
      return std::any_of(params.begin(), params.end(),
                         [&](int i) { return kernel_.params.at(static_cast<size_t>(i)).divisibleBy16; });
    };
    std::set<int> rowUnit;
    const bool rowsContiguous = axes_.of(load->ptr, rowUnit).contiguity >= chunk;
    if (rowsContiguous && rowUnit.empty()) return false;  // proven row-major
    std::set<int> along;
    if (axes_.ofDim(load->ptr, 0, along).contiguity < chunk) return false;
    if (load->mask.defined() && axes_.ofDim(load->mask, 0, along).constancy < chunk) return false;
    if (neverOne(along)) return false;
    const bool rowsHopeless = !rowsContiguous || neverOne(rowUnit);
    if (!rowsHopeless && !along.empty()) return false;
    unit = along;
    return true;
  }

  // A K-major B's chunks all whole and aligned: no mask, and chunk starts along K on 16 bytes.
  bool kMajorWhole(const ir::Load* load) const {
    std::set<int> assumed;
    const int64_t chunk = chunkElems(*load);
    return !load->mask.defined() && axes_.ofDim(load->ptr, 0, assumed).divisibilityAt(chunk) >= chunk && assumed.empty();
  }

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
