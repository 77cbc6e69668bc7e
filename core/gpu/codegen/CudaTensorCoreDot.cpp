// tl.dot on tensor cores (wmma fragments, 16 x 16 tiles split among the warps) and the K loops whose
// accumulators stay resident in registers across iterations. Orders of evaluation follow the
// simulator (core/sim/TileDot.cpp), so fp32 dots give the simulator's bits. The pipelined, wgmma and
// register-loop forms of such loops are in CudaPipeline, CudaWarpgroupMma and CudaRegisterLoop.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"
#include "core/gpu/passes/VarCensus.h"

#include <cstdlib>
#include <functional>
#include <map>
#include <optional>

namespace tilescope::gpu {

using ir::DType;

const ir::DotLowering* CudaEmitter::loweringOf(const ir::Dot& n) const {
  auto index = dotIndex_.find(&n);
  if (index == dotIndex_.end()) return nullptr;
  auto it = kernel_.dotPlan.dots.find(index->second);
  return it == kernel_.dotPlan.dots.end() ? nullptr : &it->second;
}

std::string CudaEmitter::declareFragments(const TensorCoreLayout& l, const std::string& name) {
  const std::string count = n2s(l.blocksPerWarp * l.fm * l.fn * 8);
  line(fragmentType(l) + " " + name + "[" + n2s(l.blocksPerWarp) + "][" + n2s(l.fm) + "][" + n2s(l.fn) + "][8];");
  line("#pragma unroll");
  line("for (int ts_u = 0; ts_u < " + count + "; ++ts_u) (&" + name + "[0][0][0][0])[ts_u] = " + (l.elem == "s8" ? "0" : "0.0f") +
       ";");
  return name;
}

void CudaEmitter::forEachWarpTile(const TensorCoreLayout& l, const std::function<void()>& body) {
  // Block ts_q of this warp is ts_blk; its tile (ts_u, ts_v) starts at row 16 * (ts_bm + ts_u),
  // column 16 * (ts_bn + ts_v). Fully unrolled, so fragments stay in registers.
  line("#pragma unroll");
  open("for (int ts_q = 0; ts_q < " + n2s(l.blocksPerWarp) + "; ++ts_q)");
  line("const int ts_blk = ts_tid / 32 + ts_q * " + n2s(l.warps) + ";");
  if (l.blocks % l.warps != 0) open("if (ts_blk < " + n2s(l.blocks) + ")");
  line("const int ts_bm = (ts_blk / " + n2s(l.blocksN) + ") * " + n2s(l.fm) + ", ts_bn = (ts_blk % " + n2s(l.blocksN) + ") * " +
       n2s(l.fn) + ";");
  body();
  if (l.blocks % l.warps != 0) close();
  close();
}

void CudaEmitter::stageDotOperands(const TensorCoreLayout& l, const std::string& av, const std::string& bv) {
  useShared(l.total);
  tensorCores_ = true;
  result_.usesTensorCores = true;
  // Past 32 slots the operands live in local memory anyway: unrolling 8 keeps loads in flight. fp8
  // operands read straight from memory (no per-thread array) unroll 8 at any length: fully unrolled,
  // their byte loads and decoding left ptxas with 32 registers and the accumulator spilled.
  auto partial = [&](const std::string& v) { return l.fp8 && v.find("[ts_j") == std::string::npos; };
  openLoop(l.m * l.k, false, partial(av));
  line("((" + stagedType(l) + "*)ts_smem)[(ts_i / " + n2s(l.k) + ") * " + n2s(l.lda) + " + ts_i % " + n2s(l.k) + "] = " +
       toStaged(l) + "(" + av + ");");
  closeLoop(l.m * l.k);
  openLoop(l.k * l.n, false, partial(bv));
  line("((" + stagedType(l) + "*)(ts_smem + " + std::to_string(l.offB) + "))[(ts_i / " + n2s(l.n) + ") * " + n2s(l.ldb) +
       " + ts_i % " + n2s(l.n) + "] = " + toStaged(l) + "(" + bv + ");");
  closeLoop(l.k * l.n);
  sync();
}

std::string CudaEmitter::colMajorBHelper(const std::string& elem, bool load) {
  // f16 fragments are 8 registers, bf16 4 (m16n16k16); the mma's layouts must be those of the loads.
  const std::string name = std::string(load ? "ts_wmma_load_bcol_" : "ts_wmma_mma_rc_") + elem;
  if (colMajorBHelpers_.count(name)) return name;
  const int regs = elem == "f16" ? 8 : 4;
  auto list = [](int from, int count) {
    std::string out;
    for (int i = 0; i < count; ++i) out += (i ? ",%" : "%") + std::to_string(from + i);
    return out;
  };
  std::string text;
  if (load) {
    text = "TS_DEV void " + name + "(unsigned (&r)[" + n2s(regs) + "], const void* p, int ld) {\n  asm volatile(\"wmma.load.b.sync.aligned.col.m16n16k16.shared." +
           elem + " {" + list(0, regs) + "}, [%" + n2s(regs) + "], %" + n2s(regs + 1) + ";\"\n               : ";
    for (int i = 0; i < regs; ++i) text += std::string(i ? ", " : "") + "\"=r\"(r[" + n2s(i) + "])";
    text += "\n               : \"r\"(ts_shared_addr(p)), \"r\"(ld));\n}\n";
  } else {
    const std::string types = elem == "f16" ? "f32.f32" : "f32.bf16.bf16.f32";
    text = "TS_DEV void " + name + "(float (&d)[8], const unsigned (&a)[" + n2s(regs) + "], const unsigned (&b)[" + n2s(regs) +
           "]) {\n  asm volatile(\"wmma.mma.sync.aligned.row.col.m16n16k16." + types + " {" + list(0, 8) + "}, {" +
           list(8, regs) + "}, {" + list(8 + regs, regs) + "}, {" + list(0, 8) + "};\"\n               : ";
    for (int i = 0; i < 8; ++i) text += std::string(i ? ", " : "") + "\"+f\"(d[" + n2s(i) + "])";
    text += "\n               : ";
    for (int i = 0; i < 2 * regs; ++i)
      text += std::string(i ? ", " : "") + "\"r\"(" + (i < regs ? "a[" + n2s(i) : "b[" + n2s(i - regs)) + "])";
    text += ");\n}\n";
  }
  colMajorBHelpers_[name] = text;
  return name;
}

void CudaEmitter::multiplyStaged(const TensorCoreLayout& l, const std::string& frags, const std::string& base,
                                 bool trailingSync, int64_t colMajorLdb) {
  const std::string FM = n2s(l.fm), FN = n2s(l.fn);
  forEachWarpTile(l, [&] {
    line("#pragma unroll");
    open("for (int ts_k = 0; ts_k < " + n2s(l.k) + "; ts_k += " + n2s(l.kStep) + ")");
    const std::string R = n2s(l.fragRegs), T = "const " + stagedType(l) + "*";
    line("unsigned ts_fa[" + FM + "][" + R + "], ts_fb[" + FN + "][" + R + "];");
    line("#pragma unroll");
    line("for (int ts_u = 0; ts_u < " + FM + "; ++ts_u) ts_wmma_load_a_" + l.elem + "(ts_fa[ts_u], (" + T + ")(" + base +
         ") + (ts_bm + ts_u) * " + n2s(16 * l.lda) + " + ts_k, " + n2s(l.lda) + ");");
    line("#pragma unroll");
    if (colMajorLdb > 0) {
      // B K-major: the 16 x 16 block at (ts_k, n) starts at row n, column ts_k of the N x K stage.
      line("for (int ts_v = 0; ts_v < " + FN + "; ++ts_v) " + colMajorBHelper(l.elem, true) + "(ts_fb[ts_v], (" + T + ")(" +
           base + " + " + std::to_string(l.offB) + ") + (ts_bn + ts_v) * " + n2s(16 * colMajorLdb) + " + ts_k, " +
           n2s(colMajorLdb) + ");");
    } else {
      line("for (int ts_v = 0; ts_v < " + FN + "; ++ts_v) ts_wmma_load_b_" + l.elem + "(ts_fb[ts_v], (" + T + ")(" + base + " + " +
           std::to_string(l.offB) + ") + ts_k * " + n2s(l.ldb) + " + (ts_bn + ts_v) * 16, " + n2s(l.ldb) + ");");
    }
    if (l.elem == "tf32" && pipeline_) {
      // cp.async staged the fp32 operands as loaded: round them to tf32 as the simulator does.
      for (const auto& [frag, count] : {std::pair{std::string("ts_fa"), l.fm}, std::pair{std::string("ts_fb"), l.fn}}) {
        const std::string reg = "(&" + frag + "[0][0])[ts_e]";
        line("#pragma unroll");
        line("for (int ts_e = 0; ts_e < " + n2s(count * l.fragRegs) + "; ++ts_e) " + reg + " = __float_as_uint(ts_tf32(__uint_as_float(" +
             reg + ")));");
      }
    }
    line("#pragma unroll");
    open("for (int ts_u = 0; ts_u < " + FM + "; ++ts_u)");
    line("#pragma unroll");
    const std::string mma = colMajorLdb > 0 ? colMajorBHelper(l.elem, false) : "ts_wmma_mma_" + l.elem;
    line("for (int ts_v = 0; ts_v < " + FN + "; ++ts_v) " + mma + "(" + frags + "[ts_q][ts_u][ts_v], ts_fa[ts_u], ts_fb[ts_v]);");
    close();
    close();
  });
  if (trailingSync) sync();  // the staged operands are read; the next staging may overwrite them
}

void CudaEmitter::moveFragments(const TensorCoreLayout& l, const std::string& frags, bool toShared) {
  const std::string sc = "(" + fragmentType(l) + "*)(ts_smem + " + std::to_string(l.offC) + ")";
  forEachWarpTile(l, [&] {
    line("#pragma unroll");
    open("for (int ts_u = 0; ts_u < " + n2s(l.fm) + "; ++ts_u)");
    line("#pragma unroll");
    line("for (int ts_v = 0; ts_v < " + n2s(l.fn) + "; ++ts_v) " + (toShared ? "ts_wmma_store(" : "ts_wmma_load_c(") + sc +
         " + (ts_bm + ts_u) * " + n2s(16 * l.ldc) + " + (ts_bn + ts_v) * 16, " + frags + "[ts_q][ts_u][ts_v], " + n2s(l.ldc) +
         ");");
    close();
  });
  sync();
}

void CudaEmitter::copyResultTile(const TensorCoreLayout& l, const ir::VarPtr& var, bool toShared) {
  const int64_t numel = l.m * l.n;
  const int vec = layout(numel).vec;
  const std::string name = varName(var);
  if (var->type.dtype() != DType::FP32 || vec % 4 != 0 || l.n % 4 != 0 || l.ldc % 4 != 0 || l.offC % 16 != 0 ||
      slots(numel) > maxUnrolledSlots()) {
    openLoop(numel);
    line(toShared ? sharedResultElement(l) + " = " + name + "[ts_j];" : name + "[ts_j] = " + sharedResultElement(l) + ";");
    closeLoop(numel);
    return;
  }
  // Runs of 4 elements of a thread lie in one row, 16-byte aligned (n, ldc and offC allow it): one
  // 16-byte shared access each, a quarter of the instructions for NVRTC and ptxas to go through.
  openGroups(numel);
  line("#pragma unroll");
  open("for (int ts_k = 0; ts_k < " + std::to_string(vec) + "; ts_k += 4)");
  line("const int ts_j = ts_g * " + std::to_string(vec) + " + ts_k, ts_i = ts_i0 + ts_k;");
  line("float4& ts_q = *(float4*)&" + sharedResultElement(l) + ";");
  if (toShared) line("ts_q = make_float4(" + name + "[ts_j], " + name + "[ts_j + 1], " + name + "[ts_j + 2], " + name + "[ts_j + 3]);");
  else line(name + "[ts_j] = ts_q.x; " + name + "[ts_j + 1] = ts_q.y; " + name + "[ts_j + 2] = ts_q.z; " + name + "[ts_j + 3] = ts_q.w;");
  close();
  closeGroups(numel);
}

std::string CudaEmitter::sharedResultElement(const TensorCoreLayout& l) const {
  return "((" + fragmentType(l) + "*)(ts_smem + " + std::to_string(l.offC) + "))[(ts_i / " + n2s(l.n) + ") * " + n2s(l.ldc) + " + ts_i % " +
         n2s(l.n) + "]";
}

void CudaEmitter::dotOnTensorCores(const ir::Dot& n, const std::string& av, const std::string& bv, const std::string& accv,
                                   const std::string& res) {
  const TensorCoreLayout l = loweringOf(n)->tensorCores;
  open("");
  line("// tl.dot on tensor cores: " + n2s(l.m) + "x" + n2s(l.k) + " @ " + n2s(l.k) + "x" + n2s(l.n) + ", blocks of " + n2s(l.fm) +
       "x" + n2s(l.fn) + " 16x16 tiles per warp");
  const std::string frags = declareFragments(l, "ts_c");
  stageDotOperands(l, av, bv);
  multiplyStaged(l, frags);
  moveFragments(l, frags, true);
  openLoop(l.m * l.n);
  if (l.elem == "s8" && !accv.empty())  // int32 sums wrap, as the simulator's do (no signed overflow in C++)
    line(res + "[ts_j] = (ts_i32)((ts_u32)" + accv + " + (ts_u32)" + sharedResultElement(l) + ");");
  else
    line(res + "[ts_j] = " + (accv.empty() ? "" : accv + " + ") + sharedResultElement(l) + ";");
  closeLoop(l.m * l.n);
  sync();
  close();
}

std::optional<CudaEmitter::ResidentAccumulator> CudaEmitter::residentAccumulator(const ir::For& loop) const {
  // keep-accumulators-resident's plan (core/gpu/passes/ResidentAccumulators.h), by the loop's var.
  auto it = kernel_.dotPlan.resident.find(loop.iv->id);
  if (it == kernel_.dotPlan.resident.end()) return std::nullopt;
  const ir::ResidentAccumulatorPlan& plan = it->second;
  VarCensus body;
  body.visitStmt(loop.body);
  auto result = body.lets.find(plan.result);
  auto assigns = body.assigns.find(plan.acc);
  auto lowering = kernel_.dotPlan.dots.find(plan.dot);
  if (result == body.lets.end() || assigns == body.assigns.end() || lowering == kernel_.dotPlan.dots.end() ||
      static_cast<size_t>(plan.dot) >= dots_.size())
    throw lang::InternalError("cuda codegen: the resident accumulator plan of loop '" + loop.iv->name + "' names no var of it");
  ResidentAccumulator r;
  r.acc = assigns->second.front()->var;
  r.result = result->second->var;
  r.dot = dots_[static_cast<size_t>(plan.dot)];
  r.layout = lowering->second.tensorCores;
  r.warpgroup = lowering->second.warpgroup;
  for (int id : plan.deferredLoads)
    if (auto let = body.lets.find(id); let != body.lets.end())
      if (const auto* load = let->second->value.as<ir::Load>()) r.deferredLoads[id] = load;
  return r;
}

std::string CudaEmitter::dot(const ir::Dot& n) {
  const ir::Type& at = n.a.type();
  const ir::Type& bt = n.b.type();
  const ir::Type& ot = n.type;
  const std::string av = expr(n.a), bv = expr(n.b);
  const std::string accv = n.acc ? expr(n.acc) : "";
  if (const ir::DotLowering* plan = loweringOf(n); plan && plan->engine == ir::DotEngine::Wmma) {
    const std::string res = declareTemp(ot);
    dotOnTensorCores(n, av, bv, accv, res);
    return res + "[ts_j]";
  }
  const int r = at.rank();
  const int64_t M = at.shape()[r - 2], K = at.shape()[r - 1], N = bt.shape()[r - 1];
  const size_t aBytes = static_cast<size_t>(at.numel() * regBytes(at));
  const size_t bOffset = (aBytes + 15) / 16 * 16;
  useShared(bOffset + static_cast<size_t>(bt.numel() * regBytes(bt)));
  const std::string res = declareTemp(ot);
  const DType in = at.dtype(), od = ot.dtype();
  const std::string TO = regType(od);
  std::string x = "ts_pa[ts_k]", y = "ts_pb[ts_k * " + n2s(N) + "]";
  std::string step;
  if (ir::isFloat(od)) {
    if (!ir::isFloat(in)) unsupported(n.range, "tl.dot of integer operands into a float accumulator");
    if (n.precision == ir::InputPrecision::TF32 && in == DType::FP32) {
      x = "ts_tf32(" + x + ")";
      y = "ts_tf32(" + y + ")";
    }
    if (od == DType::FP64) step = "ts_acc + (double)" + x + " * (double)" + y;
    else step = roundTo(od, "fmaf((float)" + x + ", (float)" + y + ", ts_acc)");
  } else {
    const std::string UO = arithmeticType(od);
    step = "(" + TO + ")(" + UO + ")((" + UO + ")ts_acc + (" + UO + ")(" + TO + ")" + x + " * (" + UO + ")(" + TO + ")" + y + ")";
  }
  open("");
  stageToShared(av, at, "ts_sa", 0);
  stageToShared(bv, bt, "ts_sb", bOffset);
  sync();
  openLoop(ot.numel());
  line("const int ts_m = (ts_i / " + n2s(N) + ") % " + n2s(M) + ", ts_n = ts_i % " + n2s(N) + ", ts_bt = ts_i / " +
       n2s(M * N) + ";");
  line(TO + " ts_acc = " + (accv.empty() ? "(" + TO + ")0" : accv) + ";");
  line("const " + regType(at) + "* ts_pa = ts_sa + (ts_bt * " + n2s(M) + " + ts_m) * " + n2s(K) + ";");
  line("const " + regType(bt) + "* ts_pb = ts_sb + ts_bt * " + n2s(K * N) + " + ts_n;");
  // Not unrolled: inside the unrolled element loop that would multiply NVRTC's time by K.
  line("#pragma unroll 1");
  line("for (int ts_k = 0; ts_k < " + n2s(K) + "; ++ts_k) ts_acc = " + step + ";");
  line(res + "[ts_j] = ts_acc;");
  closeLoop(ot.numel());
  sync();
  close();
  return res + "[ts_j]";
}

}  // namespace tilescope::gpu
