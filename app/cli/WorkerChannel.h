#pragma once
// The worker's end of the protocol pipe (docs/PROTOCOL.md): JSON messages and their binary blobs,
// framed by core/base/FrameCodec and assembled by core/base/MessageStream, read from one file
// descriptor and written to another.
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/base/CellExecutor.h"
#include "core/base/FrameCodec.h"
#include "core/base/MessageStream.h"

namespace tilescope::cli {

class WorkerChannel {
public:
  WorkerChannel(int inputFd, int outputFd) : inputFd_(inputFd), outputFd_(outputFd) {}

  // Blocks until one whole message has arrived. nullopt at end of input or when the stream is broken
  // (then error() says why); either way nothing more can be read.
  std::optional<util::Message> receive();
  const std::string& error() const { return error_; }

  // Writes a message and its blobs as one unit; safe from several threads. False once the client
  // has gone (broken pipe).
  bool send(const nlohmann::json& message, const std::vector<host::BinaryBlob>& blobs = {});

private:
  bool writeAll(const std::string& bytes);

  int inputFd_;
  int outputFd_;
  util::MessageStream stream_;
  std::string error_;
  std::mutex writeMutex_;
};

}  // namespace tilescope::cli
