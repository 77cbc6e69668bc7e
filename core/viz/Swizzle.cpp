#include "core/viz/Swizzle.h"

#include <algorithm>
#include <set>

namespace tilescope::viz {

std::pair<int64_t, int64_t> swizzle2d(int64_t i, int64_t j, int64_t sizeI, int64_t sizeJ, int64_t sizeG) {
  // Same arithmetic as Triton's python/triton/language/standard.py (integer division of
  // non-negative values).
  const int64_t ij = i * sizeJ + j;
  const int64_t sizeGj = sizeG * sizeJ;
  const int64_t groupId = ij / sizeGj;
  const int64_t offI = groupId * sizeG;
  const int64_t sizeGroup = std::min(sizeI - offI, sizeG);
  const int64_t inGroup = ij % sizeGj;
  return {offI + inGroup % sizeGroup, inGroup / sizeGroup};
}

std::vector<std::vector<int64_t>> processingOrder(int64_t rows, int64_t cols, int64_t groupSize) {
  std::vector<std::vector<int64_t>> order(static_cast<size_t>(std::max<int64_t>(rows, 0)),
                                          std::vector<int64_t>(static_cast<size_t>(std::max<int64_t>(cols, 0)), -1));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      const auto [m, n] = groupSize > 0 ? swizzle2d(i, j, rows, cols, groupSize) : std::pair<int64_t, int64_t>{i, j};
      order[m][n] = i * cols + j;
    }
  return order;
}

std::vector<std::pair<int64_t, int64_t>> tilesInOrder(const std::vector<std::vector<int64_t>>& order) {
  size_t count = 0;
  for (const auto& row : order) count += row.size();
  std::vector<std::pair<int64_t, int64_t>> tiles(count, {-1, -1});
  for (size_t m = 0; m < order.size(); ++m)
    for (size_t n = 0; n < order[m].size(); ++n) {
      const int64_t p = order[m][n];
      if (p >= 0 && static_cast<size_t>(p) < count) tiles[p] = {static_cast<int64_t>(m), static_cast<int64_t>(n)};
    }
  return tiles;
}

BlockLoads distinctBlocksLoaded(const std::vector<std::vector<int64_t>>& order, int64_t programs, int64_t kBlocks) {
  std::set<int64_t> rows, cols;
  const auto tiles = tilesInOrder(order);
  for (int64_t p = 0; p < programs && p < static_cast<int64_t>(tiles.size()); ++p) {
    if (tiles[p].first < 0) continue;
    rows.insert(tiles[p].first);
    cols.insert(tiles[p].second);
  }
  return {static_cast<int64_t>(rows.size()) * kBlocks, static_cast<int64_t>(cols.size()) * kBlocks};
}

}  // namespace tilescope::viz
