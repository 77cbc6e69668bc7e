#pragma once
// Encodes Rasters as an animated GIF that loops forever (giflib, libgif-dev). Each frame gets its own
// colour table: the frame's exact colours when it has at most 256 (the inspector's flat fills and
// most frames), else giflib's median-cut quantizer (anti-aliased text on a busy frame). Only the
// part of a frame that differs from the one before is stored, so stepping through a large grid,
// which moves one outline, stays small. The file is written atomically by finish(). Builds
// without giflib compile: available() is false and finish() says what to install.
#include <memory>
#include <string>

#include "core/viz/SceneRaster.h"

namespace tilescope::viz {

class GifWriter {
public:
  static bool available();

  // Every frame must be width x height; `delayCentiseconds` is how long each stays on screen.
  GifWriter(int width, int height, int delayCentiseconds);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  // False, with `error` set, for a frame of another size or when encoding fails.
  bool addFrame(const Raster& frame, std::string* error);
  int frames() const { return frames_; }
  // Writes the GIF to `path` (atomically: a failed write leaves an existing file as it was).
  bool finish(const std::string& path, std::string* error);

private:
  struct Encoder;
  std::unique_ptr<Encoder> encoder_;
  int width_, height_, delay_;
  int frames_ = 0;
  Raster previous_;
};

}  // namespace tilescope::viz
