#include "core/gpu/codegen/CudaCodegen.h"

#include <algorithm>

#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaFp8.h"
#include "core/gpu/codegen/CudaPrelude.h"
#include "core/gpu/codegen/CudaTypes.h"
#include "core/gpu/passes/VarCensus.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::gpu {

using ir::BinaryOp;
using ir::DType;

namespace {

std::string sanitize(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return s;
}

std::string cString(const std::string& text, bool forPrintf) {
  std::string s;
  for (char c : text) {
    if (c == '"' || c == '\\') s += '\\';
    if (c == '\n') {
      s += "\\n";
      continue;
    }
    if (forPrintf && c == '%') s += '%';
    s += c;
  }
  return s;
}

}  // namespace

bool containsStore(const ir::Stmt& s) {
  if (!s) return false;
  using K = ir::StmtKind;
  switch (s.kind()) {
    case K::Store: return true;
    case K::Let: return s.as<ir::Let>()->value.hasEffects() && !s.as<ir::Let>()->value.as<ir::Load>();
    case K::Seq:
      for (const ir::Stmt& c : s.as<ir::Seq>()->stmts)
        if (containsStore(c)) return true;
      return false;
    case K::If: return containsStore(s.as<ir::If>()->thenBody) || containsStore(s.as<ir::If>()->elseBody);
    case K::For: return containsStore(s.as<ir::For>()->body);
    case K::While: return containsStore(s.as<ir::While>()->body);
    default: return false;
  }
}

CudaKernelSource CudaCodegen::generate(const ir::Kernel& kernel, const CudaCodegenOptions& options) {
  // The emitter prints the IR the pass pipeline made (core/gpu/passes/GpuPipeline.h).
  const ir::Kernel lowered = gpu::passes::lowerForGpu(kernel, gpuTargetOf(options));
  return emitLowered(lowered, options);
}

CudaKernelSource CudaCodegen::emitLowered(const ir::Kernel& lowered, const CudaCodegenOptions& options) {
  return CudaEmitter(lowered, options).run();
}

gpu::passes::GpuTarget gpuTargetOf(const CudaCodegenOptions& options) {
  return gpu::passes::GpuTarget{options.smArch, options.archSpecific, options.tma};
}

CudaEmitter::CudaEmitter(const ir::Kernel& kernel, const CudaCodegenOptions& options)
    : kernel_(kernel), options_(options), threads_(kernel.options.numWarps * 32), axes_(kernel) {
  if (threads_ <= 0 || threads_ > 1024)
    unsupported(kernel.params.empty() ? lang::SourceRange{} : kernel.params.front().range,
                "num_warps=" + std::to_string(kernel.options.numWarps) + " (at most 32 warps per program)");
  dots_ = ir::dotsInOrder(kernel.body);
  for (size_t i = 0; i < dots_.size(); ++i) dotIndex_.emplace(dots_[i], static_cast<int>(i));
}

BlockedLayout CudaEmitter::layout(int64_t numel) const {
  // The vector width the assign-blocked-layouts pass chose for this numel.
  const auto it = kernel_.blockedVectorWidths.find(numel);
  return BlockedLayout{threads_, it == kernel_.blockedVectorWidths.end() ? 1 : it->second};
}

void CudaEmitter::unsupported(const lang::SourceRange& r, const std::string& what) {
  throw lang::CompileError(lang::Diagnostic::error(r, what + " is not supported on the GPU backend yet; use --backend sim"));
}

void CudaEmitter::line(const std::string& text) { out_ << std::string(static_cast<size_t>(indent_) * 2, ' ') << text << '\n'; }

void CudaEmitter::open(const std::string& head) {
  line(head.empty() ? "{" : head + " {");
  ++indent_;
}

void CudaEmitter::close(const std::string& tail) {
  --indent_;
  line(tail);
}

void CudaEmitter::lineDirective(const lang::SourceRange& r) {
  if (!r.valid() || !r.file) return;
  out_ << "#line " << r.start().line << " \"" << cString(r.file->name(), false) << "\"\n";
}

void CudaEmitter::openLoop(int64_t numel, bool holdsArrays, bool partial) {
  // Full unrolling keeps the per-thread arrays in registers (indices become constants); past
  // maxUnrolledSlots() the arrays would not fit in registers anyway and unrolling only costs NVRTC time.
  if (!holdsArrays && partial) line("#pragma unroll 8");
  else line(slots(numel) <= maxUnrolledSlots() ? "#pragma unroll" : holdsArrays ? "#pragma unroll 1" : "#pragma unroll 8");
  open("for (int ts_j = 0; ts_j < " + std::to_string(slots(numel)) + "; ++ts_j)");
  const int v = layout(numel).vec;
  const std::string T = std::to_string(threads_);
  if (v == 1) {
    line("const int ts_i = ts_j * " + T + " + ts_tid;");
  } else {
    const std::string V = std::to_string(v);
    line("const int ts_i = ts_j / " + V + " * " + std::to_string(threads_ * v) + " + ts_tid * " + V + " + ts_j % " + V + ";");
  }
  if (guarded(numel)) open("if (ts_i < " + std::to_string(numel) + ")");
}

void CudaEmitter::closeLoop(int64_t numel) {
  if (guarded(numel)) close();
  close();
}

void CudaEmitter::openGroups(int64_t numel) {
  const BlockedLayout l = layout(numel);
  const int groups = l.slots(numel) / l.vec;
  line(l.slots(numel) <= maxUnrolledSlots() ? "#pragma unroll" : "#pragma unroll 1");
  open("for (int ts_g = 0; ts_g < " + std::to_string(groups) + "; ++ts_g)");
  line("const int ts_i0 = ts_g * " + std::to_string(threads_ * l.vec) + " + ts_tid * " + std::to_string(l.vec) + ";");
  // numel is a multiple of vec: a group is wholly inside the tile or wholly outside.
  if (guarded(numel)) open("if (ts_i0 < " + std::to_string(numel) + ")");
}

void CudaEmitter::closeGroups(int64_t numel) {
  if (guarded(numel)) close();
  close();
}

void CudaEmitter::useShared(size_t bytes) { sharedBytes_ = std::max(sharedBytes_, (bytes + 15) / 16 * 16); }

std::string CudaEmitter::declareTemp(const ir::Type& t) {
  const std::string name = "t" + std::to_string(tempCounter_++);
  line(regType(t) + " " + name + (t.isTile() ? "[" + std::to_string(slots(t.numel())) + "]" : "") + ";");
  return name;
}

std::string CudaEmitter::varName(const ir::VarPtr& v) const { return "v" + std::to_string(v->id) + "_" + sanitize(v->name); }

CudaKernelSource CudaEmitter::run() {
  result_.entryName = "ts_" + sanitize(kernel_.name);
  result_.numThreads = threads_;
  std::string params;
  for (size_t i = 0; i < kernel_.params.size(); ++i) {
    const ir::KernelParam& p = kernel_.params[i];
    if (p.isConstexpr) continue;
    if (!p.type.isPointer() && ir::isFp8(p.type.dtype())) unsupported(p.range, "an fp8 scalar parameter");
    params += (p.type.isPointer() ? memType(p.type.dtype()) + "* __restrict__" : memType(p.type.dtype())) + " p" +
              std::to_string(i) + ", ";
  }
  indent_ = 1;
  line("extern __shared__ __align__(128) unsigned char ts_smem[];");
  line("const int ts_tid = threadIdx.x;");
  const auto afterTid = out_.tellp();
  findInductionTiles();
  stmt(kernel_.body);
  if (assumeThreadRange_) {
    // What the launch guarantees, said to the compiler at the top (an assume further down does not
    // reach the hoisted chunk arithmetic of the pipelined copies: a quarter fewer instructions there).
    std::string body = out_.str();
    body.insert(static_cast<size_t>(afterTid), "  __builtin_assume(ts_tid >= 0 && ts_tid < " + std::to_string(threads_) + ");\n");
    out_.str(body);
    out_.seekp(0, std::ios_base::end);
  }
  if (!tmaTop_.empty()) {
    // The TMA pipelines' barriers and map keys, which live for the whole program (CudaTma.cpp).
    std::string body = out_.str();
    body.insert(static_cast<size_t>(afterTid), tmaTop_);
    out_.str(body);
    out_.seekp(0, std::ios_base::end);
  }
  result_.scratchBytesPerProgram = static_cast<size_t>(tmaMaps_) * 128;
  std::string statusParams = "ts_u32* __restrict__ ts_status", statusArgs = "ts_status";
  if (tmaMaps_ > 0) {
    statusParams += ", unsigned char* __restrict__ ts_scratch";
    statusArgs += ", ts_scratch";
  }
  std::ostringstream tu;
  tu << "// Generated by tilescope from kernel '" << kernel_.name << "' (" << kernel_.specializationKey() << ")\n";
  tu << "// " << kernel_.options.numWarps << " warps, " << threads_ << " threads per program; dynamic shared memory "
     << sharedBytes_ << " bytes\n";
  tu << cudaPrelude();
  if (usesFp8Helpers(out_.str())) tu << cudaFp8Prelude();
  if (tensorCores_) tu << cudaTensorCorePrelude();
  if (tensorCores_ && out_.str().find("ts_wmma_mma_s8(") != std::string::npos) tu << cudaInt8TensorCorePrelude();
  for (const auto& [name, text] : colMajorBHelpers_) tu << text;
  if (registerLoopUsed_) tu << registerLoopPrelude();
  if (!warpgroupInstructions_.empty()) {
    tu << cudaWarpgroupPrelude();
    for (const auto& [name, text] : warpgroupInstructions_) tu << text;
    tu << "// ---- end of warpgroup MMA ----\n";
  }
  if (tmaMaps_ > 0) {
    tu << cudaTmaPrelude();
    tu << "#define TS_TMA_SCRATCH " << result_.scratchBytesPerProgram << "ull\n";
  }
  if (!options_.programTiming) {
    tu << "\nextern \"C\" __global__ void __launch_bounds__(" << threads_ << ") " << result_.entryName << "(" << params
       << statusParams << ") {\n";
    tu << out_.str() << "}\n";
  } else {
    // The body becomes a device function (its `return`s end the program) inside an entry that stamps
    // the start, waits for every thread after the body, then stamps the end and the SM.
    std::string args;
    for (size_t i = 0; i < kernel_.params.size(); ++i)
      if (!kernel_.params[i].isConstexpr) args += "p" + std::to_string(i) + ", ";
    tu << "\nstatic __device__ __forceinline__ void " << result_.entryName << "_body(" << params << statusParams << ") {\n"
       << out_.str() << "}\n";
    tu << "\nextern \"C\" __global__ void __launch_bounds__(" << threads_ << ") " << result_.entryName << "(" << params
       << statusParams << ", unsigned long long* __restrict__ ts_timing) {\n"
       << "  unsigned long long ts_start, ts_end;\n"
       << "  unsigned int ts_sm;\n"
       << "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(ts_start));\n"
       << "  " << result_.entryName << "_body(" << args << statusArgs << ");\n"
       << "  __syncthreads();\n"
       << "  if (threadIdx.x != 0) return;\n"
       << "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(ts_end));\n"
       << "  asm volatile(\"mov.u32 %0, %%smid;\" : \"=r\"(ts_sm));\n"
       << "  const unsigned long long ts_p = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + "
          "(unsigned long long)gridDim.y * blockIdx.z);\n"
       << "  ts_timing[3 * ts_p] = ts_start;\n"
       << "  ts_timing[3 * ts_p + 1] = ts_end;\n"
       << "  ts_timing[3 * ts_p + 2] = ts_sm;\n"
       << "}\n";
    result_.programTiming = true;
  }
  result_.source = tu.str();
  result_.dynamicSharedBytes = sharedBytes_;
  return std::move(result_);
}

// --- statements ------------------------------------------------------------------------------------

void CudaEmitter::stmt(const ir::Stmt& s) {
  using K = ir::StmtKind;
  memo_.clear();
  if (s.kind() != K::Seq) lineDirective(s.range());
  switch (s.kind()) {
    case K::Let: {
      const auto* n = s.as<ir::Let>();
      if (inductionSteps_.count(n->var->id)) return;  // becomes `offset += step` at its assignment
      if (auto it = residentByResult_.find(n->var->id); it != residentByResult_.end()) {
        // acc + dot into the loop's resident fragments
        const ResidentAccumulator& r = it->second;
        if (pipeline_) {
          pipelinedStep(r);
          return;
        }
        const std::string av = expr(r.dot->a), bv = expr(r.dot->b);
        open("");
        stageDotOperands(r.layout, av, bv);
        multiplyStaged(r.layout, r.frags);
        close();
        return;
      }
      if (n->value.hasEffects()) memoryLet(n->var, n->value, true);
      else bindVar(n->var, n->value, true);
      return;
    }
    case K::Assign: {
      const auto* n = s.as<ir::Assign>();
      if (residentAssigns_.count(n->var->id)) return;  // the fragments are the accumulator
      if (auto it = induction_.find(n->var->id); it != induction_.end()) {
        const InductionStep& step = inductionSteps_.at(n->value.as<ir::VarRef>()->var->id);
        line(it->second.offset + " += (ts_i64)(" + expr(step.step) + ");");
        return;
      }
      bindVar(n->var, n->value, false);
      return;
    }
    case K::Store: store(*s.as<ir::Store>()); return;
    case K::Seq: {
      const std::vector<ir::Stmt>& stmts = s.as<ir::Seq>()->stmts;
      const std::map<size_t, std::pair<size_t, size_t>> groups = registerLoopGroups(stmts);
      for (size_t i = 0; i < stmts.size(); ++i) {
        auto group = groups.find(i);
        if (group == groups.end()) {
          stmt(stmts[i]);
          continue;
        }
        // A register loop with the layout pass's conversions around it, printed as one.
        const auto [loop, end] = group->second;
        memo_.clear();
        lineDirective(stmts[loop].range());
        registerLoop(*stmts[loop].as<ir::For>(), std::vector<ir::Stmt>(stmts.begin() + static_cast<std::ptrdiff_t>(i), stmts.begin() + static_cast<std::ptrdiff_t>(loop)),
                     std::vector<ir::Stmt>(stmts.begin() + static_cast<std::ptrdiff_t>(loop) + 1, stmts.begin() + static_cast<std::ptrdiff_t>(end)));
        i = end - 1;
      }
      return;
    }
    case K::If: {
      const auto* n = s.as<ir::If>();
      open("if (" + expr(n->cond) + ")");
      // Either branch may run, or neither: each starts from the state before, and the join keeps
      // the worst of them.
      const PendingStores before = storesBefore_;
      stmt(n->thenBody);
      PendingStores after = std::max(before, storesBefore_);
      if (n->elseBody) {
        close("} else {");
        ++indent_;
        storesBefore_ = before;
        stmt(n->elseBody);
        after = std::max(after, storesBefore_);
      }
      storesBefore_ = after;
      close();
      return;
    }
    case K::For: forLoop(*s.as<ir::For>()); return;
    case K::While: {
      const auto* n = s.as<ir::While>();
      forgetAssignedIn(n->body);
      // The body may follow its own stores (the previous iteration), and may not run at all.
      if (containsStore(n->body)) storesBefore_ = PendingStores::ByAnyThread;
      const PendingStores before = storesBefore_;
      open("while (" + varName(n->cond) + ")");
      stmt(n->body);
      close();
      storesBefore_ = std::max(before, storesBefore_);
      return;
    }
    case K::Print: print(*s.as<ir::Print>()); return;
    case K::Assert: assertion(*s.as<ir::Assert>()); return;
    case K::Barrier: sync(); return;
    case K::HostCall: {
      const auto* n = s.as<ir::HostCall>();
      result_.warnings.push_back(lang::Diagnostic::warning(
          n->range, "call of host function '" + n->callee + "' skipped: GPU kernels cannot run Python code (use --backend sim)"));
      line("// host call '" + sanitize(n->callee) + "(...)' skipped on the GPU");
      return;
    }
    case K::Return: line("return;"); return;
  }
  throw lang::InternalError("cuda codegen: unknown statement kind");
}

void CudaEmitter::bindVar(const ir::VarPtr& var, const ir::Expr& value, bool declare) {
  const ir::Type& t = var->type;
  if (auto it = induction_.find(var->id); it != induction_.end() && declare) {
    line("ts_i64 " + it->second.offset + " = 0;  // " + var->name + " = its initial value + this");
    return;
  }
  if (declare && kernel_.recomputedAtUse.count(var->id)) {
    // Offsets, masks and pointer tiles (the mark-recomputed-values pass's table): recomputed where
    // used (and at any index a broadcast needs), instead of living in registers or local memory for
    // the whole kernel.
    inlined_[var->id] = value;
    return;
  }
  if (t.isTile()) {
    if (std::optional<ir::Expr> c = constantSplat(value)) constantTiles_[var->id] = *c;
    else constantTiles_.erase(var->id);
  }
  const std::string v = expr(value);
  const std::string name = varName(var);
  if (t.isScalar()) {
    line((declare ? regType(t) + " " : std::string()) + name + " = " + v + ";");
    return;
  }
  if (declare) line(regType(t) + " " + name + "[" + std::to_string(slots(t.numel())) + "];");
  openLoop(t.numel());
  line(name + "[ts_j] = " + v + ";");
  closeLoop(t.numel());
}

std::optional<ir::Expr> CudaEmitter::constantSplat(const ir::Expr& value) const {
  if (const auto* s = value.as<ir::Splat>()) {
    if (s->value.as<ir::FloatImm>() || s->value.as<ir::IntImm>()) return s->value;
    return std::nullopt;
  }
  if (const auto* r = value.as<ir::VarRef>()) {
    if (auto it = constantTiles_.find(r->var->id); it != constantTiles_.end()) return it->second;
    if (auto it = inlined_.find(r->var->id); it != inlined_.end()) return constantSplat(it->second);
  }
  return std::nullopt;
}

void CudaEmitter::forgetAssignedIn(const ir::Stmt& body) {
  VarCensus census;
  census.visitStmt(body);
  for (const auto& [id, assigns] : census.assigns) constantTiles_.erase(id);
}

void CudaEmitter::forLoop(const ir::For& n) {
  if (isRegisterLoop(n)) {
    registerLoop(n, {}, {});
    return;
  }
  std::optional<ResidentAccumulator> resident = residentAccumulator(n);
  // The accumulator's value on entry, when it is one constant (acc = tl.zeros(...)).
  std::optional<ir::Expr> constantStart;
  if (resident && (resident->acc->type.dtype() == ir::DType::FP32 || resident->layout.elem == "s8"))
    constantStart = constantSplat(ir::VarRef::make(resident->acc));
  forgetAssignedIn(n.body);
  std::optional<WarpgroupMma> wgmma;
  if (resident) {
    // Load acc into tensor-core fragments (or wgmma accumulators) once; the loop accumulates there.
    const TensorCoreLayout& l = resident->layout;
    pipeline_ = pipelineFor(n, *resident);
    if (pipeline_) wgmma = pipeline_->wgmma;
    resident->frags = "ts_acc" + std::to_string(tempCounter_++);
    line("// " + resident->acc->name + " stays in " + (wgmma ? "wgmma accumulators" : "tensor-core fragments") +
         " for the whole loop");
    if (wgmma) declareWarpgroupAccumulator(*wgmma, resident->frags);
    else declareFragments(l, resident->frags);
    useShared(l.total);
    tensorCores_ = true;
    result_.usesTensorCores = true;
    if (constantStart) {
      // Every element is the same: no layout to follow, so no trip through shared memory.
      line("#pragma unroll");
      line("for (int ts_u = 0; ts_u < " + std::to_string(wgmma ? wgmma->tiles * (wgmma->n / 2) : l.blocksPerWarp * l.fm * l.fn * 8) +
           "; ++ts_u) (&" + resident->frags + (wgmma ? "[0][0]" : "[0][0][0][0]") + ")[ts_u] = " + expr(*constantStart) + ";");
    } else {
      copyResultTile(l, resident->acc, true);
      sync();
      if (wgmma) moveWarpgroupAccumulator(l, *wgmma, resident->frags, false);
      else moveFragments(l, resident->frags, false);
    }
    residentAssigns_[resident->acc->id] = resident->result->id;
    deferredLoads_ = resident->deferredLoads;
    if (pipeline_) {
      // The result is staged through shared memory after the loop, over the drained ring (wgmma's
      // ring starts at the first 1024-byte boundary).
      resident->layout.offC = 0;
      useShared(std::max(pipeline_->stages * pipeline_->stageBytes + (wgmma ? 1024 : 0), static_cast<size_t>(l.m * l.ldc * 4)));
    }
    residentByResult_[resident->result->id] = *resident;
  }
  emitForLoop(n);
  if (resident) {
    residentByResult_.erase(resident->result->id);
    residentAssigns_.erase(resident->acc->id);
    deferredLoads_.clear();
    if (wgmma) {
      // The last iteration's multiplies are still in flight.
      line("ts_wgmma_wait<0>();");
      holdWarpgroupAccumulator(*wgmma, resident->frags);
    }
    if (pipeline_) pipelineDrain();
    const TensorCoreLayout& l = resident->layout;
    if (wgmma) moveWarpgroupAccumulator(l, *wgmma, resident->frags, true);
    else moveFragments(l, resident->frags, true);
    copyResultTile(l, resident->acc, false);
    sync();
  }
}

void CudaEmitter::emitForLoop(const ir::For& n) {
  const std::string T = regType(n.iv->type);
  const std::string start = expr(n.start), end = expr(n.end), step = expr(n.step);
  result_.failures.push_back({n.step.range().valid() ? n.step.range() : n.range, "range() step is zero"});
  const std::string code = std::to_string(result_.failures.size());
  const std::string id = std::to_string(tempCounter_++);
  const std::string s = "ts_start" + id, e = "ts_end" + id, st = "ts_step" + id, c = "ts_iv" + id;
  open("");
  line("const ts_i64 " + s + " = (ts_i64)(" + start + "), " + e + " = (ts_i64)(" + end + "), " + st + " = (ts_i64)(" + step +
       ");");
  line("if (" + st + " == 0) { if (ts_tid == 0) ts_fail(ts_status, " + code + "u); return; }");
  if (pipeline_ && pipeline_->loop == &n) {
    pipeline_->start = s;
    pipeline_->end = e;
    pipeline_->step = st;
    pipeline_->counter = c;
    pipeline_->slot = "ts_slot" + id;
    pipeline_->unitOk = "ts_unit" + id;
    // The prologue's copies are the loop's first loads: stores before the loop must be visible to
    // them, and the body (Lets and Assigns only) stores nothing, so no barrier is needed inside it.
    memoryBarrierIfNeeded();
    storesBefore_ = PendingStores::None;
    pipelinePrologue();
  }
  // The body may follow its own stores (the previous iteration), and may not run at all.
  if (containsStore(n.body)) storesBefore_ = PendingStores::ByAnyThread;
  const PendingStores before = storesBefore_;
  open("for (ts_i64 " + c + " = " + s + "; " + st + " > 0 ? " + c + " < " + e + " : " + c + " > " + e + "; " + c + " += " + st +
       ")");
  line("const " + T + " " + varName(n.iv) + " = (" + T + ")" + c + ";");
  stmt(n.body);
  close();
  close();
  storesBefore_ = std::max(before, storesBefore_);
}

void CudaEmitter::print(const ir::Print& n) {
  std::vector<std::string> args;
  int64_t tileNumel = -1;
  for (const ir::Expr& a : n.args) {
    args.push_back(expr(a));
    if (a.type().isTile()) {
      if (tileNumel >= 0 && tileNumel != a.type().numel()) unsupported(n.range, "printing tiles of different sizes in one call");
      tileNumel = a.type().numel();
    }
  }
  std::string prefix = n.prefix;
  if (n.isDevicePrint && !prefix.empty() && !args.empty() && prefix.back() != ':' && prefix.back() != ' ') prefix += ':';
  std::string fmt = "pid (%d, %d, %d)" + std::string(tileNumel >= 0 ? " idx (%d)" : "");
  if (!prefix.empty()) fmt += " " + cString(prefix, true);
  std::string list = "(int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z" + std::string(tileNumel >= 0 ? ", ts_i" : "");
  for (size_t i = 0; i < args.size(); ++i) {
    fmt += " " + printfFormat(n.args[i].type(), n.hex);
    list += ", " + printfArg(n.args[i].type(), args[i]);
  }
  const std::string call = "printf(\"" + fmt + "\\n\", " + list + ");";
  if (tileNumel < 0) {
    line("if (ts_tid == 0) " + call);
    return;
  }
  openLoop(tileNumel);
  line(call);
  closeLoop(tileNumel);
}

void CudaEmitter::assertion(const ir::Assert& n) {
  result_.failures.push_back({n.range, "device assertion failed" + (n.message.empty() ? "" : ": " + n.message)});
  const std::string code = std::to_string(result_.failures.size());
  const std::string c = expr(n.cond);
  if (n.cond.type().isScalar()) {
    line("if (ts_tid == 0 && !(" + c + ")) ts_fail(ts_status, " + code + "u);");
    return;
  }
  openLoop(n.cond.type().numel());
  line("if (!(" + c + ")) ts_fail(ts_status, " + code + "u);");
  closeLoop(n.cond.type().numel());
}

// --- expressions -----------------------------------------------------------------------------------

std::string CudaEmitter::expr(const ir::Expr& e) {
  if (!e.defined()) throw lang::InternalError("cuda codegen: undefined expression");
  // Tile text depends on the index it is evaluated at; only the element loop's own index is memoized.
  const bool memoized = index_ == "ts_i" || e.type().isScalar();
  if (memoized)
    if (auto it = memo_.find(e.get()); it != memo_.end()) return it->second;
  std::string s = compute(e);
  if (memoized) memo_.emplace(e.get(), s);
  return s;
}

std::string CudaEmitter::compute(const ir::Expr& e) {
  using K = ir::ExprKind;
  const ir::Type& type = e.type();
  if (inRegisterLoop_)
    if (std::optional<std::string> r = registerExpr(e)) return *r;
  switch (e.kind()) {
    case K::IntImm: return intLiteral(type.dtype(), e.as<ir::IntImm>()->value);
    case K::FloatImm: return floatLiteral(type.dtype(), e.as<ir::FloatImm>()->value);
    case K::ParamRef: {
      const std::string p = "p" + std::to_string(e.as<ir::ParamRef>()->index);
      return type.isPointer() ? p : fromMemory(type.dtype(), p);
    }
    case K::VarRef: {
      const ir::VarPtr& var = e.as<ir::VarRef>()->var;
      if (!prefetchScalars_.empty()) {
        // Staging ahead: the loop's iv and its body's values as they will be in that iteration.
        if (auto it = prefetchScalars_.find(var->id); it != prefetchScalars_.end()) return it->second;
        if (auto it = pipeline_->bodyValues.find(var->id); it != pipeline_->bodyValues.end()) return "(" + expr(it->second) + ")";
      }
      if (type.isTile()) {
        if (auto it = inlined_.find(var->id); it != inlined_.end()) return expr(it->second);
        if (auto it = deferredLoads_.find(var->id); it != deferredLoads_.end() && index_ == "ts_i") {
          const ir::Load& load = *it->second;
          const std::string value = fromMemory(type.dtype(), "*(" + expr(load.ptr) + ")");
          if (!load.mask.defined()) return value;
          const std::string other = load.other.defined() ? expr(load.other) : "(" + regType(type) + ")0";
          return "((" + expr(load.mask) + ") ? " + value + " : " + other + ")";
        }
        if (auto it = induction_.find(var->id); it != induction_.end()) {
          const std::string base = expr(it->second.init);
          auto ahead = prefetchOffsets_.find(var->id);
          const std::string& offset = ahead != prefetchOffsets_.end() ? ahead->second : it->second.offset;
          if (type.isPointer()) return "((" + base + ") + " + offset + ")";
          return "((" + regType(type) + ")((ts_i64)(" + base + ") + " + offset + "))";
        }
        if (index_ != "ts_i") throw NotIndexable{};  // stored per slot: only this thread's own elements
        if (auto it = packedLoads_.find(var->id); it != packedLoads_.end())
          return fromMemory(type.dtype(), "ts_half(" + it->second + "[ts_j / 2], ts_j % 2)");
      }
      return element(varName(var), type);
    }
    case K::ProgramId: return "((ts_i32)blockIdx." + std::string(1, "xyz"[e.as<ir::ProgramId>()->axis]) + ")";
    case K::NumPrograms: return "((ts_i32)gridDim." + std::string(1, "xyz"[e.as<ir::NumPrograms>()->axis]) + ")";
    case K::Arange: return "((ts_i32)(" + std::to_string(e.as<ir::Arange>()->start) + " + " + index_ + "))";
    case K::Splat: return expr(e.as<ir::Splat>()->value);
    case K::Broadcast: {
      const auto* n = e.as<ir::Broadcast>();
      if (n->value.type().numel() == type.numel()) return expr(n->value);
      try {
        return withIndex(broadcastSourceIndex(n->value.type().shape(), type.shape(), index_), n->value);
      } catch (const NotIndexable&) {
        if (index_ != "ts_i") throw;
      }
      return broadcast(*n);
    }
    case K::ExpandDims: return expr(e.as<ir::ExpandDims>()->value);
    case K::Reshape: return expr(e.as<ir::Reshape>()->value);
    case K::Permute: {
      const auto* n = e.as<ir::Permute>();
      bool identity = true;
      for (size_t i = 0; i < n->order.size(); ++i) identity = identity && n->order[i] == static_cast<int>(i);
      if (identity) return expr(n->value);
      try {
        return withIndex(permuteSourceIndex(n->value.type().shape(), type.shape(), n->order, index_), n->value);
      } catch (const NotIndexable&) {
        if (index_ != "ts_i") throw;
      }
      return permute(*n);
    }
    case K::Cast: return cast(*e.as<ir::Cast>());
    case K::Unary: return unary(*e.as<ir::Unary>());
    case K::Binary: return binary(*e.as<ir::Binary>());
    case K::Select: return select(*e.as<ir::Select>());
    case K::MathCall: return math(*e.as<ir::MathCall>());
    case K::Load:
    case K::AtomicRMW:
    case K::AtomicCAS: throw lang::InternalError("cuda codegen: memory access outside a let");
    case K::Reduce:
      if (type.isTile() && index_ != "ts_i") throw NotIndexable{};
      return reduce(*e.as<ir::Reduce>());
    case K::Combine: return combineFold(*e.as<ir::Combine>());
    case K::InlineAsm: return inlineAsm(*e.as<ir::InlineAsm>());
    case K::Scan:
      if (index_ != "ts_i") throw NotIndexable{};
      return scan(*e.as<ir::Scan>());
    case K::Dot:
      if (index_ != "ts_i") throw NotIndexable{};
      return dot(*e.as<ir::Dot>());
    case K::Rand:
      if (type.isTile() && index_ != "ts_i") throw NotIndexable{};
      return random(*e.as<ir::Rand>());
    case K::Hint: return expr(e.as<ir::Hint>()->value);
    // Outside a register loop every value is blocked: evaluated at the element index like its value
    // (the register loop prints the conversions its layouts need).
    case K::ConvertLayout: return expr(e.as<ir::ConvertLayout>()->value);
  }
  throw lang::InternalError("cuda codegen: unknown expression kind");
}

}  // namespace tilescope::gpu
