#include "core/base/WorkerConnection.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "core/base/FrameCodec.h"

extern char** environ;

namespace tilescope::util {

WorkerConnection::~WorkerConnection() {
  closeInput();
  if (pid_ > 0 && !exitStatus_) {
    // End of input makes a worker cancel its cell and exit: give it that chance first.
    for (int i = 0; i < 100 && !exitStatus_; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) exitStatus_ = status;
      else std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!exitStatus_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  if (out_ >= 0) ::close(out_);
  if (err_ >= 0) ::close(err_);
}

bool WorkerConnection::start(const std::vector<std::string>& argv, std::string& error) {
  int toChild[2], fromChild[2], errFromChild[2];
  if (::pipe2(toChild, O_CLOEXEC) != 0 || ::pipe2(fromChild, O_CLOEXEC) != 0 || ::pipe2(errFromChild, O_CLOEXEC) != 0) {
    error = std::string("cannot create pipes: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errFromChild[1], STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int rc = ::posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(toChild[0]);
  ::close(fromChild[1]);
  ::close(errFromChild[1]);
  in_ = toChild[1];
  out_ = fromChild[0];
  err_ = errFromChild[0];
  if (rc != 0) {
    pid_ = -1;
    error = "cannot start '" + argv[0] + "': " + std::strerror(rc);
    return false;
  }
  // A worker that has gone shows up as a failed write, not as SIGPIPE killing us.
  ::signal(SIGPIPE, SIG_IGN);
  return true;
}

bool WorkerConnection::send(const nlohmann::json& message) {
  if (in_ < 0) return false;
  const std::string bytes = encodeFrame(FrameKind::Json, message.dump());
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(in_, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

void WorkerConnection::closeInput() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

void WorkerConnection::drainStderr() {
  char buffer[4096];
  const ssize_t n = ::read(err_, buffer, sizeof buffer);
  if (n <= 0) {
    ::close(err_);
    err_ = -1;
    return;
  }
  const std::string text(buffer, static_cast<size_t>(n));
  stderr_ += text;
  if (onStderr_) onStderr_(text);
}

WorkerConnection::Wait WorkerConnection::receive(Message& message, int timeoutMs) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  for (;;) {
    if (auto next = stream_.next()) {
      message = std::move(*next);
      return Wait::Message;
    }
    if (stream_.failed()) return Wait::Broken;
    if (out_ < 0) return Wait::Closed;
    int wait = -1;
    if (timeoutMs >= 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) return Wait::Timeout;
      wait = static_cast<int>(left);
    }
    pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
    const int ready = ::poll(fds, err_ >= 0 ? 2 : 1, wait);
    if (ready < 0 && errno == EINTR) return Wait::Timeout;  // a signal (Ctrl+C): let the caller look
    if (ready <= 0) continue;
    if (err_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) drainStderr();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buffer[64 * 1024];
      const ssize_t n = ::read(out_, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        // Whatever is still on stderr explains why the worker went. Bounded: a process ssh left
        // behind (a ControlPersist master) may hold the pipe open for good.
        while (err_ >= 0) {
          pollfd e{err_, POLLIN, 0};
          if (::poll(&e, 1, 200) <= 0) break;
          drainStderr();
        }
        ::close(out_);
        out_ = -1;
        continue;
      }
      if (firstBytes_.size() < 200) firstBytes_.append(buffer, std::min<size_t>(static_cast<size_t>(n), 200 - firstBytes_.size()));
      stream_.feed(buffer, static_cast<size_t>(n));
    }
  }
}

int WorkerConnection::waitForExit() {
  if (pid_ <= 0) return -1;
  if (!exitStatus_) {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    exitStatus_ = status;
  }
  return WIFEXITED(*exitStatus_) ? WEXITSTATUS(*exitStatus_) : 128 + WTERMSIG(*exitStatus_);
}

void WorkerConnection::kill() {
  if (pid_ > 0 && !exitStatus_) ::kill(pid_, SIGKILL);
}

}  // namespace tilescope::util
