#pragma once
// Writes a Scene as a standalone SVG document (hatching as an SVG pattern).
#include <string>

#include "core/viz/Scene.h"

namespace tilescope::viz {

class SvgWriter {
public:
  static std::string write(const Scene& scene);
};

}  // namespace tilescope::viz
