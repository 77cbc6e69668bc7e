// `tilescope-cli worker`: the framing (core/util/FrameCodec) and the protocol of docs/PROTOCOL.md,
// spoken to a real worker process over pipes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <string>
#include <vector>

#include "core/util/FrameCodec.h"
#include "tests/cli/CliRunner.h"

using nlohmann::json;
using tilescope::util::encodeFrame;
using tilescope::util::FrameDecoder;
using tilescope::util::FrameKind;

TEST(FrameCodec, RoundTripsFramesFedInPieces) {
  const std::string bytes = encodeFrame(FrameKind::Json, R"({"type":"x"})") + encodeFrame(FrameKind::Blob, std::string("\0\1\2", 3)) +
                            encodeFrame(FrameKind::Blob, "");
  FrameDecoder decoder;
  std::vector<tilescope::util::Frame> frames;
  for (char c : bytes) {  // one byte at a time: the worst a pipe can do
    decoder.feed(&c, 1);
    while (auto frame = decoder.next()) frames.push_back(*frame);
  }
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].kind, FrameKind::Json);
  EXPECT_EQ(frames[0].payload, R"({"type":"x"})");
  EXPECT_EQ(frames[1].payload, std::string("\0\1\2", 3));
  EXPECT_EQ(frames[2].kind, FrameKind::Blob);
  EXPECT_TRUE(frames[2].payload.empty());
  EXPECT_EQ(decoder.bufferedBytes(), 0u);
}

TEST(FrameCodec, HeaderIsKindThenBigEndianLength) {
  const std::string frame = encodeFrame(FrameKind::Json, std::string(258, 'a'));
  ASSERT_EQ(frame.size(), 5u + 258u);
  EXPECT_EQ(frame.substr(0, 5), std::string("J\0\0\1\2", 5));
}

TEST(FrameCodec, RejectsGarbageAndOversizedFrames) {
  FrameDecoder garbage;
  garbage.feed("hello world", 11);
  EXPECT_FALSE(garbage.next());
  EXPECT_TRUE(garbage.failed());
  EXPECT_NE(garbage.error().find("out of sync"), std::string::npos);
  FrameDecoder huge;
  huge.feed("J\x7f\xff\xff\xff", 5);
  EXPECT_FALSE(huge.next());
  EXPECT_NE(huge.error().find("exceeds the limit"), std::string::npos);
}

namespace {
// A worker child process with pipes on both ends.
class Worker {
public:
  explicit Worker(bool testExecutor) {
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
      execl(TILESCOPE_CLI_PATH, "tilescope-cli", "worker", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(toChild[0]);
    close(fromChild[1]);
    in_ = toChild[1];
    out_ = fromChild[0];
  }
  ~Worker() {
    closeInput();
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) close(out_);
  }

  void send(const json& message) {
    const std::string frame = encodeFrame(FrameKind::Json, message.dump());
    ASSERT_EQ(write(in_, frame.data(), frame.size()), static_cast<ssize_t>(frame.size()));
  }
  void sendRaw(const std::string& bytes) { ASSERT_EQ(write(in_, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size())); }
  void closeInput() {
    if (in_ >= 0) close(in_);
    in_ = -1;
  }

  // The next JSON message, or null after the timeout / at end of output.
  json receive(int timeoutMs = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
      if (auto frame = decoder_.next()) {
        if (frame->kind == FrameKind::Json) return json::parse(frame->payload);
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
  std::vector<json> receiveUntil(const std::string& type, int timeoutMs = 5000) {
    std::vector<json> messages;
    for (json m = receive(timeoutMs); !m.is_null(); m = receive(timeoutMs)) {
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
  FrameDecoder decoder_;
};

std::vector<std::string> types(const std::vector<json>& messages) {
  std::vector<std::string> out;
  for (const json& m : messages) out.push_back(m.value("type", ""));
  return out;
}

json execute(const std::string& id, const std::string& code) {
  return {{"type", "execute_request"}, {"id", id}, {"cell_id", "cell-" + id}, {"code", code}, {"backend", "simulator"}};
}
}  // namespace

TEST(WorkerCommand, SaysHelloThenAnswersAnExecuteRequest) {
  Worker worker(true);
  const json hello = worker.receive();
  ASSERT_FALSE(hello.is_null());
  EXPECT_EQ(hello["type"], "hello");
  EXPECT_EQ(hello["protocol"], 1);
  EXPECT_EQ(hello["executor"], "test-double");
  EXPECT_EQ(hello["version"], TILESCOPE_VERSION);
  worker.send(execute("r1", "print hello"));
  const auto messages = worker.receiveUntil("execute_reply");
  EXPECT_EQ(types(messages), (std::vector<std::string>{"status", "execute_input", "stream", "execute_reply"}));
  EXPECT_EQ(messages[0]["state"], "busy");
  EXPECT_EQ(messages[1]["execution_count"], 1);
  EXPECT_EQ(messages[2]["name"], "stdout");
  EXPECT_EQ(messages[2]["text"], "hello\n");
  EXPECT_EQ(messages[2]["cell_id"], "cell-r1");
  EXPECT_EQ(messages[3]["status"], "ok");
  for (const json& m : messages) EXPECT_EQ(m["id"], "r1");
  const json idle = worker.receive();
  EXPECT_EQ(idle["type"], "status");
  EXPECT_EQ(idle["state"], "idle");
}

TEST(WorkerCommand, ErrorsHaveTracebackFramesWithLineAndColumn) {
  Worker worker(true);
  worker.receive();
  worker.send(execute("r1", "print a\n  what"));
  const auto messages = worker.receiveUntil("execute_reply");
  ASSERT_GE(messages.size(), 2u);
  const json& error = messages[messages.size() - 2];
  ASSERT_EQ(error["type"], "error");
  EXPECT_EQ(error["ename"], "TestExecutorError");
  ASSERT_EQ(error["traceback"].size(), 1u);
  EXPECT_EQ(error["traceback"][0]["file"], "<cell:cell-r1>");
  EXPECT_EQ(error["traceback"][0]["line"], 2);
  EXPECT_EQ(error["traceback"][0]["col"], 3);
  EXPECT_EQ(messages.back()["status"], "error");
}

TEST(WorkerCommand, InterruptRequestCancelsTheRunningCell) {
  Worker worker(true);
  worker.receive();
  worker.send(execute("r1", "loop forever"));
  ASSERT_EQ(worker.receiveUntil("execute_input").back()["type"], "execute_input");
  const auto start = std::chrono::steady_clock::now();
  worker.send({{"type", "interrupt_request"}});
  const auto messages = worker.receiveUntil("execute_reply", 20000);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back()["status"], "aborted");
  EXPECT_EQ(messages.front()["ename"], "KeyboardInterrupt");
  // A liveness bound only (the hang guard; an interrupt takes milliseconds): the latency is measured
  // by BM_InterruptBusyLoop in core/bench/bench_host.cpp.
  EXPECT_LT(took, std::chrono::seconds(10));
  // Still alive and counting.
  worker.receive();  // idle
  worker.send(execute("r2", "print after"));
  const auto next = worker.receiveUntil("execute_reply");
  EXPECT_EQ(next.back()["status"], "ok");
  EXPECT_EQ(next.back()["execution_count"], 2);
}

TEST(WorkerCommand, SigintCancelsTheRunningCellToo) {
  Worker worker(true);
  worker.receive();
  worker.send(execute("r1", "loop forever"));
  worker.receiveUntil("execute_input");
  kill(worker.pid(), SIGINT);
  const auto messages = worker.receiveUntil("execute_reply", 2000);
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back()["status"], "aborted");
}

TEST(WorkerCommand, QueuedRequestsAreAbortedByAnInterrupt) {
  Worker worker(true);
  worker.receive();
  worker.send(execute("r1", "loop forever"));
  worker.send(execute("r2", "print never"));
  worker.receiveUntil("execute_input");
  worker.send({{"type", "interrupt_request"}});
  auto messages = worker.receiveUntil("execute_reply");
  EXPECT_EQ(messages.back()["id"], "r1");
  messages = worker.receiveUntil("execute_reply");
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back()["id"], "r2");
  EXPECT_EQ(messages.back()["status"], "aborted");
  for (const json& m : messages) EXPECT_NE(m["type"], "stream") << "r2 never ran";
}

TEST(WorkerCommand, RealExecutorRunsPythonAndKeepsStateBetweenCells) {
  Worker worker(false);
  EXPECT_EQ(worker.receive()["executor"], "host-runtime");
  worker.send(execute("r1", "x = 20 + 1"));
  worker.receiveUntil("execute_reply");
  worker.send(execute("r2", "print(f'x={x * 2}')"));
  const auto messages = worker.receiveUntil("execute_reply");
  bool sawStream = false;
  for (const json& m : messages)
    if (m["type"] == "stream") {
      sawStream = true;
      EXPECT_EQ(m["text"], "x=42\n");
    }
  EXPECT_TRUE(sawStream);
}

TEST(WorkerCommand, GpuOnlyCellsAreSkippedWithTheReasonOnTheSimulator) {
  Worker worker(false);
  worker.receive();
  json request = execute("r1", "print('ran')");
  request["gpu_only"] = true;
  worker.send(request);
  const auto messages = worker.receiveUntil("execute_reply");
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back()["status"], "ok") << "a skipped cell is no failure: Run all goes on";
  std::string shown;
  for (const json& m : messages)
    if (m["type"] == "stream") shown += m["text"].get<std::string>();
  EXPECT_EQ(shown.find("ran"), std::string::npos) << shown;
  EXPECT_NE(shown.find("Skipped: this cell is tagged gpu-only"), std::string::npos) << shown;
  EXPECT_NE(shown.find("--backend gpu"), std::string::npos) << "says how to run it: " << shown;
  // Untagged cells run as before.
  worker.receive();  // idle
  worker.send(execute("r2", "print('ran')"));
  std::string next;
  for (const json& m : worker.receiveUntil("execute_reply"))
    if (m["type"] == "stream") next += m["text"].get<std::string>();
  EXPECT_EQ(next, "ran\n");
}

TEST(WorkerCommand, ShutdownAndEndOfInputBothExitCleanly) {
  {
    Worker worker(true);
    worker.receive();
    worker.send({{"type", "shutdown_request"}});
    EXPECT_EQ(worker.waitForExit(), 0);
  }
  {
    Worker worker(true);
    worker.receive();
    worker.send(execute("r1", "loop forever"));
    worker.receiveUntil("execute_input");
    worker.closeInput();  // the GUI went away mid-run
    EXPECT_EQ(worker.waitForExit(), 0);
  }
}

TEST(WorkerCommand, UnknownMessagesAndBrokenFramesAreReported) {
  Worker worker(true);
  worker.receive();
  worker.send({{"type", "frobnicate"}});
  const json reply = worker.receive();
  EXPECT_EQ(reply["type"], "protocol_error");
  EXPECT_NE(reply["message"].get<std::string>().find("frobnicate"), std::string::npos);
  worker.sendRaw("this is not a frame");
  const json broken = worker.receive();
  EXPECT_EQ(broken["type"], "protocol_error");
  EXPECT_EQ(worker.waitForExit(), 0) << "a broken stream cannot be trusted: the worker ends";
}

TEST(WorkerCommand, HelpDescribesTheProtocol) {
  const auto r = tilescope::testing::runCli("worker --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.output.find("docs/PROTOCOL.md"), std::string::npos) << r.output;
  EXPECT_NE(tilescope::testing::runCli("--help").output.find("worker"), std::string::npos);
}
