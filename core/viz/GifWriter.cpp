#include "core/viz/GifWriter.h"

#include <algorithm>
#include <unordered_map>

#include "core/base/AtomicFileWrite.h"

#if TILESCOPE_HAVE_GIF
#include <gif_lib.h>
#endif

namespace tilescope::viz {

#if TILESCOPE_HAVE_GIF

namespace {

int appendToString(GifFileType* gif, const GifByteType* bytes, int length) {
  static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(length));
  return length;
}

std::string gifError(const char* what, int code) {
  const char* text = GifErrorString(code);
  return std::string("cannot encode the GIF (") + what + "): " + (text ? text : "unknown giflib error");
}

struct Region {
  int left = 0, top = 0, width = 0, height = 0;
};

// The smallest rectangle holding every pixel that differs from `before` (the whole frame when there
// is no frame before; one pixel when nothing changed, as a frame needs an image).
Region changedRegion(const Raster& frame, const Raster& before) {
  if (before.pixels.size() != frame.pixels.size()) return {0, 0, frame.width, frame.height};
  int left = frame.width, right = -1, top = frame.height, bottom = -1;
  for (int y = 0; y < frame.height; ++y)
    for (int x = 0; x < frame.width; ++x)
      if (frame.at(x, y) != before.at(x, y)) {
        left = std::min(left, x), right = std::max(right, x);
        top = std::min(top, y), bottom = std::max(bottom, y);
      }
  if (right < 0) return {0, 0, 1, 1};
  return {left, top, right - left + 1, bottom - top + 1};
}

GifColorType gifColor(uint32_t argb) {
  return {static_cast<GifByteType>(argb >> 16), static_cast<GifByteType>(argb >> 8), static_cast<GifByteType>(argb)};
}

// The region's pixels as colour indices and their colour table: exact when they use at most 256
// colours, else quantized by giflib. Null map with `error` set when quantizing fails.
ColorMapObject* indexRegion(const Raster& frame, const Region& r, std::vector<GifByteType>& indices, std::string* error) {
  const size_t count = static_cast<size_t>(r.width) * static_cast<size_t>(r.height);
  indices.assign(count, 0);
  std::unordered_map<uint32_t, GifByteType> exact;
  std::vector<GifColorType> colors;
  bool fits = true;
  for (int y = 0; y < r.height && fits; ++y)
    for (int x = 0; x < r.width; ++x) {
      const uint32_t c = frame.at(r.left + x, r.top + y) & 0xffffffu;
      auto it = exact.find(c);
      if (it == exact.end()) {
        if (colors.size() == 256) {
          fits = false;
          break;
        }
        it = exact.emplace(c, static_cast<GifByteType>(colors.size())).first;
        colors.push_back(gifColor(c));
      }
      indices[static_cast<size_t>(y) * static_cast<size_t>(r.width) + static_cast<size_t>(x)] = it->second;
    }
  if (!fits) {
    std::vector<GifByteType> red(count), green(count), blue(count);
    for (int y = 0; y < r.height; ++y)
      for (int x = 0; x < r.width; ++x) {
        const GifColorType c = gifColor(frame.at(r.left + x, r.top + y));
        const size_t i = static_cast<size_t>(y) * static_cast<size_t>(r.width) + static_cast<size_t>(x);
        red[i] = c.Red, green[i] = c.Green, blue[i] = c.Blue;
      }
    int size = 256;
    colors.assign(256, GifColorType{0, 0, 0});
    if (GifQuantizeBuffer(static_cast<unsigned>(r.width), static_cast<unsigned>(r.height), &size, red.data(), green.data(), blue.data(),
                          indices.data(), colors.data()) == GIF_ERROR) {
      if (error) *error = "cannot encode the GIF: giflib could not reduce a frame to 256 colours";
      return nullptr;
    }
    colors.resize(static_cast<size_t>(std::clamp(size, 1, 256)));
    // Median cut gives each colour box its average, so even the background comes out a shade off
    // white. An entry most of whose pixels share one real colour gets that colour instead: the flat
    // fills that make up most of a frame stay exact, only anti-aliased edges are approximated.
    std::unordered_map<uint64_t, uint32_t> counts;  // (index << 32 | rgb) -> pixels
    for (int y = 0; y < r.height; ++y)
      for (int x = 0; x < r.width; ++x) {
        const size_t i = static_cast<size_t>(y) * static_cast<size_t>(r.width) + static_cast<size_t>(x);
        ++counts[(static_cast<uint64_t>(indices[i]) << 32) | (frame.at(r.left + x, r.top + y) & 0xffffffu)];
      }
    std::vector<uint32_t> best(colors.size(), 0), total(colors.size(), 0), bestColor(colors.size(), 0);
    for (const auto& [key, n] : counts) {
      const size_t index = static_cast<size_t>(key >> 32);
      if (index >= colors.size()) continue;
      total[index] += n;
      if (n > best[index]) best[index] = n, bestColor[index] = static_cast<uint32_t>(key);
    }
    for (size_t i = 0; i < colors.size(); ++i)
      if (best[i] > 1 && 2 * best[i] >= total[i]) colors[i] = gifColor(bestColor[i]);
  }
  // A colour table holds a power of two entries, at least two.
  const int entries = 1 << GifBitSize(std::max(2, static_cast<int>(colors.size())));
  colors.resize(static_cast<size_t>(entries), GifColorType{0, 0, 0});
  return GifMakeMapObject(entries, colors.data());
}

}  // namespace

struct GifWriter::Encoder {
  std::string bytes;
  GifFileType* gif = nullptr;
  std::string error;  // set when opening failed
};

bool GifWriter::available() { return true; }

GifWriter::GifWriter(int width, int height, int delayCentiseconds)
    : encoder_(std::make_unique<Encoder>()), width_(width), height_(height), delay_(std::clamp(delayCentiseconds, 2, 65535)) {
  int code = 0;
  encoder_->gif = EGifOpen(&encoder_->bytes, appendToString, &code);
  if (!encoder_->gif) {
    encoder_->error = gifError("open", code);
    return;
  }
  EGifSetGifVersion(encoder_->gif, true);
  // No global colour table: every frame brings its own.
  if (EGifPutScreenDesc(encoder_->gif, width, height, 8, 0, nullptr) == GIF_ERROR) {
    encoder_->error = gifError("screen", encoder_->gif->Error);
    return;
  }
  // The NETSCAPE2.0 application extension with loop count 0: browsers and slide tools loop forever.
  const GifByteType loop[3] = {1, 0, 0};
  if (EGifPutExtensionLeader(encoder_->gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(encoder_->gif, 11, "NETSCAPE2.0") == GIF_ERROR || EGifPutExtensionBlock(encoder_->gif, 3, loop) == GIF_ERROR ||
      EGifPutExtensionTrailer(encoder_->gif) == GIF_ERROR)
    encoder_->error = gifError("loop", encoder_->gif->Error);
}

GifWriter::~GifWriter() {
  if (encoder_ && encoder_->gif) EGifCloseFile(encoder_->gif, nullptr);
}

bool GifWriter::addFrame(const Raster& frame, std::string* error) {
  if (!encoder_->error.empty()) {
    if (error) *error = encoder_->error;
    return false;
  }
  if (frame.width != width_ || frame.height != height_) {
    if (error)
      *error = "GIF frame " + std::to_string(frames_ + 1) + " is " + std::to_string(frame.width) + "x" + std::to_string(frame.height) +
               ", the animation " + std::to_string(width_) + "x" + std::to_string(height_);
    return false;
  }
  GifFileType* gif = encoder_->gif;
  GraphicsControlBlock control;
  control.DisposalMode = DISPOSE_DO_NOT;  // the next frame draws over this one
  control.UserInputFlag = false;
  control.DelayTime = delay_;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const size_t length = EGifGCBToExtension(&control, extension);
  if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) == GIF_ERROR) {
    if (error) *error = gifError("frame timing", gif->Error);
    return false;
  }
  const Region r = changedRegion(frame, previous_);
  std::vector<GifByteType> indices;
  ColorMapObject* map = indexRegion(frame, r, indices, error);
  if (!map) {
    if (error && error->empty()) *error = "cannot encode the GIF: out of memory for a colour table";
    return false;
  }
  bool ok = EGifPutImageDesc(gif, r.left, r.top, r.width, r.height, false, map) != GIF_ERROR;
  GifFreeMapObject(map);
  for (int y = 0; ok && y < r.height; ++y)
    ok = EGifPutLine(gif, indices.data() + static_cast<size_t>(y) * static_cast<size_t>(r.width), r.width) != GIF_ERROR;
  if (!ok) {
    if (error) *error = gifError("image", gif->Error);
    return false;
  }
  previous_ = frame;
  ++frames_;
  return true;
}

bool GifWriter::finish(const std::string& path, std::string* error) {
  if (!encoder_->error.empty()) {
    if (error) *error = encoder_->error;
    return false;
  }
  int code = 0;
  const int closed = EGifCloseFile(encoder_->gif, &code);
  encoder_->gif = nullptr;
  if (closed == GIF_ERROR) {
    encoder_->error = gifError("close", code);
    if (error) *error = encoder_->error;
    return false;
  }
  encoder_->error = "the GIF was already written";
  const std::string failure = util::writeFileAtomically(path, encoder_->bytes);
  if (!failure.empty()) {
    if (error) *error = failure;
    return false;
  }
  return true;
}

#else

struct GifWriter::Encoder {};

bool GifWriter::available() { return false; }

GifWriter::GifWriter(int width, int height, int delayCentiseconds) : width_(width), height_(height), delay_(delayCentiseconds) {}

GifWriter::~GifWriter() = default;

namespace {
const char* kNoGif = "this build has no GIF support (install libgif-dev and rebuild); write a PNG sequence to a folder instead";
}

bool GifWriter::addFrame(const Raster&, std::string* error) {
  if (error) *error = kNoGif;
  return false;
}

bool GifWriter::finish(const std::string&, std::string* error) {
  if (error) *error = kNoGif;
  return false;
}

#endif

}  // namespace tilescope::viz
