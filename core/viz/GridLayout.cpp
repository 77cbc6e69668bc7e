#include "core/viz/GridLayout.h"

#include <algorithm>

namespace tilescope::viz {

GridLayout::GridLayout(const sim::Grid& grid, int64_t wrap) : grid_(grid) {
  if (dimensions() == 1) {
    columns_ = std::max<int64_t>(1, std::min(wrap, grid_.x));
    rows_ = (grid_.x + columns_ - 1) / columns_;
  } else {
    rows_ = grid_.x;
    columns_ = grid_.y;
  }
}

int GridLayout::dimensions() const {
  if (grid_.z > 1) return 3;
  if (grid_.y > 1) return 2;
  return 1;
}

GridCell GridLayout::cellOf(const Pid& pid) const {
  if (dimensions() == 1) return {pid[0] % columns_, pid[0] / columns_, 0};
  return {pid[1], pid[0], pid[2]};
}

std::optional<Pid> GridLayout::pidAt(const GridCell& cell) const {
  if (cell.column < 0 || cell.row < 0 || cell.slice < 0 || cell.column >= columns_ || cell.row >= rows_ ||
      cell.slice >= grid_.z)
    return std::nullopt;
  if (dimensions() == 1) {
    const int64_t p = cell.row * columns_ + cell.column;
    if (p >= grid_.x) return std::nullopt;
    return Pid{p, 0, 0};
  }
  return Pid{cell.row, cell.column, cell.slice};
}

}  // namespace tilescope::viz
