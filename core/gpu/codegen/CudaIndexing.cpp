// Element-index expressions of the CUDA generator (private to core/gpu): which tile values are
// recomputed where they are used instead of stored (index-pure values, induction tiles), and how a
// broadcast or permute maps an element index to its source's.
#include <map>
#include <vector>

#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/passes/RecomputedValues.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::gpu {

namespace {

std::vector<int64_t> rowMajorStrides(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

// Coordinate d of element `index` of a row-major tile of `shape`.
std::string coordinate(const ir::Shape& shape, const std::vector<int64_t>& strides, size_t d, const std::string& index) {
  std::string x = strides[d] == 1 ? "(" + index + ")" : "((" + index + ") / " + std::to_string(strides[d]) + ")";
  if (d > 0) x = "(" + x + " % " + std::to_string(shape[d]) + ")";
  return x;
}

}  // namespace

// The element of a broadcast's source that element `index` of the result repeats.
std::string broadcastSourceIndex(const ir::Shape& src, const ir::Shape& dst, const std::string& index) {
  const auto ss = rowMajorStrides(src), ds = rowMajorStrides(dst);
  std::string out;
  for (size_t d = 0; d < dst.size(); ++d) {
    if (src[d] == 1 || dst[d] == 1) continue;
    out += (out.empty() ? "" : " + ") + coordinate(dst, ds, d, index) + (ss[d] == 1 ? "" : " * " + std::to_string(ss[d]));
  }
  return out.empty() ? "0" : "(" + out + ")";
}

// The element of a permute's source that element `index` of the result is.
std::string permuteSourceIndex(const ir::Shape& src, const ir::Shape& dst, const std::vector<int>& order,
                               const std::string& index) {
  const auto ss = rowMajorStrides(src), ds = rowMajorStrides(dst);
  std::string out;
  for (size_t d = 0; d < dst.size(); ++d) {
    if (dst[d] == 1) continue;
    const int64_t st = ss[static_cast<size_t>(order[d])];
    out += (out.empty() ? "" : " + ") + coordinate(dst, ds, d, index) + (st == 1 ? "" : " * " + std::to_string(st));
  }
  return out.empty() ? "0" : "(" + out + ")";
}

bool CudaEmitter::inlinable(const ir::Expr& e) { return passes::indexPure(e); }

void CudaEmitter::findInductionTiles() {
  // The find-induction-tiles pass's table.
  for (const auto& [id, tile] : kernel_.inductionTiles) {
    induction_[id] = InductionTile{tile.init, varName(tile.var) + "_off"};
    for (const auto& [stepLet, step] : tile.steps) inductionSteps_[stepLet] = InductionStep{id, step};
  }
}

std::string CudaEmitter::withIndex(const std::string& index, const ir::Expr& e) {
  if (index.size() > 600) throw NotIndexable{};  // keep the generated text small
  const std::string saved = index_;
  index_ = index;
  try {
    std::string s = expr(e);
    index_ = saved;
    return s;
  } catch (...) {
    index_ = saved;
    throw;
  }
}

}  // namespace tilescope::gpu
