// tilescope-cli run --remote HOST FILE: runs a script (or a notebook's code cells) on another machine's
// `tilescope-cli worker`, reached with the system ssh client, and prints its output here as it comes.
// It speaks the worker protocol (docs/PROTOCOL.md) like the GUI does; nothing goes through a local shell.
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "app/cli/Commands.h"
#include "core/base/SshTarget.h"
#include "core/base/WorkerConnection.h"
#include "core/base/WorkerProtocol.h"
#include "core/notebook/NotebookFile.h"

namespace tilescope::cli {
namespace {
using nlohmann::json;

const char* kRemoteUsage =
    "usage: tilescope-cli run --remote HOST[:PORT] FILE.py|FILE.ipynb [--backend sim|gpu|auto]\n"
    "                         [--identity KEYFILE] [--remote-command PATH] [--out-of-bounds stop|warn]\n"
    "                         [--program-timing FILE.jsonl]\n"
    "\n"
    "Runs the file on HOST's tilescope-cli worker over SSH (ssh -T -o BatchMode=yes HOST tilescope-cli\n"
    "worker): keys and the agent only, never a password prompt. HOST is user@host, host or a Host alias\n"
    "of ~/.ssh/config. Output is printed here as it comes; Ctrl+C interrupts the remote run. Exits 0 on\n"
    "success, 1 when the code raises, 2 on bad arguments, 130 when interrupted, 255 when the connection\n"
    "or the remote worker failed (the message says what to do).\n"
    "\n"
    "  --backend B          sim (default), gpu or auto, on the remote machine\n"
    "  --identity KEYFILE   the private key to log in with (ssh -i)\n"
    "  --remote-command P   tilescope-cli's name or path on HOST (default: tilescope-cli)\n"
    "  --out-of-bounds P    as for a local run\n"
    "  --program-timing F   as for a local run: the remote GPU launches' per-program SM and times, sent\n"
    "                       back over the connection and written to F here\n"
    "TILESCOPE_SSH names another ssh client (a wrapper script, say).\n";

volatile std::sig_atomic_t g_interrupts = 0;
extern "C" void onRemoteSigint(int) { g_interrupts = g_interrupts + 1; }

struct RemoteOptions {
  util::SshTarget target;
  std::string path;
  std::string backend = "simulator";
  std::string outOfBounds = "stop";
  std::string programTiming;       // --program-timing FILE (here): empty when not asked for
  std::ofstream* timingOut = nullptr;
};

void printToStderr(const std::string& text) {
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

using Cells = std::vector<std::pair<std::string, std::string>>;  // (shown as, code); cell i+1 is "c<i+1>"

// A traceback as tilescope-cli run prints it, cell file names ("<cell:c3>") replaced by the user's.
void printError(const json& message, const Cells& cells) {
  auto named = [&](const std::string& file) {
    for (size_t i = 0; i < cells.size(); ++i)
      if (file == "<cell:c" + std::to_string(i + 1) + ">") return cells[i].first;
    return file;
  };
  std::string text;
  bool header = false;
  for (const json& frame : message.value("traceback", json::array())) {
    if (!frame.is_object()) continue;
    const std::string file = named(frame.value("file", ""));
    const std::string line = std::to_string(frame.value("line", 0)) + ":" + std::to_string(frame.value("col", 0));
    if (frame.contains("severity")) {
      text += (file.empty() ? "" : file + ":" + line + ": ") + frame.value("severity", "") + ": " + frame.value("message", "") + "\n";
      if (!frame.value("text", "").empty()) text += frame.value("text", "") + "\n";
    } else {
      if (!header) text += "Traceback (most recent call last):\n";
      header = true;
      text += "  File \"" + file + "\", line " + std::to_string(frame.value("line", 0)) + "\n";
      if (!frame.value("text", "").empty()) text += "    " + frame.value("text", "") + "\n";
    }
  }
  text += message.value("ename", "Error") + ": " + message.value("evalue", "") + "\n";
  printToStderr(text);
}

int failWith(const std::string& message) {
  std::fprintf(stderr, "tilescope-cli run --remote: %s\n", message.c_str());
  return 255;
}

// Waits for the worker's hello and checks its protocol. Empty on success, else the user's sentence.
std::string awaitHello(util::WorkerConnection& worker, const util::SshTarget& target) {
  util::Message message;
  const auto got = worker.receive(message, -1);
  if (got == util::WorkerConnection::Wait::Broken) return util::describeRemoteGarbage(target, worker.firstBytes());
  if (got != util::WorkerConnection::Wait::Message)
    return util::describeSshFailure(target, worker.waitForExit(), worker.stderrText());
  const json& hello = message.json;
  if (hello.value("type", "") != "hello")
    return "the worker on '" + target.displayName() + "' did not start with hello: check that the remote command is tilescope-cli.";
  const int protocol = hello.contains("protocol") && hello["protocol"].is_number_integer() ? hello["protocol"].get<int>() : -1;
  if (protocol != util::kWorkerProtocolVersion)
    return util::describeProtocolMismatch("on '" + target.displayName() + "'", protocol,
                                          hello.contains("version") && hello["version"].is_string() ? hello["version"].get<std::string>() : "");
  return {};
}

enum class CellEnd { Ok, Error, Aborted, Lost };

// Sends one cell and prints what comes back until its execute_reply.
CellEnd runCell(util::WorkerConnection& worker, const RemoteOptions& o, const Cells& cells, size_t index, std::string& lost) {
  const std::string cellId = "c" + std::to_string(index + 1);
  const std::string& code = cells[index].second;
  const std::string requestId = "r-" + cellId;
  worker.send({{"type", "execute_request"}, {"id", requestId}, {"cell_id", cellId}, {"code", code},
               {"backend", o.backend}, {"out_of_bounds", o.outOfBounds}, {"program_timing", o.timingOut != nullptr}});
  int interruptsSent = 0;
  for (;;) {
    util::Message message;
    const auto got = worker.receive(message, 100);
    if (g_interrupts > interruptsSent) {
      // First Ctrl+C: ask the worker; a second: give up on it (closing the connection ends it).
      if (interruptsSent++ == 0) worker.send({{"type", "interrupt_request"}});
      else {
        worker.kill();
        lost = "interrupted twice; the connection was closed, which ends the remote worker";
        return CellEnd::Aborted;
      }
    }
    if (got == util::WorkerConnection::Wait::Timeout) continue;
    if (got != util::WorkerConnection::Wait::Message) {
      const int status = worker.waitForExit();
      lost = got == util::WorkerConnection::Wait::Broken
                 ? "the remote worker sent data that is not the protocol (" + worker.streamError() + ")"
                 : "the connection to '" + o.target.displayName() + "' ended while the cell ran (exit status " + std::to_string(status) +
                       "); a crash of the remote worker or a network failure";
      return CellEnd::Lost;
    }
    const json& m = message.json;
    const std::string type = m.value("type", "");
    if (m.value("id", "") != requestId) {
      if (type == "protocol_error") printToStderr("remote worker: " + m.value("message", "") + "\n");
      continue;
    }
    if (type == "stream") {
      const std::string text = m.value("text", "");
      if (m.value("name", "") == "stderr") printToStderr(text);
      else {
        std::fputs(text.c_str(), stdout);
        std::fflush(stdout);
      }
    } else if (type == "execute_result" || type == "display_data") {
      const json data = m.value("data", json::object());
      if (data.contains("text/plain") && data["text/plain"].is_string()) std::printf("%s\n", data["text/plain"].get<std::string>().c_str());
      std::fflush(stdout);
    } else if (type == "program_timing") {
      // One launch's --program-timing line, as a local run appends it to its file.
      for (size_t b = 0; o.timingOut && b < message.blobs.size(); ++b) {
        const auto& mime = m.value("blobs", json::array());
        if (b < mime.size() && mime[b].is_object() && mime[b].value("mime", "") == util::kProgramTimingMime)
          *o.timingOut << message.blobs[b] << "\n" << std::flush;
      }
      if (o.timingOut && !*o.timingOut) printToStderr("tilescope-cli run: cannot write '" + o.programTiming + "'\n");
    } else if (type == "error") {
      printError(m, cells);
    } else if (type == "execute_reply") {
      const std::string status = m.value("status", "");
      return status == "ok" ? CellEnd::Ok : status == "error" ? CellEnd::Error : CellEnd::Aborted;
    }
  }
}

bool readText(const std::string& path, std::string& text) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  text = s.str();
  return true;
}

}  // namespace

bool runsRemotely(const Args& args) {
  for (const std::string& a : args)
    if (a == "--remote") return true;
  return false;
}

int runRemoteRun(const Args& args) {
  RemoteOptions o;
  std::string hostText;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "tilescope-cli run: %s needs a value\n\n%s", a.c_str(), kRemoteUsage);
        return false;
      }
      into = args[++i];
      return true;
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kRemoteUsage, stdout);
      return 0;
    } else if (a == "--remote") {
      if (!value(hostText)) return 2;
    } else if (a == "--identity") {
      if (!value(o.target.identityFile)) return 2;
    } else if (a == "--remote-command") {
      if (!value(o.target.remoteCommand)) return 2;
    } else if (a == "--backend") {
      if (!value(o.backend)) return 2;
      if (o.backend == "sim") o.backend = "simulator";
      if (o.backend != "simulator" && o.backend != "gpu" && o.backend != "auto") {
        std::fprintf(stderr, "tilescope-cli run: unknown backend '%s' (use sim, gpu or auto)\n", o.backend.c_str());
        return 2;
      }
    } else if (a == "--program-timing") {
      if (!value(o.programTiming)) return 2;
    } else if (a == "--out-of-bounds") {
      if (!value(o.outOfBounds)) return 2;
      if (o.outOfBounds != "stop" && o.outOfBounds != "warn") {
        std::fprintf(stderr, "tilescope-cli run: --out-of-bounds takes 'stop' or 'warn', not '%s'\n", o.outOfBounds.c_str());
        return 2;
      }
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "tilescope-cli run: '%s' cannot be used with --remote\n\n%s", a.c_str(), kRemoteUsage);
      return 2;
    } else if (o.path.empty()) {
      o.path = a;
    } else {
      std::fprintf(stderr, "tilescope-cli run: only one file can be run (got '%s' and '%s')\n", o.path.c_str(), a.c_str());
      return 2;
    }
  }
  if (o.path.empty()) {
    std::fprintf(stderr, "tilescope-cli run: no file given\n\n%s", kRemoteUsage);
    return 2;
  }
  std::string error;
  const std::optional<util::SshTarget> parsed = util::parseSshTarget(hostText, error);
  if (!parsed) {
    std::fprintf(stderr, "tilescope-cli run: --remote %s\n", error.c_str());
    return 2;
  }
  const std::string identity = o.target.identityFile, command = o.target.remoteCommand;
  o.target = *parsed;
  o.target.identityFile = identity;
  o.target.remoteCommand = command;
  if (const std::string bad = util::validateSshTarget(o.target); !bad.empty()) {
    std::fprintf(stderr, "tilescope-cli run: %s\n", bad.c_str());
    return 2;
  }

  // The cells to run: the script as one, or a notebook's code cells in order.
  Cells cells;
  const bool notebook = o.path.size() > 6 && o.path.compare(o.path.size() - 6, 6, ".ipynb") == 0;
  if (notebook) {
    notebook::LoadResult loaded = notebook::loadNotebook(o.path);
    if (!loaded.notebook) {
      std::fprintf(stderr, "tilescope-cli run: %s\n", loaded.error.c_str());
      return 1;
    }
    int index = 0;
    for (const notebook::Cell& cell : loaded.notebook->cells)
      if (cell.type == notebook::CellType::Code) cells.emplace_back(o.path + "[" + std::to_string(++index) + "]", cell.source);
  } else {
    std::string code;
    if (!readText(o.path, code)) {
      std::fprintf(stderr, "tilescope-cli run: cannot read '%s'\n", o.path.c_str());
      return 1;
    }
    cells.emplace_back(o.path, code);
  }

  // Truncated first, as a local run does: the file holds this run's launches only.
  std::ofstream timingFile;
  if (!o.programTiming.empty()) {
    timingFile.open(o.programTiming, std::ios::trunc);
    if (!timingFile) {
      std::fprintf(stderr, "tilescope-cli run: cannot write '%s'\n", o.programTiming.c_str());
      return 1;
    }
    o.timingOut = &timingFile;
  }

  std::vector<std::string> argv{util::sshProgram()};
  for (std::string& a : util::sshArguments(o.target, {"worker"})) argv.push_back(std::move(a));
  util::WorkerConnection worker;
  if (!worker.start(argv, error)) return failWith(error + " (is the OpenSSH client installed?)");
  if (const std::string bad = awaitHello(worker, o.target); !bad.empty()) return failWith(bad);
  // From the hello on, the worker's stderr is the script's stderr.
  printToStderr(worker.stderrText());
  worker.setStderrCallback(printToStderr);

  struct sigaction action {};
  action.sa_handler = onRemoteSigint;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);

  int status = 0;
  for (size_t i = 0; i < cells.size(); ++i) {
    std::string lost;
    const CellEnd end = runCell(worker, o, cells, i, lost);
    if (end == CellEnd::Ok) continue;
    if (!lost.empty()) std::fprintf(stderr, "tilescope-cli run --remote: %s\n", lost.c_str());
    status = end == CellEnd::Error ? 1 : end == CellEnd::Aborted ? 130 : 255;
    break;
  }
  worker.send({{"type", "shutdown_request"}});
  worker.closeInput();
  return status;
}

}  // namespace tilescope::cli
