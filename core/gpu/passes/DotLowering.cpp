#include "core/gpu/passes/DotLowering.h"

#include <cstdlib>
#include <set>
#include <utility>

#include "core/ir/IRVisitor.h"

namespace tilescope::gpu::passes {

using ir::DType;

namespace {

constexpr size_t kSharedLimit = 200 * 1024;  // what one SM offers, with room for the compiler's own
constexpr int64_t kMaxAccumulators = 128;    // fp32 wgmma accumulator registers per thread

// How the warps split an M x N output of 16 x 16 tensor-core tiles: each warp computes blocks of
// FM x FN tiles (reusing each A fragment FN times and each B fragment FM times), blocks assigned
// round-robin. Prefers every warp getting the same number of blocks, then bigger blocks (up to 8
// tiles: 64 accumulator registers), then square ones.
std::pair<int64_t, int64_t> chooseWarpTiling(int64_t tilesM, int64_t tilesN, int64_t warps) {
  std::pair<int64_t, int64_t> best{1, 1};
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

// The dots of the loops assign-layouts keeps in registers.
class RegisterLoopDots : public ir::IRVisitor {
public:
  explicit RegisterLoopDots(const std::set<int>& loops) : loops_(loops) {}
  std::set<const ir::Dot*> dots;

protected:
  void visitFor(const ir::For& n) override {
    depth_ += loops_.count(n.iv->id) ? 1 : 0;
    ir::IRVisitor::visitFor(n);
    depth_ -= loops_.count(n.iv->id) ? 1 : 0;
  }
  void visitDot(const ir::Dot& n) override {
    if (depth_ > 0) dots.insert(&n);
    ir::IRVisitor::visitDot(n);
  }

private:
  const std::set<int>& loops_;
  int depth_ = 0;
};

// Which Let or Assign holds each dot (by pointer).
class DotHolders : public ir::IRVisitor {
public:
  std::map<const ir::Dot*, int> holder;

protected:
  void visitLet(const ir::Let& n) override {
    const int saved = current_;
    current_ = n.var->id;
    ir::IRVisitor::visitLet(n);
    current_ = saved;
  }
  void visitAssign(const ir::Assign& n) override {
    const int saved = current_;
    current_ = n.var->id;
    ir::IRVisitor::visitAssign(n);
    current_ = saved;
  }
  void visitDot(const ir::Dot& n) override {
    holder.emplace(&n, current_);
    ir::IRVisitor::visitDot(n);
  }

private:
  int current_ = -1;
};

}  // namespace

std::optional<ir::TensorCoreShape> tensorCoreShape(const ir::Dot& n, const GpuTarget& target, int64_t warps) {
  const ir::Type& at = n.a.type();
  const ir::Type& bt = n.b.type();
  const bool fp8 = ir::isFp8(at.dtype()) && ir::isFp8(bt.dtype());
  // int8 x int8 into int32: integer products and sums are exact, and the s32 accumulator wraps as
  // the simulator's sums do, so the tensor cores give its bits in any order.
  const bool s8 = at.dtype() == DType::I8 && bt.dtype() == DType::I8 && n.type.dtype() == DType::I32;
  if (at.rank() != 2 || (at.dtype() != bt.dtype() && !fp8) || (n.type.dtype() != DType::FP32 && !s8)) return std::nullopt;
  ir::TensorCoreShape l;
  if (s8) {
    if (target.smArch < 72) return std::nullopt;
    l.elem = "s8";
    l.fragRegs = 2;
    l.elemBytes = 1;
  } else if (at.dtype() == DType::FP16 || fp8) {
    // sm_70 and later: the f16 defaults. fp8 operands (e4m3, e5m2, or one of each) are staged as
    // fp16, which holds every fp8 value exactly: the products and the fp32 sums are those of fp8 MMA.
    l.fp8 = fp8;
  } else if (at.dtype() == DType::BF16 && target.smArch >= 80) {
    l.elem = "bf16";
    l.fragRegs = 4;
  } else if (at.dtype() == DType::FP32 && n.precision == ir::InputPrecision::TF32 && target.smArch >= 80) {
    // The simulator rounds both operands to tf32 (round to nearest, ties away) and sums exact
    // products in fp32; so do the tensor cores, in another order.
    l.elem = "tf32";
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
  if (l.total > kSharedLimit) return std::nullopt;  // past what one SM offers: the exact path stages less
  l.warps = warps;
  auto [fm, fn] = chooseWarpTiling(l.m / 16, l.n / 16, l.warps);
  // A row-major s8 B fragment is gathered byte by byte (8 shared loads, where A's is one ldmatrix):
  // of two equally good blocks, the one with fewer B fragments (taller than wide).
  if (l.elem == "s8" && fn > fm && (l.m / 16) % fn == 0 && (l.n / 16) % fm == 0) std::swap(fm, fn);
  l.fm = fm;
  l.fn = fn;
  l.blocksN = (l.n / 16) / l.fn;
  l.blocks = (l.m / 16 / l.fm) * l.blocksN;
  l.blocksPerWarp = (l.blocks + l.warps - 1) / l.warps;
  return l;
}

std::optional<ir::WarpgroupShape> warpgroupShape(const ir::TensorCoreShape& l, const GpuTarget& target) {
  if (!target.archSpecific || target.smArch != 90 || l.warps % 4 != 0) return std::nullopt;
  ir::WarpgroupShape g;
  g.groups = l.warps / 4;
  if (l.elem == "tf32") {
    // wgmma reads tf32 operands from shared memory only K-major: the loop computes B^T A^T. wgmma's
    // M is BN (64 per tile), its N is BM (a multiple of 8, at most 256); K in whole 32-float panels.
    if (l.n % (64 * g.groups) != 0 || l.k % 32 != 0 || l.m % 8 != 0 || l.m > 256) return std::nullopt;
    g.rowsPerGroup = l.n / g.groups;
    g.n = l.m;
    g.transposed = true;
  } else {
    if (l.elem != "f16" && l.elem != "bf16") return std::nullopt;
    // B's N in panels of 64 16-bit columns (128-byte swizzle), at most 256 columns of accumulators;
    // K in steps of 16: rows of K that are not whole 128-byte panels (BLOCK_K = 32 or 16) take the
    // 64- or 32-byte swizzle (pipeline-dot-loops picks each operand's, swizzleFor).
    if (l.m % (64 * g.groups) != 0 || l.k % 16 != 0 || l.n % 64 != 0 || l.n > 256) return std::nullopt;
    g.rowsPerGroup = l.m / g.groups;
    g.n = l.n;
  }
  g.tiles = g.rowsPerGroup / 64;
  if (g.tiles * g.n / 2 > kMaxAccumulators) return std::nullopt;
  g.elem = l.elem;
  return g;
}

ir::Kernel selectDotLowering(const ir::Kernel& kernel, const GpuTarget& target) {
  ir::Kernel out = kernel;
  out.dotPlan.dots.clear();
  RegisterLoopDots inRegisters(kernel.registerLoops);
  DotHolders holders;
  if (kernel.body) {
    inRegisters.visitStmt(kernel.body);
    holders.visitStmt(kernel.body);
  }
  const std::vector<const ir::Dot*> dots = ir::dotsInOrder(kernel.body);
  for (size_t i = 0; i < dots.size(); ++i) {
    const ir::Dot& dot = *dots[i];
    ir::DotLowering d;
    if (auto it = holders.holder.find(&dot); it != holders.holder.end()) d.var = it->second;
    if (inRegisters.dots.count(&dot)) {
      d.engine = ir::DotEngine::RegisterMma;
    } else if (std::optional<ir::TensorCoreShape> shape = tensorCoreShape(dot, target, kernel.options.numWarps)) {
      d.engine = ir::DotEngine::Wmma;
      d.tensorCores = *shape;
      d.warpgroup = warpgroupShape(*shape, target);
    }
    out.dotPlan.dots[static_cast<int>(i)] = d;
  }
  return out;
}

}  // namespace tilescope::gpu::passes
