#pragma once
// A `tilescope-cli worker` child process with pipes on both ends, spoken to in frames
// (docs/PROTOCOL.md): for the worker tests of tests/cli and tests/python.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/base/FrameCodec.h"

namespace tilescope::testing {

// A worker child process with pipes on both ends.
class WorkerProcess {
public:
  // `testExecutor`: the test double (TestCellExecutor); `extraArgs` follow `worker` (`--python embedded`).
  explicit WorkerProcess(bool testExecutor, std::vector<std::string> extraArgs = {}) {
    int toChild[2];
    int fromChild[2];
    if (pipe(toChild) != 0 || pipe(fromChild) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(toChild[0], 0);
      dup2(fromChild[1], 1);
      close(toChild[1]);
      close(fromChild[0]);
      if (testExecutor) setenv("TILESCOPE_WORKER_TEST_EXECUTOR", "1", 1);
      else unsetenv("TILESCOPE_WORKER_TEST_EXECUTOR");
      std::vector<char*> argv{const_cast<char*>("tilescope-cli"), const_cast<char*>("worker")};
      for (std::string& a : extraArgs) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(TILESCOPE_CLI_PATH, argv.data());
      _exit(127);
    }
    close(toChild[0]);
    close(fromChild[1]);
    in_ = toChild[1];
    out_ = fromChild[0];
  }
  ~WorkerProcess() {
    closeInput();
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) close(out_);
  }

  void send(const nlohmann::json& message) {
    const std::string frame = util::encodeFrame(util::FrameKind::Json, message.dump());
    ASSERT_EQ(write(in_, frame.data(), frame.size()), static_cast<ssize_t>(frame.size()));
  }
  void sendRaw(const std::string& bytes) { ASSERT_EQ(write(in_, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size())); }
  void closeInput() {
    if (in_ >= 0) close(in_);
    in_ = -1;
  }

  // The next JSON message, or null after the timeout / at end of output.
  nlohmann::json receive(int timeoutMs = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
      if (auto frame = decoder_.next()) {
        if (frame->kind == util::FrameKind::Json) return nlohmann::json::parse(frame->payload);
        blobs.push_back(frame->payload);
        continue;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{out_, POLLIN, 0};
      if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return nullptr;
      char buffer[4096];
      const ssize_t n = read(out_, buffer, sizeof buffer);
      if (n <= 0) return nullptr;
      decoder_.feed(buffer, static_cast<size_t>(n));
    }
  }
  // Messages up to and including the one of this type.
  std::vector<nlohmann::json> receiveUntil(const std::string& type, int timeoutMs = 5000) {
    std::vector<nlohmann::json> messages;
    for (nlohmann::json m = receive(timeoutMs); !m.is_null(); m = receive(timeoutMs)) {
      messages.push_back(m);
      if (m.value("type", "") == type) break;
    }
    return messages;
  }
  int waitForExit() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  pid_t pid() const { return pid_; }
  std::vector<std::string> blobs;

private:
  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  util::FrameDecoder decoder_;
};

}  // namespace tilescope::testing
