#include "app/cli/WorkerChannel.h"

#include <cerrno>
#include <unistd.h>

namespace tilescope::cli {
using nlohmann::json;

std::optional<util::Frame> WorkerChannel::nextFrame() {
  char buffer[64 * 1024];
  for (;;) {
    if (auto frame = decoder_.next()) return frame;
    if (decoder_.failed()) {
      error_ = decoder_.error();
      return std::nullopt;
    }
    const ssize_t n = ::read(inputFd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (decoder_.bufferedBytes() > 0) error_ = "input ended in the middle of a frame";
      return std::nullopt;
    }
    decoder_.feed(buffer, static_cast<size_t>(n));
  }
}

std::optional<IncomingMessage> WorkerChannel::receive() {
  auto frame = nextFrame();
  if (!frame) return std::nullopt;
  if (frame->kind != util::FrameKind::Json) {
    error_ = "a blob frame arrived without a JSON message announcing it";
    return std::nullopt;
  }
  IncomingMessage incoming;
  try {
    incoming.message = json::parse(frame->payload);
  } catch (const json::parse_error& e) {
    error_ = std::string("a message is not valid JSON: ") + e.what();
    return std::nullopt;
  }
  if (!incoming.message.is_object() || !incoming.message.contains("type") || !incoming.message["type"].is_string()) {
    error_ = "a message has no \"type\": " + frame->payload.substr(0, 200);
    return std::nullopt;
  }
  const json announced = incoming.message.value("blobs", json::array());
  for (size_t i = 0; announced.is_array() && i < announced.size(); ++i) {
    auto blob = nextFrame();
    if (!blob || blob->kind != util::FrameKind::Blob) {
      if (error_.empty()) error_ = "a message announced " + std::to_string(announced.size()) + " blobs but fewer came";
      return std::nullopt;
    }
    incoming.blobs.push_back(std::move(blob->payload));
  }
  return incoming;
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
