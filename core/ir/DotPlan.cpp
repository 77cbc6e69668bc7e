#include "core/ir/DotPlan.h"

#include "core/ir/IRVisitor.h"

namespace tilescope::ir {

namespace {

class DotWalk : public IRVisitor {
public:
  std::vector<const Dot*> dots;

protected:
  void visitDot(const Dot& n) override {
    dots.push_back(&n);
    IRVisitor::visitDot(n);
  }
};

std::string s(int64_t v) { return std::to_string(v); }

std::string named(const std::map<int, std::string>& names, int id) {
  auto it = names.find(id);
  return (it == names.end() ? std::string("?") : it->second) + " (#" + s(id) + ")";
}

std::string idList(const std::map<int, std::string>& names, const std::set<int>& ids) {
  std::string out;
  for (int id : ids) out += (out.empty() ? "" : ", ") + named(names, id);
  return out;
}

std::string streamStr(const std::map<int, std::string>& names, const OperandStreamPlan& o) {
  std::string out = named(names, o.load) + " " + s(o.rows) + "x" + s(o.cols) + " at +" + std::to_string(o.offset) +
                    (o.swizzled ? " swizzled " + s(o.swizzleBytes) + "B" : " rows of " + s(o.ld));
  if (o.provenWhole) out += ", proven whole";
  if (o.maskAtEnds) out += ", mask checked at chunk ends";
  if (o.kMajor) out += ", K-major";
  return out;
}

}  // namespace

std::vector<const Dot*> dotsInOrder(const Stmt& body) {
  DotWalk walk;
  if (body) walk.visitStmt(body);
  return walk.dots;
}

const char* dotEngineName(DotEngine e) {
  switch (e) {
    case DotEngine::Exact: return "exact";
    case DotEngine::Wmma: return "wmma";
    case DotEngine::RegisterMma: return "register loop";
    case DotEngine::Wgmma: return "wgmma";
    case DotEngine::Tf32Wgmma: return "tf32 wgmma (transposed)";
  }
  return "?";
}

std::string DotPlan::str(const std::map<int, std::string>& names) const {
  std::string text = "dots {\n";
  for (const auto& [index, d] : dots) {
    text += "  dot " + s(index) + (d.var >= 0 ? " in " + named(names, d.var) : std::string()) + ": " + dotEngineName(d.engine);
    const TensorCoreShape& t = d.tensorCores;
    if (d.engine == DotEngine::Wmma || d.engine == DotEngine::Wgmma || d.engine == DotEngine::Tf32Wgmma)
      text += " " + t.elem + (t.fp8 ? " (fp8 staged as f16)" : "") + " " + s(t.m) + "x" + s(t.k) + " @ " + s(t.k) + "x" + s(t.n) +
              ", " + s(t.warps) + " warps in blocks of " + s(t.fm) + "x" + s(t.fn) + " tiles, staging " + std::to_string(t.total) +
              " bytes";
    if (d.warpgroup)
      text += std::string(d.engine == DotEngine::Wmma ? "; wgmma if pipelined: " : "; ") + "m64n" + s(d.warpgroup->n) + " x" +
              s(d.warpgroup->tiles) + " per warpgroup" + (d.warpgroup->transposed ? " (B^T A^T)" : "");
    text += "\n";
  }
  for (const auto& [iv, r] : resident) {
    text += "  loop " + named(names, iv) + ": " + named(names, r.acc) + " resident, result " + named(names, r.result) + ", dot " +
            s(r.dot);
    if (!r.deferredLoads.empty()) text += "; loaded into the staging: " + idList(names, r.deferredLoads);
    text += "\n";
  }
  for (const auto& [iv, p] : pipelines) {
    text += "  loop " + named(names, iv) + ": " + s(p.stages) + " stages of " + std::to_string(p.stageBytes) + " bytes by " +
            (p.tma ? "TMA" : "cp.async") + (p.bTransposed ? ", B transposed" : "") + "; a: " + streamStr(names, p.a) + "; b: " +
            streamStr(names, p.b);
    if (!p.unitParams.empty()) {
      text += "; unit strides";
      for (int param : p.unitParams) text += " p" + s(param);
    }
    if (!p.bodyValues.empty()) text += "; recomputed ahead: " + idList(names, p.bodyValues);
    if (!p.inductionTiles.empty()) text += "; induction tiles: " + idList(names, p.inductionTiles);
    if (!p.scalarInductions.empty()) text += "; scalar inductions: " + idList(names, p.scalarInductions);
    text += "\n";
  }
  for (const auto& [iv, why] : notPipelined) text += "  loop " + named(names, iv) + ": not pipelined: " + why + "\n";
  return text + "}\n";
}

}  // namespace tilescope::ir
