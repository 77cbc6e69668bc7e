#pragma once
// The frames of the inspector's stepping, for slides: one per program in stepping order (the tiles
// view of one memory operation, or the program grid with the program outlined), or one per memory
// operation of a program (the tiles view). Frames are built on demand, so exporting 65,536 steps
// never holds them all; each gets a caption line "step 3 of 8: pid (2, 0, 0)".
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/sim/Trace.h"
#include "core/viz/GridLayout.h"
#include "core/viz/GridScene.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

enum class SteppingView : uint8_t { Tiles, Grid };
enum class SteppingUnit : uint8_t { Programs, Ops };

struct SteppingOptions {
  SteppingView view = SteppingView::Tiles;
  SteppingUnit unit = SteppingUnit::Programs;
  std::vector<Pid> programs;  // Programs: the stepping order; empty: every traced program in execution order
  Pid program{0, 0, 0};       // Ops: the program whose memory operations are stepped through
  size_t op = 0;              // Programs in the tiles view: the memory operation shown (a program's last, if it has fewer)
  GridColoring coloring = GridColoring::Pid;
};

class SteppingFrames {
public:
  // Nothing, with `error` set, when there is nothing to step through (no traced program, an
  // untraced program, a program without memory operations) or for operations in the grid view.
  // `trace` must outlive the frames.
  static std::optional<SteppingFrames> make(const sim::LaunchTrace& trace, SteppingOptions options, std::string* error);

  size_t count() const;
  Scene frame(size_t index) const;
  std::string caption(size_t index) const;  // "step 3 of 8: pid (2, 0, 0)"

private:
  SteppingFrames(const sim::LaunchTrace& trace, SteppingOptions options) : trace_(&trace), options_(std::move(options)) {}
  const sim::LaunchTrace* trace_;
  SteppingOptions options_;
  size_t opCount_ = 0;  // Ops: the program's memory operations
};

}  // namespace tilescope::viz
