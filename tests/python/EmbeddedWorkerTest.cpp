// `tilescope-cli worker`: cells on embedded CPython (the only Python) behind the worker protocol
// (docs/PROTOCOL.md), spoken to a real worker process over pipes, as the GUI starts it.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli/WorkerProcess.h"

using nlohmann::json;

namespace {

// Cells on a loaded machine may take a while: a generous timeout.
constexpr int kTimeoutMs = 20000;

struct EmbeddedWorker : tilescope::testing::WorkerProcess {
  EmbeddedWorker() : WorkerProcess(false) {}
  std::vector<json> receiveUntil(const std::string& type) { return WorkerProcess::receiveUntil(type, kTimeoutMs); }
};

json execute(const std::string& id, const std::string& cell, const std::string& code) {
  return {{"type", "execute_request"}, {"id", id}, {"cell_id", cell}, {"code", code}, {"backend", "simulator"}};
}

const json* find(const std::vector<json>& messages, const std::string& type) {
  for (const json& m : messages)
    if (m.value("type", "") == type) return &m;
  return nullptr;
}

}  // namespace

TEST(EmbeddedWorker, RunsCellsAndReportsKernelErrorsAsDiagnosticFrames) {
  EmbeddedWorker worker;
  const json hello = worker.receive(kTimeoutMs);
  ASSERT_FALSE(hello.is_null());
  EXPECT_EQ(hello.value("executor", ""), "embedded-python");

  worker.send(execute("r1", "c1", "import torch, triton\nimport triton.language as tl\nclass Box:\n    pass\nprint(f'{2.5:06.2f}')\n"));
  const auto first = worker.receiveUntil("execute_reply");
  std::string printed;  // print() writes its text and its end separately, each sent as it comes
  for (const json& m : first)
    if (m.value("type", "") == "stream" && m.value("name", "") == "stdout") printed += m.value("text", "");
  EXPECT_EQ(printed, "002.50\n");
  EXPECT_EQ(find(first, "execute_reply")->value("status", ""), "ok");

  worker.send(execute("r2", "c2", "@triton.jit\ndef k(p):\n    tl.store(p + tl.arange(0, 4), missing)\n"));
  EXPECT_EQ(find(worker.receiveUntil("execute_reply"), "execute_reply")->value("status", ""), "ok");

  worker.send(execute("r3", "c3", "x = torch.zeros(4)\nk[(1,)](x)\n"));
  const auto third = worker.receiveUntil("execute_reply");
  const json* error = find(third, "error");
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->value("ename", ""), "CompilationError");
  EXPECT_NE(error->value("evalue", "").find("missing"), std::string::npos) << error->dump();
  const json& frames = (*error)["traceback"];
  ASSERT_EQ(frames.size(), 2u) << error->dump();
  EXPECT_EQ(frames[0].value("file", ""), "<cell:c3>");
  EXPECT_EQ(frames[0].value("line", 0), 2);
  EXPECT_EQ(frames[1].value("file", ""), "<cell:c2>");
  EXPECT_EQ(frames[1].value("line", 0), 3);
  EXPECT_EQ(frames[1].value("col", 0), 35);
  EXPECT_EQ(frames[1].value("severity", ""), "error");
  EXPECT_EQ(find(third, "execute_reply")->value("status", ""), "error");

  // A cell run for the inspector reports its launches, with the simulator's trace.
  worker.send(execute("r4", "c4", "@triton.jit\ndef ok(p):\n    tl.store(p + tl.arange(0, 4), 1.0)\n"));
  worker.receiveUntil("execute_reply");
  json inspected = execute("r5", "c5", "ok[(2,)](x)\nprint(x.tolist())");
  inspected["inspect"] = true;
  worker.send(inspected);
  const auto fifth = worker.receiveUntil("execute_reply");
  const json* launch = find(fifth, "launch");
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->value("kernel", ""), "ok");
  EXPECT_EQ(launch->value("backend", ""), "simulator");
  EXPECT_EQ((*launch)["grid"], json::array({2, 1, 1}));
  EXPECT_EQ(launch->value("traced_programs", 0), 2);
  ASSERT_TRUE(launch->contains("blobs")) << launch->dump();
  EXPECT_EQ((*launch)["blobs"][0].value("mime", ""), "application/vnd.tilescope.trace");
  EXPECT_EQ(find(fifth, "execute_reply")->value("status", ""), "ok");
}

TEST(EmbeddedWorker, SendsBenchmarksAndFiguresAsDisplayData) {
  EmbeddedWorker worker;
  ASSERT_FALSE(worker.receive(kTimeoutMs).is_null());
  worker.send(execute("r1", "c1",
                      "import triton.testing\n"
                      "@triton.testing.perf_report(triton.testing.Benchmark(x_names=['n'], x_vals=[1, 2], line_arg='p',\n"
                      "    line_vals=['a'], line_names=['A'], plot_name='w', args={}))\n"
                      "def b(n, p):\n"
                      "    return n * 2.0\n"
                      "b.run()\n"));
  const auto bench = worker.receiveUntil("execute_reply");
  const json* shown = find(bench, "display_data");
  ASSERT_NE(shown, nullptr);
  EXPECT_EQ((*shown)["data"]["application/vnd.tilescope.benchmark+json"]["series"][0]["y"], json::array({2.0, 4.0}));

  worker.send(execute("r2", "c2", "import importlib.util\nprint(importlib.util.find_spec('matplotlib') is not None)\n"));
  std::string printed;
  for (const json& m : worker.receiveUntil("execute_reply"))
    if (m.value("type", "") == "stream") printed += m.value("text", "");
  if (printed != "True\n") GTEST_SKIP() << "matplotlib is not importable by the embedded Python (python3-matplotlib)";
  worker.send(execute("r3", "c3", "import matplotlib.pyplot as plt\nplt.plot([0, 1])\nplt.show()\n"));
  const auto figure = worker.receiveUntil("execute_reply");
  const json* image = find(figure, "display_data");
  ASSERT_NE(image, nullptr);
  EXPECT_EQ((*image)["data"].value("image/png", "").rfind("iVBORw0KGgo", 0), 0u);
  EXPECT_EQ(find(figure, "execute_reply")->value("status", ""), "ok");
}

namespace {

// Runs `code` as cell r1, interrupts it once it started (interrupt_request, or SIGINT when `signal`),
// and returns what the worker sent until the reply; a second cell must then run as usual.
std::vector<json> interruptCell(const std::string& code, bool signal) {
  EmbeddedWorker worker;
  worker.receive(kTimeoutMs);
  worker.send(execute("r1", "c1", code));
  EXPECT_NE(find(worker.receiveUntil("execute_input"), "execute_input"), nullptr);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // well inside the loop or the launch
  if (signal) kill(worker.pid(), SIGINT);
  else worker.send({{"type", "interrupt_request"}});
  const std::vector<json> messages = worker.receiveUntil("execute_reply");
  worker.receive(kTimeoutMs);  // idle
  worker.send(execute("r2", "c2", "print('after')"));
  std::string printed;
  for (const json& m : worker.receiveUntil("execute_reply"))
    if (m.value("type", "") == "stream") printed += m.value("text", "");
  EXPECT_EQ(printed, "after\n") << "the worker goes on after an interrupt";
  return messages;
}

void expectKeyboardInterrupt(const std::vector<json>& messages) {
  const json* error = find(messages, "error");
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->value("ename", ""), "KeyboardInterrupt");
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back().value("status", ""), "aborted");
}

// A launch of many programs, each looping long: minutes on the simulator unless interrupted.
constexpr const char* kLongLaunch =
    "import torch, triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def spin(out_ptr, n):\n"
    "    acc = tl.zeros((16,), tl.float32)\n"
    "    for i in range(n):\n"
    "        acc += 1.0\n"
    "    tl.store(out_ptr + tl.arange(0, 16), acc)\n"
    "out = torch.zeros(16)\n"
    "spin[(1 << 20,)](out, 100000)\n";

}  // namespace

TEST(EmbeddedWorker, AnEndlessLoopIsInterruptedByTheInterruptRequestAndBySigint) {
  expectKeyboardInterrupt(interruptCell("while True:\n    pass\n", false));
  expectKeyboardInterrupt(interruptCell("while True:\n    pass\n", true));
}

TEST(EmbeddedWorker, ALongKernelLaunchIsInterrupted) {
  const auto start = std::chrono::steady_clock::now();
  expectKeyboardInterrupt(interruptCell(kLongLaunch, false));
  // A liveness bound only: without the cancel token the launch runs for minutes.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(15));
}

// Each cell's source is in linecache under its cell's name: inspect.getsource finds a kernel defined
// in an earlier cell, and a traceback quotes the cell's line (the GUI shows the name as Cell [N]).
TEST(EmbeddedWorker, CellsAreInLinecacheSoGetsourceAndTracebacksSeeThem) {
  EmbeddedWorker worker;
  worker.receive(kTimeoutMs);
  worker.send(execute("r1", "k", "import triton\nimport triton.language as tl\n@triton.jit\ndef noop(x_ptr):\n    pass\n"));
  worker.receiveUntil("execute_reply");
  worker.send(execute("r2", "s", "import inspect\nprint(inspect.getsource(noop.fn), end='')\nprint(noop.fn.__code__.co_filename)"));
  std::string printed;
  for (const json& m : worker.receiveUntil("execute_reply"))
    if (m.value("type", "") == "stream") printed += m.value("text", "");
  EXPECT_EQ(printed, "@triton.jit\ndef noop(x_ptr):\n    pass\n<cell:k>\n");
  worker.send(execute("r3", "e", "def fail():\n    return 1 // 0\nfail()\n"));
  const auto messages = worker.receiveUntil("execute_reply");
  const json* error = find(messages, "error");
  ASSERT_NE(error, nullptr);
  const json& frames = (*error)["traceback"];
  ASSERT_EQ(frames.size(), 2u) << frames.dump();
  EXPECT_EQ(frames[1]["file"], "<cell:e>");
  EXPECT_EQ(frames[1]["line"], 2);
  EXPECT_EQ(frames[1]["text"], "return 1 // 0") << "the line comes from linecache";
}
