#pragma once
// Writes the frames of a SteppingFrames for slides, offline: an animated GIF (GifWriter) when the
// target ends in ".gif", else a PNG sequence in a folder (frame-0001.png, frame-0002.png, ...; the
// folder is made if missing and must hold nothing else, so no file of the user's is replaced). All
// frames share one canvas, the largest frame's, so the pictures do not jump. Progress is reported
// after each frame and can cancel the export, which then leaves nothing behind.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/viz/SteppingFrames.h"

namespace tilescope::viz {

struct SteppingExportOptions {
  double fps = 2;    // GIF: frames per second (0.5 .. 50; GIF timing is in hundredths of a second)
  double scale = 1;  // pixels per scene unit (2 for slides)
};

// Called with (frames done, frames in all) as work advances; returning false cancels.
using SteppingProgress = std::function<bool(size_t done, size_t total)>;

struct SteppingExportResult {
  bool ok = false;
  bool cancelled = false;
  std::string error;               // what went wrong and what to do
  std::vector<std::string> files;  // written: the GIF, or the PNG files in order
  int width = 0, height = 0;       // the frames' pixel size
};

bool isGifTarget(const std::string& target);  // "...gif" (any case); anything else is a folder
// Checks the target before any work: a folder that holds files, a GIF target without GIF support,
// an fps out of range. "" when fine.
std::string checkSteppingTarget(const std::string& target, const SteppingExportOptions& options);
// The file names of a PNG sequence of `count` frames: frame-0001.png ... (wider numbers past 9999).
std::string frameFileName(size_t index, size_t count);

SteppingExportResult exportStepping(const SteppingFrames& frames, const std::string& target, const SteppingExportOptions& options,
                                    const SteppingProgress& progress = {});

}  // namespace tilescope::viz
