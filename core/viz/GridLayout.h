#pragma once
// Where each program of a launch grid sits in the program-grid view, and back: a 1-D grid is a
// strip wrapped at `wrap` columns, a 2-D grid has pid_0 down and pid_1 across (a matmul's
// pid_m/pid_n pick a row/column block of the output, so the grid looks like the output matrix), a
// 3-D grid is a stack of such 2-D slices, one per pid_2, shown one at a time.
#include <array>
#include <cstdint>
#include <optional>

#include "core/sim/Grid.h"

namespace tilescope::viz {

using Pid = std::array<int64_t, 3>;

struct GridCell {
  int64_t column = 0;
  int64_t row = 0;
  int64_t slice = 0;  // pid_2 for 3-D grids; 0 otherwise
  friend bool operator==(const GridCell&, const GridCell&) = default;
};

class GridLayout {
public:
  // `wrap`: columns of a 1-D strip (ignored for 2-D and 3-D grids).
  explicit GridLayout(const sim::Grid& grid, int64_t wrap = 32);

  const sim::Grid& grid() const { return grid_; }
  int dimensions() const;  // 1, 2 or 3: the highest axis with more than one program
  int64_t columns() const { return columns_; }
  int64_t rows() const { return rows_; }
  int64_t slices() const { return grid_.z; }

  GridCell cellOf(const Pid& pid) const;
  // The program drawn at a cell; nothing for the empty tail of a wrapped strip or a cell outside.
  std::optional<Pid> pidAt(const GridCell& cell) const;

private:
  sim::Grid grid_;
  int64_t columns_ = 1;
  int64_t rows_ = 1;
};

}  // namespace tilescope::viz
