// `tilescope-cli worker`: the framing (core/base/FrameCodec) and the protocol of docs/PROTOCOL.md,
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

#include "core/base/FrameCodec.h"
#include "tests/cli/CliRunner.h"
#include "tests/cli/WorkerProcess.h"

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
using Worker = tilescope::testing::WorkerProcess;

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
  EXPECT_EQ(worker.receive()["executor"], "embedded-python");
  worker.send(execute("r1", "x = 20 + 1"));
  worker.receiveUntil("execute_reply");
  worker.send(execute("r2", "print(f'x={x * 2}')"));
  const auto messages = worker.receiveUntil("execute_reply");
  std::string printed;  // sent as it is written: print's text and its end may come apart
  for (const json& m : messages)
    if (m["type"] == "stream") printed += m["text"].get<std::string>();
  EXPECT_EQ(printed, "x=42\n");
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

// Issue 28: a kernel error names the kernel's own cell and spot as a frame of its own (so the
// notebook can mark it there), and its message travels once, not as "<cell:ID>:9:22: ..." again.
TEST(WorkerCommand, AKernelErrorIsAFrameAtTheKernelsOwnCell) {
  Worker worker(false);
  worker.receive();
  worker.send(execute("k", "import torch\nimport triton\nimport triton.language as tl\n\n"
                           "@triton.jit\n"
                           "def shift(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                           "    offs = tl.arange(0, BLOCK)\n"
                           "    x = tl.load(x_ptr + offs)\n"
                           "    tl.store(out_ptr + x, x)\n"));
  worker.receiveUntil("execute_reply");
  worker.send(execute("l", "x = torch.ones(16)\nout = torch.empty(16)\nshift[(1,)](x, out, BLOCK=16)\n"));
  const auto messages = worker.receiveUntil("execute_reply");
  ASSERT_GE(messages.size(), 2u);
  const json& error = messages[messages.size() - 2];
  ASSERT_EQ(error["type"], "error");
  EXPECT_EQ(error["ename"], "CompilationError");
  const std::string value = error["evalue"];
  EXPECT_NE(value.find("pointer offsets must be integers"), std::string::npos) << value;
  EXPECT_EQ(value.find("<cell:"), std::string::npos) << "the location is a frame, not part of the message: " << value;
  const json& frames = error["traceback"];
  ASSERT_GE(frames.size(), 2u) << frames.dump();
  EXPECT_EQ(frames[0]["file"], "<cell:cell-l>");
  EXPECT_EQ(frames[0]["line"], 3);
  EXPECT_FALSE(frames[0].contains("severity")) << "the launch is a frame of the call stack";
  const json& kernel = frames[1];
  EXPECT_EQ(kernel["severity"], "error");
  EXPECT_EQ(kernel["message"], value);
  EXPECT_EQ(kernel["file"], "<cell:cell-k>");
  EXPECT_EQ(kernel["line"], 9);
  EXPECT_EQ(kernel["col"], 14) << "at out_ptr + x";
  EXPECT_EQ(kernel["text"], "    tl.store(out_ptr + x, x)\n             ^~~~~~~~~~~") << kernel.dump();
  for (const json& f : frames) EXPECT_NE(f["line"], 0) << "no frame without a place: " << f.dump();
}

TEST(WorkerCommand, ASyntaxErrorIsAFrameAtItsSpot) {
  Worker worker(false);
  worker.receive();
  worker.send(execute("s", "x = 1\ny = (2 +\n"));
  const auto messages = worker.receiveUntil("execute_reply");
  ASSERT_GE(messages.size(), 2u);
  const json& error = messages[messages.size() - 2];
  ASSERT_EQ(error["ename"], "SyntaxError");
  ASSERT_GE(error["traceback"].size(), 1u) << error.dump();
  const json& frame = error["traceback"][0];
  EXPECT_EQ(frame["severity"], "error");
  EXPECT_EQ(frame["file"], "<cell:cell-s>");
  EXPECT_GE(frame["line"], 2);
  EXPECT_EQ(frame["message"], error["evalue"]);
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

// docs/PROTOCOL.md: a shutdown_request while a cell runs cancels it (KeyboardInterrupt, reply aborted),
// aborts the queued requests, and the worker exits - it does not wait for the cell to finish.
TEST(WorkerCommand, ShutdownWhileACellRunsCancelsItAndExits) {
  Worker worker(true);
  worker.receive();
  worker.send(execute("r1", "loop forever"));
  worker.send(execute("r2", "print never"));
  worker.receiveUntil("execute_input");
  worker.send({{"type", "shutdown_request"}});
  const auto running = worker.receiveUntil("execute_reply", 10000);
  ASSERT_FALSE(running.empty());
  EXPECT_EQ(running.back()["id"], "r1");
  EXPECT_EQ(running.back()["status"], "aborted");
  EXPECT_EQ(running.front()["ename"], "KeyboardInterrupt");
  const auto queued = worker.receiveUntil("execute_reply", 10000);
  ASSERT_FALSE(queued.empty());
  EXPECT_EQ(queued.back()["id"], "r2");
  EXPECT_EQ(queued.back()["status"], "aborted");
  EXPECT_TRUE(queued.back()["execution_count"].is_null()) << "r2 never started";
  EXPECT_EQ(worker.waitForExit(), 0);
}

// Issue 27: a numeric code, cell_id, backend or out_of_bounds threw nlohmann::type_error in the
// worker's reader thread and aborted the process. Each is an error reply for that request; the worker
// runs on.
TEST(WorkerCommand, ExecuteRequestsWithWrongFieldsGetAnErrorReply) {
  struct Case {
    const char* field;
    json value;
    const char* message;
  };
  const Case cases[] = {
      {"code", 42, "execute_request field \"code\" must be a string (the cell's source text), not number 42"},
      {"cell_id", 7, "execute_request field \"cell_id\" must be a string (the id of the notebook cell), not number 7"},
      {"backend", 1, "execute_request field \"backend\" must be a string (simulator, gpu or auto), not number 1"},
      {"out_of_bounds", 1, "execute_request field \"out_of_bounds\" must be a string (stop or warn), not number 1"},
      {"backend", "cuda", "unknown backend \"cuda\" in execute_request: use simulator, gpu or auto"},
      {"out_of_bounds", "ignore", "unknown out_of_bounds policy \"ignore\" in execute_request: use stop or warn"},
      {"code", nullptr, "execute_request field \"code\" must be a string (the cell's source text), not null null"},
      {"gpu_only", "yes", "execute_request field \"gpu_only\" must be true or false (whether the cell is tagged gpu-only), not string \"yes\""},
      {"inspect", 1, "execute_request field \"inspect\" must be true or false (whether to report kernel launches with their traces), not number 1"},
      {"trace_pids", "299", "execute_request field \"trace_pids\" must be a list of at most 256 programs to trace, each [pid_0, pid_1, pid_2] of non-negative integers, not string \"299\""},
      {"trace_pids", json::array({json::array({299, 0})}), "execute_request field \"trace_pids\" must be a list of at most 256 programs to trace, each [pid_0, pid_1, pid_2] of non-negative integers; array [299,0] is not"},
      {"trace_pids", json::array({json::array({1, -1, 0})}), "execute_request field \"trace_pids\" must be a list of at most 256 programs to trace, each [pid_0, pid_1, pid_2] of non-negative integers; array [1,-1,0] is not"},
  };
  Worker worker(true);
  ASSERT_EQ(worker.receive()["type"], "hello");
  int n = 0;
  for (const Case& c : cases) {
    const std::string id = "bad" + std::to_string(++n);
    json request = execute(id, "print never");
    request[c.field] = c.value;
    worker.send(request);
    const auto messages = worker.receiveUntil("execute_reply");
    ASSERT_GE(messages.size(), 2u) << c.field;
    const json& error = messages[messages.size() - 2];
    EXPECT_EQ(error["type"], "error") << c.field;
    EXPECT_EQ(error["ename"], "InvalidRequest");
    EXPECT_EQ(error["evalue"], c.message);
    EXPECT_EQ(messages.back()["id"], id);
    EXPECT_EQ(messages.back()["status"], "error");
    EXPECT_TRUE(messages.back()["execution_count"].is_null());
    for (const json& m : messages) EXPECT_NE(m["type"], "stream") << "a malformed request must not run";
    EXPECT_EQ(worker.receive()["state"], "idle");
  }
  worker.send({{"type", "execute_request"}, {"id", "nocode"}});
  EXPECT_EQ(worker.receiveUntil("execute_reply").back()["status"], "error");
  worker.receive();  // idle
  // Still alive, and the rejected requests did not count as executions.
  worker.send(execute("ok", "print fine"));
  const auto good = worker.receiveUntil("execute_reply");
  EXPECT_EQ(good.back()["status"], "ok");
  EXPECT_EQ(good.back()["execution_count"], 1);
}

TEST(WorkerCommand, MessagesWithoutAUsableIdOrTypeAreProtocolErrors) {
  Worker worker(true);
  worker.receive();
  json request = execute("r1", "print never");
  request["id"] = 5;
  worker.send(request);
  json reply = worker.receive();
  EXPECT_EQ(reply["type"], "protocol_error");
  EXPECT_EQ(reply["message"], "execute_request field \"id\" must be a string (the client's name for the request), not number 5");
  worker.send({{"type", 3}});
  reply = worker.receive();
  EXPECT_EQ(reply["type"], "protocol_error");
  EXPECT_NE(reply["message"].get<std::string>().find("needs a string \"type\""), std::string::npos) << reply;
  worker.send({{"id", "r2"}});
  EXPECT_EQ(worker.receive()["type"], "protocol_error");
  worker.send(execute("r3", "print alive"));
  EXPECT_EQ(worker.receiveUntil("execute_reply").back()["status"], "ok");
}

TEST(WorkerCommand, MalformedFramingEndsTheWorkerWithAProtocolError) {
  {  // "blobs" must say how many blob frames follow; without that the stream cannot be read on.
    Worker worker(true);
    worker.receive();
    worker.send({{"type", "interrupt_request"}, {"blobs", 2}});
    const json reply = worker.receive();
    EXPECT_EQ(reply["type"], "protocol_error");
    EXPECT_NE(reply["message"].get<std::string>().find("\"blobs\" must be a list"), std::string::npos) << reply;
    EXPECT_EQ(worker.waitForExit(), 0);
  }
  {  // Nesting far deeper than any message: refused before anything walks it recursively.
    Worker worker(true);
    worker.receive();
    worker.sendRaw(encodeFrame(FrameKind::Json, "{\"type\": \"execute_request\", \"code\": \"x\", \"m\": " +
                                                    std::string(100000, '[') + std::string(100000, ']') + "}"));
    const json reply = worker.receive();
    EXPECT_EQ(reply["type"], "protocol_error");
    EXPECT_NE(reply["message"].get<std::string>().find("nests deeper than 64 levels"), std::string::npos) << reply;
    EXPECT_EQ(worker.waitForExit(), 0);
  }
  {
    Worker worker(true);
    worker.receive();
    worker.sendRaw(encodeFrame(FrameKind::Json, "[1, 2]"));
    EXPECT_EQ(worker.receive()["type"], "protocol_error");
    EXPECT_EQ(worker.waitForExit(), 0);
  }
}

TEST(WorkerCommand, HelpDescribesTheProtocol) {
  const auto r = tilescope::testing::runCli("worker --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.output.find("docs/PROTOCOL.md"), std::string::npos) << r.output;
  EXPECT_NE(tilescope::testing::runCli("--help").output.find("worker"), std::string::npos);
}
