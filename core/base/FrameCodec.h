#pragma once
// Length-prefixed frames for the worker protocol (docs/PROTOCOL.md), shared by the worker
// (tilescope-cli worker) and the GUI's WorkerProcessClient so both sides frame bytes identically.
// A frame is one kind byte ('J' = a UTF-8 JSON message, 'B' = a binary blob belonging to the JSON
// message before it), a 4-byte big-endian payload length, then the payload.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilescope::util {

enum class FrameKind : char { Json = 'J', Blob = 'B' };

struct Frame {
  FrameKind kind = FrameKind::Json;
  std::string payload;
};

inline constexpr size_t kFrameHeaderSize = 5;
// Larger frames mean a desynchronised or hostile stream: refuse rather than allocate gigabytes.
inline constexpr uint32_t kMaxFramePayload = 256u * 1024u * 1024u;

std::string encodeFrame(FrameKind kind, std::string_view payload);

// Incremental decoder: feed() whatever bytes arrived, then take complete frames with next().
// After a malformed header, failed() is true and the stream cannot be trusted any more.
class FrameDecoder {
public:
  void feed(const char* data, size_t size);
  std::optional<Frame> next();
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  size_t bufferedBytes() const { return buffer_.size() - consumed_; }

private:
  std::string buffer_;
  size_t consumed_ = 0;  // bytes of buffer_ already returned as frames
  std::string error_;
};

}  // namespace tilescope::util
