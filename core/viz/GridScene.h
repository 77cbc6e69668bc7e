#pragma once
// The program-grid view: one cell per program (GridLayout), coloured by pid, launch order, the
// output tile it stored, bytes moved or masked-off lanes; programs the trace did not keep are grey.
// The colours are computed once per trace (programColors) so the GUI can paint 65,536 programs as an
// image and still agree with `tilescope-cli viz --view grid`.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/sim/Trace.h"
#include "core/viz/GridLayout.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

enum class GridColoring : uint8_t { Pid, Order, OutputTile, Bytes, Masked };
std::optional<GridColoring> gridColoringFromName(std::string_view name);  // "pid", "order", "tile", "bytes", "masked"
const char* gridColoringName(GridColoring c);
const char* gridColoringLabel(GridColoring c);  // "by launch order", ...

struct ProgramColors {
  std::vector<Color> byLinearId;   // every program of the grid; untraced ones grey
  std::vector<uint8_t> hatched;    // 1: the program has masked-off lanes (Masked colouring)
  std::vector<uint8_t> traced;     // 1: the trace kept this program
  std::string legend;              // what the colours mean, in words
};
ProgramColors programColors(const sim::LaunchTrace& trace, GridColoring coloring);

struct GridViewOptions {
  GridColoring coloring = GridColoring::Pid;
  std::optional<Pid> selected;
  int64_t slice = 0;  // pid_2 of a 3-D grid
  double cell = 28;   // preferred cell size; large grids shrink it to fit kMaxGridSide
  int64_t wrap = 32;  // columns of a 1-D strip
};

inline constexpr double kMaxGridSide = 1024;

struct GridGeometry {
  GridLayout layout;
  double left = 0, top = 0, cell = 0;
  std::optional<Pid> pidAt(double x, double y, int64_t slice) const;
};
GridGeometry gridGeometry(const sim::LaunchTrace& trace, const GridViewOptions& options);

Scene gridScene(const sim::LaunchTrace& trace, const GridViewOptions& options);
// The same picture for any colouring of a grid's programs (GPU timing has no trace): `title` on top,
// `colors.legend` below it; options.coloring is not used.
Scene gridScene(const std::array<int64_t, 3>& grid, const std::string& title, const ProgramColors& colors, const GridViewOptions& options);

}  // namespace tilescope::viz
