#pragma once
// The offsets/mask view of one program and one of its memory operations: the offsets tile (numbers
// on a heat map), the mask tile (masked-off lanes hatched, never dropped), the values when recorded,
// and the addressed tensor with the elements this operation touches highlighted (as the
// practitioners' guide draws its 2-D offsets). Long 1-D tiles wrap at 32 lanes per row.
#include <string>

#include "core/sim/Trace.h"
#include "core/viz/GridLayout.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

// Empty scene and `error` set when the program was not traced or has no such memory operation.
Scene tilesScene(const sim::LaunchTrace& trace, const Pid& pid, size_t opIndex, std::string* error);

}  // namespace tilescope::viz
