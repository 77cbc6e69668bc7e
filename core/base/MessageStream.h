#pragma once
// JSON messages and the binary blobs they announce (docs/PROTOCOL.md, "Framing"), assembled from the
// frames of core/base/FrameCodec. No I/O: the worker feeds it what arrives on stdin, the fuzz target
// (tests/fuzz/fuzz_worker_messages.cpp) feeds it anything. An error here is final - a bad frame, a
// payload that is not a JSON object or nests deeper than kMaxDepth, a blob nobody announced, a "blobs"
// list that does not say how many follow - because after it nobody can tell where the next message
// starts. What a well-formed message means is decided elsewhere (host::decodeWorkerRequest).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/FrameCodec.h"

namespace tilescope::util {

struct Message {
  nlohmann::json json;             // always an object
  std::vector<std::string> blobs;  // the 'B' frames its "blobs" list announced, in order
};

class MessageStream {
public:
  // Protocol messages are a few levels deep; far deeper input is refused before it can exhaust the
  // stack of anything that walks it recursively (dump, comparisons).
  static constexpr int kMaxDepth = 64;

  void feed(const char* data, size_t size) { frames_.feed(data, size); }
  // The next complete message; nullopt when more bytes are needed or the stream failed().
  std::optional<Message> next();
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  // True while part of a frame or a message still waiting for its blobs is buffered: input that ends
  // now ends in the middle of a message.
  bool midMessage() const { return pending_.has_value() || frames_.bufferedBytes() > 0; }

private:
  bool fail(std::string why);

  FrameDecoder frames_;
  std::optional<Message> pending_;  // a message whose blobs have not all arrived
  size_t blobsAnnounced_ = 0;
  std::string error_;
};

// Parses one JSON text without recursion deeper than maxDepth (nlohmann's parser itself is iterative).
// nullopt with `error` set when the text is not JSON or nests too deeply.
std::optional<nlohmann::json> parseJsonWithDepthLimit(std::string_view text, int maxDepth, std::string& error);

}  // namespace tilescope::util
