#include "core/viz/SteppingExport.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "core/viz/GifWriter.h"
#include "core/viz/PngWriter.h"
#include "core/viz/SceneRaster.h"

namespace tilescope::viz {

namespace fs = std::filesystem;

bool isGifTarget(const std::string& target) {
  if (target.size() < 4) return false;
  std::string end = target.substr(target.size() - 4);
  std::transform(end.begin(), end.end(), end.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return end == ".gif";
}

std::string frameFileName(size_t index, size_t count) {
  const size_t digits = std::max<size_t>(4, std::to_string(count).size());
  std::string number = std::to_string(index + 1);
  return "frame-" + std::string(digits - std::min(digits, number.size()), '0') + number + ".png";
}

std::string checkSteppingTarget(const std::string& target, const SteppingExportOptions& options) {
  if (target.empty()) return "where to? give a .gif file or a folder for the PNG frames";
  if (!(options.scale > 0 && options.scale <= 8)) return "the scale must be above 0 and at most 8";
  if (!SceneRaster::available()) return "this build cannot draw pictures (install libcairo2-dev and rebuild): the frames are drawn with cairo";
  if (isGifTarget(target)) {
    if (!GifWriter::available())
      return "this build has no GIF support (install libgif-dev and rebuild); give a folder instead to write a PNG sequence";
    if (!(options.fps >= 0.5 && options.fps <= 50)) return "frames per second must be between 0.5 and 50 for a GIF";
    std::error_code ec;
    if (fs::is_directory(target, ec)) return target + " is a folder; give a file name ending in .gif";
    return "";
  }
  std::error_code ec;
  if (fs::exists(target, ec) && !fs::is_directory(target, ec))
    return target + " is a file; give a folder for the PNG frames (or a name ending in .gif)";
  if (fs::is_directory(target, ec) && !fs::is_empty(target, ec))
    return target + " already holds files; give a new or empty folder (frames never replace other files)";
  return "";
}

SteppingExportResult exportStepping(const SteppingFrames& frames, const std::string& target, const SteppingExportOptions& options,
                                    const SteppingProgress& progress) {
  SteppingExportResult result;
  result.error = checkSteppingTarget(target, options);
  if (!result.error.empty()) return result;
  const size_t count = frames.count();
  // Two passes: the canvas (every frame's size) first, then the pixels; progress counts both.
  const size_t total = 2 * count;
  auto advance = [&](size_t done) { return !progress || progress(done, total); };
  for (size_t i = 0; i < count; ++i) {
    const auto [w, h] = SceneRaster::canvasSize(frames.frame(i), options.scale);
    result.width = std::max(result.width, w);
    result.height = std::max(result.height, h);
    if (!advance(i + 1)) {
      result.cancelled = true;
      result.error = "cancelled";
      return result;
    }
  }
  const bool gif = isGifTarget(target);
  const fs::path folder(target);
  bool madeFolder = false;
  std::error_code ec;
  if (!gif && !fs::exists(folder, ec)) {
    if (!fs::create_directories(folder, ec) && ec) {
      result.error = "cannot make the folder " + target + ": " + ec.message();
      return result;
    }
    madeFolder = true;
  }
  // Cancelled or failed: the PNG files written so far (and a folder made here) go again.
  auto undo = [&] {
    for (const std::string& f : result.files) fs::remove(f, ec);
    result.files.clear();
    if (madeFolder) fs::remove(folder, ec);
  };
  const int delay = static_cast<int>(std::lround(100 / std::clamp(options.fps, 0.5, 50.0)));
  GifWriter writer(result.width, result.height, delay);
  for (size_t i = 0; i < count; ++i) {
    const std::optional<Raster> raster = SceneRaster::render(frames.frame(i), options.scale, &result.error, result.width, result.height);
    bool ok = raster.has_value();
    if (ok && gif) ok = writer.addFrame(*raster, &result.error);
    if (ok && !gif) {
      const std::string file = (folder / frameFileName(i, count)).string();
      ok = PngWriter::write(*raster, file, &result.error);
      if (ok) result.files.push_back(file);
    }
    if (!ok) {
      undo();
      return result;
    }
    if (!advance(count + i + 1)) {
      undo();
      result.cancelled = true;
      result.error = "cancelled";
      return result;
    }
  }
  if (gif) {
    if (!writer.finish(target, &result.error)) return result;
    result.files.push_back(target);
  }
  result.ok = true;
  return result;
}

}  // namespace tilescope::viz
