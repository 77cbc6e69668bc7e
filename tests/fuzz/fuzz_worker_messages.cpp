// Fuzz target: the worker's message decoder (docs/PROTOCOL.md). The first input byte picks a mode:
// even - the rest is the raw byte stream on the worker's stdin (frames, blobs, split at an arbitrary
// point as a pipe may deliver it); odd - the rest is one JSON payload, framed here, so that the
// fuzzer explores message contents without having to keep frame lengths right. Every message must
// decode to a request or to an error naming what is wrong; nothing may crash, throw or recurse deeply.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/WorkerRequest.h"
#include "core/base/FrameCodec.h"
#include "core/base/MessageStream.h"

using tilescope::host::WorkerRequest;
using tilescope::util::MessageStream;

namespace {

void drain(MessageStream& stream) {
  while (auto message = stream.next()) {
    if (!message->json.is_object()) __builtin_trap();  // the stream only hands out objects
    const WorkerRequest request = tilescope::host::decodeWorkerRequest(message->json);
    const bool invalid = request.kind == WorkerRequest::Kind::Invalid;
    if (invalid == request.error.empty()) __builtin_trap();  // an error exactly when the request is unusable
    // The worker echoes ids and errors back: the replies must serialise whatever bytes came in.
    const nlohmann::json reply = {{"type", "protocol_error"}, {"message", request.error}, {"id", request.execute.id},
                                  {"cell_id", request.rejectedCellId}};
    (void)reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)message->json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  if (stream.failed() && stream.error().empty()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 256 * 1024) return 0;
  const auto* text = reinterpret_cast<const char*>(data + 1);
  const size_t length = size - 1;
  MessageStream stream;
  if (data[0] % 2 == 1) {
    const std::string frame = tilescope::util::encodeFrame(tilescope::util::FrameKind::Json, std::string(text, length));
    stream.feed(frame.data(), frame.size());
    drain(stream);
    return 0;
  }
  const size_t split = length == 0 ? 0 : (static_cast<size_t>(data[0]) * 131) % (length + 1);
  stream.feed(text, split);
  drain(stream);
  stream.feed(text + split, length - split);
  drain(stream);
  return 0;
}
