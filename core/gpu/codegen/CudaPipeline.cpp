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

constexpr int kChunkBytes = 16;  // one cp.async

// Elements of a load per 16-byte chunk: 8 fp16/bf16, 4 fp32 (tf32 dots), 16 int8 (s8 dots).
int64_t chunkElems(const ir::Load& load) { return kChunkBytes / (ir::bitWidth(load.type.dtype()) / 8); }

}  // namespace

std::optional<CudaEmitter::Pipeline> CudaEmitter::pipelineFor(const ir::For& loop, const ResidentAccumulator& r) const {
  // pipeline-dot-loops' plan (core/gpu/passes/DotPipelining.h), by the loop's var.
  auto it = kernel_.dotPlan.pipelines.find(loop.iv->id);
  if (it == kernel_.dotPlan.pipelines.end()) return std::nullopt;
  const ir::PipelinePlan& plan = it->second;
  VarCensus body;
  body.visitStmt(loop.body);
  auto letValue = [&](int id) -> const ir::Expr& {
    auto let = body.lets.find(id);
    if (let == body.lets.end())
      throw lang::InternalError("cuda codegen: the pipeline plan of loop '" + loop.iv->name + "' names no Let of it");
    return let->second->value;
  };
  auto stream = [&](const ir::OperandStreamPlan& s) {
    OperandStream o;
    o.load = letValue(s.load).as<ir::Load>();
    if (!o.load) throw lang::InternalError("cuda codegen: a pipelined operand of loop '" + loop.iv->name + "' is no load");
    o.rows = s.rows;
    o.cols = s.cols;
    o.ld = s.ld;
    o.offset = s.offset;
    o.swizzled = s.swizzled;
    if (s.swizzled) o.swizzleBytes = s.swizzleBytes;
    o.provenWhole = s.provenWhole;
    o.maskAtEnds = s.maskAtEnds;
    o.kMajor = s.kMajor;
    return o;
  };
  Pipeline p;
  p.loop = &loop;
  p.stages = plan.stages;
  p.stageBytes = plan.stageBytes;
  p.a = stream(plan.a);
  p.b = stream(plan.b);
  const ir::DotEngine engine = kernel_.dotPlan.dots.at(dotIndex_.at(r.dot)).engine;
  if (engine == ir::DotEngine::Wgmma || engine == ir::DotEngine::Tf32Wgmma) p.wgmma = r.warpgroup;
  p.bTransposed = plan.bTransposed;
  p.tma = plan.tma;
  p.unitParams = plan.unitParams;
  for (int id : plan.bodyValues) p.bodyValues[id] = letValue(id);
  for (int id : plan.inductionTiles)
    for (const auto& [letId, step] : inductionSteps_)
      if (step.tile == id) p.inductionSteps[id] = step.step;
  for (int id : plan.scalarInductions) {
    auto assigns = body.assigns.find(id);
    std::optional<ir::Expr> step = axisAnalysis().scalarInductionStep(id);
    if (assigns == body.assigns.end() || !step)
      throw lang::InternalError("cuda codegen: the pipeline plan of loop '" + loop.iv->name + "' names no scalar induction");
    p.scalarSteps[id] = {assigns->second.front()->var, *step};
  }
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
  const std::string E = wide ? "ts_u32" : ir::bitWidth(dt) == 8 ? "ts_u8" : "ts_u16";
  const int64_t chunks = s.rows * s.cols / kChunk;
  const std::string ptr = expr(load.ptr);
  const std::string mask = load.mask.defined() ? expr(load.mask) : "";
  const std::string other = load.other.defined() ? (wide ? "__float_as_uint(" + expr(load.other) + ")" : toMemory(dt, expr(load.other)))
                                                 : "(" + E + ")0";
  const int64_t perThread = (chunks + threads_ - 1) / threads_;
  // The load's element index (ts_i) of stage element `j`: the same, or for a K-major stage (N rows
  // of K from a K x N load) element (j % K, j / K).
  auto loadIndex = [&](const std::string& j) {
    if (!s.kMajor) return j;
    return "((" + j + ") % " + n2s(s.cols) + ") * " + n2s(s.rows) + " + (" + j + ") / " + n2s(s.cols);
  };
  // Chunk ts_r of this thread: its first element ts_i0 and where it goes in the stage.
  auto chunkHead = [&] {
    line("const int ts_c = ts_tid + ts_r * " + n2s(threads_) + ";");
    if (chunks % threads_ != 0) line("if (ts_c >= " + n2s(chunks) + ") break;");
    // Non-negative: the chunk's row and column (`/` and `%` by powers of two) become shifts and
    // masks, and the column, the same in each of the thread's chunks, is computed once.
    line("__builtin_assume(ts_c >= 0 && ts_c < " + n2s(perThread * threads_) + ");");
    line("const int ts_i0 = ts_c * " + n2s(kChunk) + ";");
    if (s.swizzled && s.swizzleBytes == 128) {
      // Panels of 128 bytes of columns: 64 16-bit or 32 fp32 elements.
      const std::string panel = n2s(kChunk * 8);
      line("const int ts_row = ts_i0 / " + n2s(s.cols) + ", ts_col = ts_i0 % " + n2s(s.cols) + ";");
      line(E + "* ts_dst = (" + E + "*)(" + base + " + " + std::to_string(s.offset) + " + (ts_col / " + panel + ") * " +
           n2s(s.rows * 128) + " + ts_row * 128 + ((((ts_col % " + panel + ") / " + n2s(kChunk) + ") ^ (ts_row % 8)) * 16));");
    } else if (s.swizzled) {
      // Panels of 64 (32) bytes of columns, rows of 4 (2) chunks: the XOR takes address bits 7-8
      // (bit 7), i.e. the row's pair (quad) of rows, so that 8 rows of one chunk column span all banks.
      const int64_t chunksPerRow = s.swizzleBytes / kChunkBytes, rowsPerLine = 128 / s.swizzleBytes;
      const std::string panel = n2s(kChunk * chunksPerRow), rowBytes = n2s(s.swizzleBytes);
      line("const int ts_row = ts_i0 / " + n2s(s.cols) + ", ts_col = ts_i0 % " + n2s(s.cols) + ";");
      line(E + "* ts_dst = (" + E + "*)(" + base + " + " + std::to_string(s.offset) + " + (ts_col / " + panel + ") * " +
           n2s(s.rows * s.swizzleBytes) + " + ts_row * " + rowBytes + " + ((((ts_col % " + panel + ") / " + n2s(kChunk) +
           ") ^ ((ts_row / " + n2s(rowsPerLine) + ") % " + n2s(chunksPerRow) + ")) * 16));");
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
    line("const int ts_i = " + loadIndex("ts_i0 + ts_k") + ";");
    if (mask.empty()) line("ts_dst[ts_k] = *(const " + E + "*)(" + ptr + ");");
    else line("ts_dst[ts_k] = (" + mask + ") ? *(const " + E + "*)(" + ptr + ") : " + other + ";");
    close();
  };
  if (s.provenWhole) {
    line("// every chunk proven whole and 16-byte aligned");
    line("#pragma unroll");
    open("for (int ts_r = 0; ts_r < " + n2s(perThread) + "; ++ts_r)");
    chunkHead();
    line("const int ts_i = " + loadIndex("ts_i0") + ";");
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
  line("const int ts_i = " + loadIndex("ts_i0") + ";");
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
  multiplyStaged(r.layout, r.frags, "ts_smem + " + p.slot + " * " + std::to_string(p.stageBytes), false,
                 p.b.kMajor ? p.b.ld : 0);
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
