#pragma once
// A Scene rasterized with cairo into plain 32-bit pixels: what PngWriter saves and GifWriter
// encodes. Frames of an animation share one canvas size, so a scene can be drawn onto a canvas
// larger than itself (the rest stays white). Builds without cairo: available() is false.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/viz/Scene.h"

namespace tilescope::viz {

struct Raster {
  int width = 0, height = 0;
  std::vector<uint32_t> pixels;  // row-major, 0xAARRGGBB, opaque (drawn over white)
  uint32_t at(int x, int y) const { return pixels[static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)]; }
};

// Largest raster side accepted: a 16k x 16k frame is already 1 GiB of pixels.
inline constexpr int kMaxRasterSide = 16384;

class SceneRaster {
public:
  static bool available();
  // Pixels of `scene` at `scale`; the canvas is at least the scene's size times scale, and at least
  // minWidth x minHeight. Nothing, with `error` set, without cairo or for an oversized canvas.
  static std::optional<Raster> render(const Scene& scene, double scale, std::string* error, int minWidth = 0, int minHeight = 0);
  // The canvas size render() makes for `scene` at `scale`.
  static std::pair<int, int> canvasSize(const Scene& scene, double scale);
};

}  // namespace tilescope::viz
