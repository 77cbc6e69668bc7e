#pragma once
// Rasterizes a Scene to a PNG file with cairo (libcairo2-dev), the same drawing SvgWriter writes.
// Builds without cairo still compile: available() is false and write() says what to install.
#include <string>

#include "core/viz/Scene.h"

namespace tilescope::viz {

class PngWriter {
public:
  static bool available();
  // False with `error` set when the file cannot be written (or PNG support is not built in).
  static bool write(const Scene& scene, const std::string& path, std::string* error, double scale = 1.0);
};

}  // namespace tilescope::viz
