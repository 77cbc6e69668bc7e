#include "core/gpu/passes/BlockedLayoutAssignment.h"

#include <algorithm>
#include <map>

#include "core/gpu/passes/VarCensus.h"

namespace tilescope::gpu::passes {

namespace {

// The shapes of every tile in the kernel, by numel.
class TileShapes : public ir::IRVisitor {
public:
  std::map<int64_t, std::vector<ir::Shape>> byNumel;
  std::map<int64_t, int> widestAccess;  // bytes of the widest element a tile of this numel loads or stores
  void visitExpr(const ir::Expr& e) override {
    if (!e) return;
    if (e.type().isTile()) byNumel[e.type().numel()].push_back(e.type().shape());
    ir::IRVisitor::visitExpr(e);
  }
  void visitLoad(const ir::Load& n) override {
    access(n.ptr);
    ir::IRVisitor::visitLoad(n);
  }
  void visitStore(const ir::Store& n) override {
    access(n.ptr);
    ir::IRVisitor::visitStore(n);
  }
  void visitAtomicRMW(const ir::AtomicRMW& n) override {
    access(n.ptr);
    ir::IRVisitor::visitAtomicRMW(n);
  }
  void visitAtomicCAS(const ir::AtomicCAS& n) override {
    access(n.ptr);
    ir::IRVisitor::visitAtomicCAS(n);
  }

private:
  void access(const ir::Expr& ptr) {
    if (!ptr.type().isTile()) return;
    int& widest = widestAccess[ptr.type().numel()];
    widest = std::max(widest, std::max(1, ir::bitWidth(ptr.type().dtype()) / 8));
  }
};

}  // namespace

int chooseVectorWidth(int64_t numel, const std::vector<ir::Shape>& shapes, int threads, int widestAccessBytes) {
  // 16 bytes per access where the elements allow it (8 for fp16), else 4 elements as for fp32.
  const int widest = widestAccessBytes <= 2 ? 8 : 4;
  for (int v : {8, 4, 2}) {
    if (v > widest || numel % v != 0 || numel < static_cast<int64_t>(threads) * v) continue;
    bool ok = true;
    for (const ir::Shape& s : shapes) ok = ok && !s.empty() && s.back() % v == 0;
    if (ok) return v;
  }
  return 1;
}

ir::Kernel assignBlockedLayouts(const ir::Kernel& kernel) {
  ir::Kernel out = kernel;
  const int threads = kernel.options.numWarps * 32;
  TileShapes shapes;
  shapes.visitKernel(kernel);
  out.blockedVectorWidths.clear();
  for (const auto& [numel, list] : shapes.byNumel) {
    const auto widest = shapes.widestAccess.find(numel);
    out.blockedVectorWidths[numel] = chooseVectorWidth(numel, list, threads, widest == shapes.widestAccess.end() ? 4 : widest->second);
  }
  if (threads <= 0) return out;  // no layout without threads (the emitter reports num_warps)
  VarCensus census;
  census.visitStmt(kernel.body);
  for (const auto& [id, let] : census.lets) {
    const ir::Type& t = let->var->type;
    if (!t.isTile() || out.layouts.count(id)) continue;
    ir::TileLayout l;
    l.kind = ir::LayoutKind::Blocked;
    l.threads = threads;
    const auto width = out.blockedVectorWidths.find(t.numel());
    l.vec = width == out.blockedVectorWidths.end() ? 1 : width->second;
    const int64_t perRound = int64_t{threads} * l.vec;
    l.slotsPerThread = static_cast<int>((t.numel() + perRound - 1) / perRound) * l.vec;
    for (int d = static_cast<int>(t.shape().size()) - 1; d >= 0; --d) l.order.push_back(d);
    out.layouts[id] = l;
  }
  return out;
}

}  // namespace tilescope::gpu::passes
