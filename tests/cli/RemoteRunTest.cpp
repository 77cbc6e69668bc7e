// `tilescope-cli run --remote` and the worker's side of remote use, through a real OpenSSH server on
// 127.0.0.1 (core/testing/LocalSshServer): scripts run there, and every connection failure is a
// sentence that says what to do. Skipped, with the reason, where sshd cannot start.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <thread>

#include "core/base/FrameCodec.h"
#include "core/base/SshTarget.h"
#include "core/base/WorkerExitCodes.h"
#include "core/gpu/runtime/ProgramTiming.h"
#include "core/testing/LocalSshServer.h"
#include "tests/cli/CliRunner.h"
#include "tests/cli/WorkerProcess.h"

using tilescope::testing::LocalSshServer;
using tilescope::testing::runCli;

namespace {

class RemoteRun : public ::testing::Test {
protected:
  static void SetUpTestSuite() { server = new LocalSshServer; }
  static void TearDownTestSuite() {
    delete server;
    server = nullptr;
  }
  void SetUp() override {
    if (!server->skipReason().empty()) GTEST_SKIP() << "no local SSH server: " << server->skipReason();
    ::setenv("TILESCOPE_SSH", server->sshWrapper().c_str(), 1);
  }
  void TearDown() override { ::unsetenv("TILESCOPE_SSH"); }

  std::string file(const std::string& name, const std::string& text) {
    const std::string path = server->dir() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  // `run --remote HOST FILE` with the remote command set to this build's tilescope-cli.
  tilescope::testing::CliRun runRemote(const std::string& host, const std::string& path, const std::string& more = "") {
    return runCli("run --remote " + host + " " + path + " --remote-command " + TILESCOPE_CLI_PATH + " " + more);
  }
  static LocalSshServer* server;
};
LocalSshServer* RemoteRun::server = nullptr;

}  // namespace

TEST_F(RemoteRun, AScriptRunsOnTheRemoteWorkerAndPrintsHere) {
  const auto r = runRemote(LocalSshServer::kHost, file("hello.py", "print('hello', 6 * 7)\n"));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("hello 42"), std::string::npos) << r.output;
}

TEST_F(RemoteRun, AnErrorNamesTheLocalFileAndLine) {
  const std::string path = file("fails.py", "x = 1\ny = x / 0\n");
  const auto r = runRemote(LocalSshServer::kHost, path);
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("ZeroDivisionError"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(path + "\", line 2"), std::string::npos) << "the frame names the user's file: " << r.output;
}

TEST_F(RemoteRun, CtrlCInterruptsTheRemoteCell) {
  const std::string script = file("loop.py", "print('looping')\nwhile True:\n    pass\n");
  const std::string log = server->dir() + "/loop.log";
  const pid_t child = ::fork();
  if (child == 0) {
    std::freopen(log.c_str(), "w", stdout);
    ::dup2(STDOUT_FILENO, STDERR_FILENO);
    ::execl(TILESCOPE_CLI_PATH, "tilescope-cli", "run", "--remote", LocalSshServer::kHost, script.c_str(), "--remote-command",
            TILESCOPE_CLI_PATH, static_cast<char*>(nullptr));
    ::_exit(127);
  }
  auto output = [&] {
    std::ifstream f(log);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (output().find("looping") == std::string::npos && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_NE(output().find("looping"), std::string::npos) << output();
  ::kill(child, SIGINT);  // Ctrl+C in the terminal
  int status = 0;
  for (int i = 0; i < 500 && ::waitpid(child, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (::waitpid(child, &status, WNOHANG) == 0) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
    FAIL() << "still running 10 s after Ctrl+C: " << output();
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << output();
  EXPECT_NE(output().find("KeyboardInterrupt"), std::string::npos) << output();
}

TEST_F(RemoteRun, ExplicitPortAndIdentityFileWork) {
  // The alias's key is not offered here: the one given with --identity logs in.
  const auto r = runCli("run --remote tilescope-test-wrong-key:" + std::to_string(server->port()) + " " +
                        file("port.py", "print('via port')\n") + " --identity " + server->clientKey() + " --remote-command " +
                        TILESCOPE_CLI_PATH);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("via port"), std::string::npos) << r.output;
}

TEST_F(RemoteRun, AuthenticationRefusedSaysToUseAKey) {
  const auto r = runRemote("tilescope-test-wrong-key", file("a.py", "print(1)\n"));
  EXPECT_EQ(r.exitCode, 255) << r.output;
  EXPECT_NE(r.output.find("refused the login"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ssh-add"), std::string::npos) << r.output;
}

TEST_F(RemoteRun, AnUnknownHostNameSaysToCheckIt) {
  const auto r = runRemote("no-such-host.invalid", file("a.py", "print(1)\n"));
  EXPECT_EQ(r.exitCode, 255) << r.output;
  EXPECT_NE(r.output.find("The host 'no-such-host.invalid' is unknown"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("~/.ssh/config"), std::string::npos) << r.output;
}

TEST_F(RemoteRun, AnUnknownHostKeyIsNeverAcceptedSilently) {
  const auto r = runRemote("tilescope-test-new-host", file("a.py", "print(1)\n"));
  EXPECT_EQ(r.exitCode, 255) << r.output;
  EXPECT_NE(r.output.find("host key of 'tilescope-test-new-host' is not known"), std::string::npos) << r.output;
}

TEST_F(RemoteRun, TilescopeCliMissingOnTheHostSaysToInstallOrGiveThePath) {
  const auto r = runCli(std::string("run --remote ") + LocalSshServer::kHost + " " + file("a.py", "print(1)\n") +
                        " --remote-command /nonexistent/tilescope-cli");
  EXPECT_EQ(r.exitCode, 255) << r.output;
  EXPECT_NE(r.output.find("'/nonexistent/tilescope-cli' was not found on 'tilescope-test'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--remote-command"), std::string::npos) << r.output;
}

// Program timing travels back as program_timing messages and is written here. There is no GPU on this
// machine: the remote worker runs the test executor, whose 'fake program timing' hands the worker a
// made-up timing line as a timed GPU launch would. A real GPU launch over SSH is not run here.
TEST_F(RemoteRun, ProgramTimingOfTheRemoteLaunchesIsWrittenToTheLocalFile) {
  const std::string testDouble = server->writeScript(
      "timing-test-double-cli", std::string("TILESCOPE_WORKER_TEST_EXECUTOR=1 exec ") + TILESCOPE_CLI_PATH + " \"$@\"");
  const std::string timing = server->dir() + "/timing.jsonl";
  std::ofstream(timing) << "an earlier run's line\n";
  const auto r = runCli(std::string("run --remote ") + LocalSshServer::kHost + " " +
                        file("t.py", "fake program timing\nprint done\nfake program timing\n") + " --remote-command " +
                        testDouble + " --program-timing " + timing);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("done"), std::string::npos) << r.output;
  const auto launches = tilescope::gpu::readProgramTimingFile(timing);
  ASSERT_EQ(launches.size(), 2u) << "the file holds this run's two launches only";
  EXPECT_EQ(launches[0].kernel, "fake_kernel");
  EXPECT_EQ(launches[1].launch, 2);
  ASSERT_EQ(launches[0].programs.size(), 2u);
  EXPECT_EQ(launches[0].programs[1].sm, 1);
  EXPECT_EQ(launches[0].programs[1].endNs, 600u);  // from the first start (100)

  // Without --program-timing, the worker is not asked for it.
  const auto plain = runCli(std::string("run --remote ") + LocalSshServer::kHost + " " + file("u.py", "fake program timing\n") +
                            " --remote-command " + testDouble);
  EXPECT_EQ(plain.exitCode, 0) << plain.output;
  EXPECT_NE(plain.output.find("program timing was not asked for"), std::string::npos) << plain.output;
}

TEST_F(RemoteRun, AWorkerOfAnotherProtocolNamesBothVersions) {
  // A stand-in for a tilescope-cli of another release: its hello announces protocol 99.
  const std::string hello = R"({"type":"hello","protocol":99,"version":"9.9.9","executor":"future","pid":1})";
  std::ofstream(server->dir() + "/hello.bin", std::ios::binary)
      << tilescope::util::encodeFrame(tilescope::util::FrameKind::Json, hello);
  const std::string fake = server->writeScript("future-cli", "cat " + server->dir() + "/hello.bin; cat >/dev/null");
  const auto r = runCli(std::string("run --remote ") + LocalSshServer::kHost + " " + file("a.py", "print(1)\n") +
                        " --remote-command " + fake);
  EXPECT_EQ(r.exitCode, 255) << r.output;
  EXPECT_NE(r.output.find("tilescope-cli 9.9.9 (protocol 99)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(std::string("tilescope ") + TILESCOPE_VERSION + " (protocol 1)"), std::string::npos) << r.output;
}

TEST_F(RemoteRun, ALoginScriptPrintingOnStdoutIsExplained) {
  const std::string chatty = server->writeScript("chatty-cli", "echo 'Welcome to the lab server'; cat >/dev/null");
  const auto r = runCli(std::string("run --remote ") + LocalSshServer::kHost + " " + file("a.py", "print(1)\n") +
                        " --remote-command " + chatty);
  EXPECT_EQ(r.exitCode, 255) << r.output;
  EXPECT_NE(r.output.find("Welcome to the lab server"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("login script"), std::string::npos) << r.output;
}

TEST(RemoteRunArguments, AHostThatLooksLikeAnOptionIsRefusedBeforeSshRuns) {
  const auto r = runCli("run --remote '-oProxyCommand=touch /tmp/x' script.py");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("is not a host name"), std::string::npos) << r.output;
}

TEST(RemoteRunArguments, ARemoteCommandWithShellCharactersIsRefused) {
  const auto r = runCli("run --remote gpu-box script.py --remote-command 'tilescope-cli;reboot'");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("is not a program path"), std::string::npos) << r.output;
}

TEST(SshArguments, AreAListWithBatchModeAndTheHostAfterDoubleDash) {
  tilescope::util::SshTarget target;
  target.host = "ana@gpu-box";
  target.port = 2222;
  target.identityFile = "/home/ana/.ssh/id lab";  // a space is fine: it is one argument
  target.remoteCommand = "~/bin/tilescope-cli";
  EXPECT_EQ(tilescope::util::validateSshTarget(target), "");
  const std::vector<std::string> args = tilescope::util::sshArguments(target, {"worker"});
  const std::vector<std::string> expected{"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o", "ServerAliveInterval=15",
                                          "-o", "ServerAliveCountMax=4", "-p", "2222", "-i", "/home/ana/.ssh/id lab", "--",
                                          "ana@gpu-box", "~/bin/tilescope-cli", "worker"};
  EXPECT_EQ(args, expected);
  EXPECT_EQ(target.displayName(), "gpu-box");
}

// The worker's half of "the client closes the connection and the remote worker exits on end of
// input": a cell stuck in native code (it never polls the cancel flag) does not keep the process.
TEST(WorkerEndOfInput, AStuckCellDoesNotOutliveTheConnection) {
  tilescope::testing::WorkerProcess worker(/*testExecutor=*/true);
  ASSERT_EQ(worker.receive().value("type", ""), "hello");
  worker.send({{"type", "execute_request"}, {"id", "r1"}, {"cell_id", "c"}, {"code", "hang"}, {"backend", "auto"}});
  const auto started = worker.receiveUntil("execute_input");
  ASSERT_FALSE(started.empty());
  ASSERT_EQ(started.back().value("type", ""), "execute_input");
  worker.closeInput();
  EXPECT_EQ(worker.waitForExit(), tilescope::util::kWorkerExitCellOutlivedInput);
}

TEST(WorkerDeviceRequest, IsAnsweredWithTheDeviceReport) {
  tilescope::testing::WorkerProcess worker(/*testExecutor=*/true);
  ASSERT_EQ(worker.receive().value("type", ""), "hello");
  worker.send({{"type", "device_request"}});
  const nlohmann::json report = worker.receive(30000);
  ASSERT_EQ(report.value("type", ""), "device_report") << report.dump();
  EXPECT_TRUE(report["gpu_available"].is_boolean());
  EXPECT_FALSE(report.value("status_line", "").empty());
  EXPECT_FALSE(report.value("details", "").empty());
}
