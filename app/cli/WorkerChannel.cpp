#include "app/cli/WorkerChannel.h"

#include <cerrno>
#include <unistd.h>

namespace tilescope::cli {
using nlohmann::json;

std::optional<util::Message> WorkerChannel::receive() {
  char buffer[64 * 1024];
  for (;;) {
    if (auto message = stream_.next()) return message;
    if (stream_.failed()) {
      error_ = stream_.error();
      return std::nullopt;
    }
    const ssize_t n = ::read(inputFd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (stream_.midMessage()) error_ = "input ended in the middle of a message";
      return std::nullopt;
    }
    stream_.feed(buffer, static_cast<size_t>(n));
  }
}

bool WorkerChannel::writeAll(const std::string& bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(outputFd_, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

bool WorkerChannel::send(const json& message, const std::vector<host::BinaryBlob>& blobs) {
  json framed = message;
  if (!blobs.empty()) {
    json announced = json::array();
    for (const auto& blob : blobs) announced.push_back({{"mime", blob.mimeType}, {"size", blob.bytes.size()}});
    framed["blobs"] = std::move(announced);
  }
  // One buffer per message so a message and its blobs are never interleaved with another thread's.
  std::string bytes = util::encodeFrame(util::FrameKind::Json, framed.dump(-1, ' ', false, json::error_handler_t::replace));
  for (const auto& blob : blobs) bytes += util::encodeFrame(util::FrameKind::Blob, blob.bytes);
  std::lock_guard lock(writeMutex_);
  return writeAll(bytes);
}

}  // namespace tilescope::cli
