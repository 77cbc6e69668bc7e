#include "core/base/FrameCodec.h"

namespace tilescope::util {

std::string encodeFrame(FrameKind kind, std::string_view payload) {
  const auto size = static_cast<uint32_t>(payload.size());
  std::string frame;
  frame.reserve(kFrameHeaderSize + payload.size());
  frame.push_back(static_cast<char>(kind));
  frame.push_back(static_cast<char>((size >> 24) & 0xff));
  frame.push_back(static_cast<char>((size >> 16) & 0xff));
  frame.push_back(static_cast<char>((size >> 8) & 0xff));
  frame.push_back(static_cast<char>(size & 0xff));
  frame.append(payload);
  return frame;
}

void FrameDecoder::feed(const char* data, size_t size) {
  if (failed()) return;
  // Drop what was already handed out before growing, so the buffer stays as large as one frame.
  if (consumed_ > 0 && consumed_ >= buffer_.size() / 2) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
  buffer_.append(data, size);
}

std::optional<Frame> FrameDecoder::next() {
  if (failed() || bufferedBytes() < kFrameHeaderSize) return std::nullopt;
  const auto* header = reinterpret_cast<const unsigned char*>(buffer_.data() + consumed_);
  const char kind = static_cast<char>(header[0]);
  if (kind != static_cast<char>(FrameKind::Json) && kind != static_cast<char>(FrameKind::Blob)) {
    error_ = "bad frame kind byte " + std::to_string(header[0]) + " (expected 'J' or 'B'): the stream is out of sync";
    return std::nullopt;
  }
  const uint32_t size = (uint32_t{header[1]} << 24) | (uint32_t{header[2]} << 16) | (uint32_t{header[3]} << 8) |
                        uint32_t{header[4]};
  if (size > kMaxFramePayload) {
    error_ = "frame of " + std::to_string(size) + " bytes exceeds the limit of " + std::to_string(kMaxFramePayload);
    return std::nullopt;
  }
  if (bufferedBytes() < kFrameHeaderSize + size) return std::nullopt;
  Frame frame{static_cast<FrameKind>(kind), buffer_.substr(consumed_ + kFrameHeaderSize, size)};
  consumed_ += kFrameHeaderSize + size;
  if (consumed_ == buffer_.size()) {
    buffer_.clear();
    consumed_ = 0;
  }
  return frame;
}

}  // namespace tilescope::util
