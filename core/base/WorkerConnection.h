#pragma once
// The client's end of a worker process without Qt (docs/PROTOCOL.md): starts a program (a local
// `tilescope-cli worker`, or `ssh ... HOST tilescope-cli worker`) from an argument list, never a shell,
// with pipes on its stdin, stdout and stderr, and exchanges framed messages with it. Used by
// `tilescope-cli run --remote` and the remote-worker benchmark; the GUI has its own QProcess client.
#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/base/MessageStream.h"

namespace tilescope::util {

class WorkerConnection {
public:
  WorkerConnection() = default;
  ~WorkerConnection();  // closes its input, gives the worker a moment to exit, then kills it
  WorkerConnection(const WorkerConnection&) = delete;
  WorkerConnection& operator=(const WorkerConnection&) = delete;

  // argv[0] is looked up in PATH. False with `error` set when it cannot be started.
  bool start(const std::vector<std::string>& argv, std::string& error);

  bool send(const nlohmann::json& message);
  void closeInput();

  enum class Wait { Message, Timeout, Closed, Broken };
  // Waits up to timeoutMs (negative: forever) for the next whole message. What arrives on stderr
  // meanwhile is appended to stderrText() (and handed to the stderr callback when set).
  Wait receive(Message& message, int timeoutMs);
  const std::string& stderrText() const { return stderr_; }
  const std::string& streamError() const { return stream_.error(); }
  // The first bytes that came on stdout, for the message about a stream that is not frames.
  const std::string& firstBytes() const { return firstBytes_; }
  void setStderrCallback(void (*callback)(const std::string& text)) { onStderr_ = callback; }

  // After Closed: waits for the process and returns its exit status (128 + signal when killed).
  int waitForExit();
  void kill();
  pid_t pid() const { return pid_; }

private:
  void drainStderr();

  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  int err_ = -1;
  MessageStream stream_;
  std::string stderr_;
  std::string firstBytes_;
  void (*onStderr_)(const std::string&) = nullptr;
  std::optional<int> exitStatus_;
};

}  // namespace tilescope::util
