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

namespace {

// How the warps split an M x N output of 16 x 16 tensor-core tiles: each warp computes blocks of
// FM x FN tiles (reusing each A fragment FN times and each B fragment FM times), blocks assigned
// round-robin. Prefers every warp getting the same number of blocks, then bigger blocks (up to 8
// tiles: 64 accumulator registers), then square ones.
struct WarpTiling {
  int64_t fm = 1, fn = 1;
};

WarpTiling chooseWarpTiling(int64_t tilesM, int64_t tilesN, int64_t warps) {
  WarpTiling best;
  long bestScore = -1;
  for (int64_t fm = 1; fm <= tilesM; ++fm) {
    if (tilesM % fm) continue;
    for (int64_t fn = 1; fn <= tilesN; ++fn) {
      if (tilesN % fn || fm * fn > 8) continue;
      const int64_t blocks = (tilesM / fm) * (tilesN / fn);
      const long score = (blocks % warps == 0 ? 1000 : 0) + static_cast<long>(fm * fn) * 10 - static_cast<long>(std::abs(fm - fn));
      if (blocks >= 1 && score > bestScore) {
        bestScore = score;
        best = {fm, fn};
      }
    }
  }
  return best;
}

}  // namespace

std::optional<CudaEmitter::TensorCoreLayout> CudaEmitter::tensorCoreLayout(const ir::Dot& n) const {
  const ir::Type& at = n.a.type();
  const ir::Type& bt = n.b.type();
  const bool fp8 = ir::isFp8(at.dtype()) && ir::isFp8(bt.dtype());
  if (at.rank() != 2 || (at.dtype() != bt.dtype() && !fp8) || n.type.dtype() != DType::FP32) return std::nullopt;
  TensorCoreLayout l;
  if (at.dtype() == DType::FP16 || fp8) {
    // sm_70 and later: the f16 defaults. fp8 operands (e4m3, e5m2, or one of each) are staged as
    // fp16, which holds every fp8 value exactly: the products and the fp32 sums are those of fp8 MMA.
    l.fp8 = fp8;
  } else if (at.dtype() == DType::BF16 && options_.smArch >= 80) {
    l.elem = "bf16";
    l.toStaged = "ts_f2b";
    l.fragRegs = 4;
  } else if (at.dtype() == DType::FP32 && n.precision == ir::InputPrecision::TF32 && options_.smArch >= 80) {
    // The simulator rounds both operands to tf32 (round to nearest, ties away) and sums exact
    // products in fp32; so do the tensor cores, in another order.
    l.elem = "tf32";
    l.stagedType = "float";
    l.toStaged = "ts_tf32";
    l.kStep = 8;
    l.fragRegs = 4;
    l.elemBytes = 4;
  } else {
    return std::nullopt;
  }
  l.m = at.shape()[0];
  l.k = at.shape()[1];
  l.n = bt.shape()[1];
  if (l.m % 16 || l.n % 16 || l.k % l.kStep) return std::nullopt;
  // Padded rows (16 bytes) keep the fragments' rows on different banks; every fragment start stays
  // 32-byte aligned.
  const int64_t pad = 16 / l.elemBytes;
  l.lda = l.k + pad;
  // tf32 B fragments read a column of 4 rows per 8 lanes: rows 8 banks apart are conflict-free.
  l.ldb = l.n + (l.elem == "tf32" ? 8 : pad);
  l.ldc = l.n + 4;
  auto align = [](size_t x) { return (x + 127) / 128 * 128; };
  l.offB = align(static_cast<size_t>(l.m * l.lda * l.elemBytes));
  l.offC = align(l.offB + static_cast<size_t>(l.k * l.ldb * l.elemBytes));
  l.total = l.offC + static_cast<size_t>(l.m * l.ldc * 4);
  if (l.total > 200 * 1024) return std::nullopt;  // past what one SM offers: the exact path stages less
  l.warps = threads_ / 32;
  const WarpTiling tiling = chooseWarpTiling(l.m / 16, l.n / 16, l.warps);
  l.fm = tiling.fm;
  l.fn = tiling.fn;
  l.blocksN = (l.n / 16) / l.fn;
  l.blocks = (l.m / 16 / l.fm) * l.blocksN;
  l.blocksPerWarp = (l.blocks + l.warps - 1) / l.warps;
  return l;
}

std::string CudaEmitter::declareFragments(const TensorCoreLayout& l, const std::string& name) {
  const std::string count = n2s(l.blocksPerWarp * l.fm * l.fn * 8);
  line("float " + name + "[" + n2s(l.blocksPerWarp) + "][" + n2s(l.fm) + "][" + n2s(l.fn) + "][8];");
  line("#pragma unroll");
  line("for (int ts_u = 0; ts_u < " + count + "; ++ts_u) (&" + name + "[0][0][0][0])[ts_u] = 0.0f;");
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
  line("((" + l.stagedType + "*)ts_smem)[(ts_i / " + n2s(l.k) + ") * " + n2s(l.lda) + " + ts_i % " + n2s(l.k) + "] = " +
       l.toStaged + "(" + av + ");");
  closeLoop(l.m * l.k);
  openLoop(l.k * l.n, false, partial(bv));
  line("((" + l.stagedType + "*)(ts_smem + " + std::to_string(l.offB) + "))[(ts_i / " + n2s(l.n) + ") * " + n2s(l.ldb) +
       " + ts_i % " + n2s(l.n) + "] = " + l.toStaged + "(" + bv + ");");
  closeLoop(l.k * l.n);
  sync();
}

void CudaEmitter::multiplyStaged(const TensorCoreLayout& l, const std::string& frags, const std::string& base,
                                 bool trailingSync) {
  const std::string FM = n2s(l.fm), FN = n2s(l.fn);
  forEachWarpTile(l, [&] {
    line("#pragma unroll");
    open("for (int ts_k = 0; ts_k < " + n2s(l.k) + "; ts_k += " + n2s(l.kStep) + ")");
    const std::string R = n2s(l.fragRegs), T = "const " + l.stagedType + "*";
    line("unsigned ts_fa[" + FM + "][" + R + "], ts_fb[" + FN + "][" + R + "];");
    line("#pragma unroll");
    line("for (int ts_u = 0; ts_u < " + FM + "; ++ts_u) ts_wmma_load_a_" + l.elem + "(ts_fa[ts_u], (" + T + ")(" + base +
         ") + (ts_bm + ts_u) * " + n2s(16 * l.lda) + " + ts_k, " + n2s(l.lda) + ");");
    line("#pragma unroll");
    line("for (int ts_v = 0; ts_v < " + FN + "; ++ts_v) ts_wmma_load_b_" + l.elem + "(ts_fb[ts_v], (" + T + ")(" + base + " + " +
         std::to_string(l.offB) + ") + ts_k * " + n2s(l.ldb) + " + (ts_bn + ts_v) * 16, " + n2s(l.ldb) + ");");
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
    line("for (int ts_v = 0; ts_v < " + FN + "; ++ts_v) ts_wmma_mma_" + l.elem + "(" + frags +
         "[ts_q][ts_u][ts_v], ts_fa[ts_u], ts_fb[ts_v]);");
    close();
    close();
  });
  if (trailingSync) sync();  // the staged operands are read; the next staging may overwrite them
}

void CudaEmitter::moveFragments(const TensorCoreLayout& l, const std::string& frags, bool toShared) {
  const std::string sc = "(float*)(ts_smem + " + std::to_string(l.offC) + ")";
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
  return "((float*)(ts_smem + " + std::to_string(l.offC) + "))[(ts_i / " + n2s(l.n) + ") * " + n2s(l.ldc) + " + ts_i % " +
         n2s(l.n) + "]";
}

void CudaEmitter::dotOnTensorCores(const ir::Dot& n, const std::string& av, const std::string& bv, const std::string& accv,
                                   const std::string& res) {
  const TensorCoreLayout l = *tensorCoreLayout(n);
  open("");
  line("// tl.dot on tensor cores: " + n2s(l.m) + "x" + n2s(l.k) + " @ " + n2s(l.k) + "x" + n2s(l.n) + ", blocks of " + n2s(l.fm) +
       "x" + n2s(l.fn) + " 16x16 tiles per warp");
  const std::string frags = declareFragments(l, "ts_c");
  stageDotOperands(l, av, bv);
  multiplyStaged(l, frags);
  moveFragments(l, frags, true);
  openLoop(l.m * l.n);
  line(res + "[ts_j] = " + (accv.empty() ? "" : accv + " + ") + sharedResultElement(l) + ";");
  closeLoop(l.m * l.n);
  sync();
  close();
}

namespace {

const ir::VarRef* asVarRef(const ir::Expr& e) { return e.defined() ? e.as<ir::VarRef>() : nullptr; }

}  // namespace

std::optional<CudaEmitter::ResidentAccumulator> CudaEmitter::residentAccumulator(const ir::For& loop) const {
  std::vector<ir::Stmt> body;
  if (const auto* seq = loop.body.as<ir::Seq>()) body = seq->stmts;
  else body.push_back(loop.body);
  VarCensus uses;
  uses.visitStmt(loop.body);
  for (const ir::Stmt& s : body) {
    const auto* let = s.as<ir::Let>();
    if (!let) continue;
    // acc + dot(a, b), dot(a, b) + acc, or dot(a, b, acc)
    const ir::Dot* dot = nullptr;
    const ir::VarRef* acc = nullptr;
    if (const auto* d = let->value.as<ir::Dot>()) {
      dot = d;
      acc = asVarRef(d->acc);
    } else if (const auto* add = let->value.as<ir::Binary>(); add && add->op == ir::BinaryOp::Add) {
      for (int side = 0; side < 2 && !dot; ++side) {
        const ir::Expr& x = side == 0 ? add->a : add->b;
        const ir::Expr& y = side == 0 ? add->b : add->a;
        const auto* d = y.as<ir::Dot>();
        if (asVarRef(x) && d && !d->acc.defined()) {
          dot = d;
          acc = asVarRef(x);
        }
      }
    }
    if (!dot || !acc || !acc->var->isMutable || !(acc->var->type == let->var->type)) continue;
    const std::optional<TensorCoreLayout> layout = tensorCoreLayout(*dot);
    if (!layout || layout->blocksPerWarp * layout->fm * layout->fn * 8 > 128) continue;  // registers
    // acc is read only here and assigned only from this result, which nothing else reads.
    const int accId = acc->var->id, resultId = let->var->id;
    if (uses.readCount(accId) != 1 || uses.assignCount(accId) != 1 || uses.readCount(resultId) != 1) continue;
    bool assignedBack = false;
    for (const ir::Stmt& t : body)
      if (const auto* a = t.as<ir::Assign>(); a && a->var->id == accId && asVarRef(a->value) && asVarRef(a->value)->var->id == resultId)
        assignedBack = true;
    if (!assignedBack) continue;
    ResidentAccumulator r;
    r.acc = acc->var;
    r.result = let->var;
    r.dot = dot;
    r.layout = *layout;
    return r;
  }
  return std::nullopt;
}

const ir::VarRef* CudaEmitter::transposedVarRef(const ir::Expr& e) {
  const auto* p = e.defined() ? e.as<ir::Permute>() : nullptr;
  if (!p || p->order != std::vector<int>{1, 0}) return nullptr;
  return asVarRef(p->value);
}

std::map<int, const ir::Load*> CudaEmitter::deferrableOperandLoads(const ir::For& loop, const ResidentAccumulator& r,
                                                                   bool transposedB) const {
  std::map<int, const ir::Load*> out;
  const auto* seq = loop.body.as<ir::Seq>();
  if (!seq || containsStore(loop.body)) return out;
  VarCensus uses;
  uses.visitStmt(loop.body);
  size_t dotAt = seq->stmts.size();
  for (size_t i = 0; i < seq->stmts.size(); ++i)
    if (const auto* let = seq->stmts[i].as<ir::Let>(); let && let->var->id == r.result->id) dotAt = i;
  for (const ir::Expr* operand : {&r.dot->a, &r.dot->b}) {
    const ir::VarRef* ref = asVarRef(*operand);
    if (!ref && transposedB && operand == &r.dot->b) ref = transposedVarRef(*operand);
    if (!ref || uses.readCount(ref->var->id) != 1) continue;
    for (size_t i = 0; i < dotAt; ++i) {
      const auto* let = seq->stmts[i].as<ir::Let>();
      if (!let || let->var->id != ref->var->id) continue;
      const auto* load = let->value.as<ir::Load>();
      bool onlyLetsBetween = true;
      for (size_t j = i + 1; j < dotAt; ++j) onlyLetsBetween = onlyLetsBetween && seq->stmts[j].as<ir::Let>() != nullptr;
      if (load && !load->isVolatile && onlyLetsBetween) out[ref->var->id] = load;
    }
  }
  return out;
}

std::string CudaEmitter::dot(const ir::Dot& n) {
  const ir::Type& at = n.a.type();
  const ir::Type& bt = n.b.type();
  const ir::Type& ot = n.type;
  const std::string av = expr(n.a), bv = expr(n.b);
  const std::string accv = n.acc ? expr(n.acc) : "";
  if (tensorCoreLayout(n)) {
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
