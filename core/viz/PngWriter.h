#pragma once
// Saves a Scene (rasterized by SceneRaster, the same drawing SvgWriter writes) or a ready Raster as a
// PNG file with cairo (libcairo2-dev). Builds without cairo still compile: available() is false and
// write() says what to install.
#include <string>

#include "core/viz/Scene.h"
#include "core/viz/SceneRaster.h"

namespace tilescope::viz {

class PngWriter {
public:
  static bool available();
  // False with `error` set when the file cannot be written (or PNG support is not built in).
  static bool write(const Scene& scene, const std::string& path, std::string* error, double scale = 1.0);
  static bool write(const Raster& raster, const std::string& path, std::string* error);
};

}  // namespace tilescope::viz
