// tilescope-cli run: runs a Python script, or every code cell of a notebook in order, on the embedded
// CPython (core/python), printing output as it comes.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/cli/CommandTimeout.h"
#include "app/cli/Commands.h"
#include "core/gpu/runtime/DeviceReport.h"
#include "core/python/ExecutionBackend.h"
#include "core/base/GpuOnlyCells.h"
#include "core/notebook/NotebookFile.h"
#include "core/python/EmbeddedInterpreter.h"
#include "core/python/PythonExecutor.h"
#include "core/python/TorchChoice.h"
#include "core/sim/PidFilter.h"

namespace tilescope::cli {

namespace {

const char* kUsage =
    "usage: tilescope-cli run FILE.py|FILE.ipynb [--backend sim|gpu|auto] [--trace DIR] [--pid-filter EXPR]\n"
    "                         [--out OUT.ipynb] [--allow-errors] [--out-of-bounds stop|warn]\n"
    "                         [--program-timing FILE.jsonl] [--timeout SECONDS] [--torch builtin|system]\n"
    "                         [--sim-threads N]\n"
    "\n"
    "Runs a script, or every code cell of a notebook in order (cells share one namespace), as Python\n"
    "(the embedded CPython, with tilescope's triton and torch); kernels run on the simulator. Exits 0\n"
    "on success, 1 when the code raises (a failed assert included), 2 on bad arguments, 124 when\n"
    "--timeout was hit. Ctrl+C raises KeyboardInterrupt in the running code.\n"
    "\n"
    "  --backend B       sim (default), gpu, or auto (the GPU when there is one, else the simulator)\n"
    "  --trace DIR       write a trace of every kernel launch to DIR (one .tstrace file per launch)\n"
    "  --pid-filter EXPR only these programs print and are traced, e.g. 'pid_0 > 1, pid_1 == 0' or '>1,=0'\n"
    "  --out OUT.ipynb   write the executed notebook with its outputs (nbformat 4.5)\n"
    "  --allow-errors    notebooks: run the remaining cells after a cell fails (the exit code is still 1)\n"
    "  --out-of-bounds P simulator: an unmasked access outside its tensor stops the launch (stop, the\n"
    "                    default) or is a warning, its stray lanes reading 0 and not written (warn);\n"
    "                    a notebook can ask for warn in its metadata: {\"tilescope\": {\"out_of_bounds\": \"warn\"}}\n"
    "  --program-timing F  GPU: every program records its SM and start/end times (%smid, %globaltimer);\n"
    "                    one JSON line per launch is written to F: {\"kernel\", \"launch\", \"grid\",\n"
    "                    \"programs\": [[x, y, z, sm, start_ns, end_ns], ...]} (ns from the launch's first start)\n"
    "  --sim-threads N   the simulator runs programs on N threads (default: every CPU this process may\n"
    "                    use; the environment variable TILESCOPE_SIM_THREADS does the same)\n"
    "  --timeout S       stop after S seconds (an endless loop in host code or in a kernel included) and\n"
    "                    exit with code 124, saying the timeout was hit\n"
    "  --torch T         builtin (default), tilescope's torch, or system, installed PyTorch;\n"
    "                    a notebook can ask for one in its metadata: {\"tilescope\": {\"torch\": \"system\"}}\n"
    "Notebook cells tagged 'raises-exception' (Jupyter's convention) may fail: their error is shown\n"
    "and the run goes on. Cells tagged 'gpu-only' (benchmarks at GPU sizes) run only when kernels run on\n"
    "a GPU; on the simulator they are skipped and their output says so.\n"
    "With --remote HOST the file runs on HOST's tilescope-cli over SSH (run --remote --help).\n";

struct Options {
  std::string path;
  std::string backend = "sim";
  std::string traceDir;
  std::string programTiming;
  std::string pidFilter;
  std::string out;
  bool allowErrors = false;
  bool stopOnOutOfBounds = true;
  bool outOfBoundsGiven = false;
  double timeoutSeconds = 0;  // 0: no limit
  bool torchGiven = false;  // --torch: wins over the notebook's metadata
};

host::CancelToken* g_cancelForSignal = nullptr;  // set once before the handler is installed

extern "C" void onRunSigint(int) {
  if (g_cancelForSignal) g_cancelForSignal->cancel();
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Appends stream text to a cell's outputs, merging with a preceding output of the same stream.
void appendStream(nlohmann::json& outputs, const std::string& name, const std::string& text) {
  if (!outputs.empty() && outputs.back().value("output_type", "") == "stream" && outputs.back().value("name", "") == name) {
    outputs.back()["text"] = outputs.back()["text"].get<std::string>() + text;
    return;
  }
  outputs.push_back({{"output_type", "stream"}, {"name", name}, {"text", text}});
}

nlohmann::json errorOutput(const host::ExecutionOutcome& outcome, const std::string& tracebackText) {
  nlohmann::json lines = nlohmann::json::array();
  std::istringstream in(tracebackText);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return {{"output_type", "error"}, {"ename", outcome.errorName}, {"evalue", outcome.errorValue}, {"traceback", lines}};
}

// A moment as nbformat's cell timing writes it (ISO 8601 UTC, microseconds), e.g. 2026-11-26T17:30:08.123456Z.
std::string isoTimestamp(std::chrono::system_clock::time_point when) {
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(when.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[40];
  const size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(text + n, sizeof text - n, ".%06lldZ", static_cast<long long>(micros % 1000000));
  return text;
}

// Prints and records what a run produces.
struct Recorder {
  nlohmann::json* outputs = nullptr;  // the cell's outputs when writing a notebook

  host::ExecutionCallbacks callbacks() {
    host::ExecutionCallbacks cb;
    cb.stream = [this](const std::string& name, const std::string& text) {
      std::FILE* f = name == "stderr" ? stderr : stdout;
      std::fwrite(text.data(), 1, text.size(), f);
      std::fflush(f);
      if (outputs) appendStream(*outputs, name, text);
    };
    cb.displayData = [this](const host::RichOutput& out) {
      // The CLI shows the text form; the notebook keeps the whole bundle (plots are drawn by the GUI).
      if (outputs) outputs->push_back({{"output_type", "display_data"}, {"data", out.data}, {"metadata", out.metadata}});
    };
    return cb;
  }
};

int finish(const python::PythonExecutor& executor, const host::ExecutionOutcome& outcome) {
  if (outcome.status == host::ExecutionOutcome::Status::Ok) return 0;
  std::fflush(stdout);
  std::fputs(executor.lastTraceback().c_str(), stderr);
  return 1;
}

int runScript(python::PythonExecutor& executor, const Options& o, const std::string& text, host::CancelToken& cancel) {
  Recorder recorder;
  const host::ExecutionCallbacks cb = recorder.callbacks();
  const host::ExecutionOutcome outcome = executor.run(std::make_shared<lang::SourceFile>(o.path, text), false, cb, &cancel);
  return finish(executor, outcome);
}

int runNotebook(python::PythonExecutor& executor, const Options& o, host::CancelToken& cancel) {
  notebook::LoadResult loaded = notebook::loadNotebook(o.path);
  if (!loaded.notebook) {
    std::fprintf(stderr, "tilescope-cli run: %s\n", loaded.error.c_str());
    return 1;
  }
  notebook::Notebook nb = std::move(*loaded.notebook);
  // A notebook may turn the simulator's out-of-bounds stops off for itself (metadata
  // tilescope.out_of_bounds = "warn"); --out-of-bounds on the command line wins.
  if (!o.outOfBoundsGiven && nb.warnsOnOutOfBounds()) executor.launchSettings().stopOnOutOfBounds = false;
  if (!o.torchGiven) {
    if (std::optional<python::TorchChoice> torch = python::notebookTorchChoice(nb.metadata)) python::selectTorch(*torch);
  }
  int status = 0;
  int count = 0;
  bool stopped = false;
  for (notebook::Cell& cell : nb.cells) {
    if (cell.type != notebook::CellType::Code) continue;
    cell.outputs = nlohmann::json::array();
    if (stopped) {
      cell.executionCount = 0;
      continue;
    }
    cell.executionCount = ++count;
    Recorder recorder;
    recorder.outputs = &cell.outputs;
    const host::ExecutionCallbacks cb = recorder.callbacks();
    if (host::skipsGpuOnlyCell(cell.gpuOnly(), executor)) {
      cb.stream("stdout", host::gpuOnlySkipMessage());
      continue;
    }
    // Cells are named like "nb.ipynb[3]" so that tracebacks and kernel errors say which cell.
    auto file = std::make_shared<lang::SourceFile>(o.path + "[" + std::to_string(count) + "]", cell.source);
    const auto started = std::chrono::system_clock::now();
    const host::ExecutionOutcome outcome = executor.run(file, true, cb, &cancel);
    // When the cell started and ended, in the metadata that Jupyter's nbclient records
    // (cell.metadata.execution): --out notebooks tell where a run's time went, cell by cell.
    cell.metadata["execution"] = {{"iopub.execute_input", isoTimestamp(started)},
                                  {"shell.execute_reply", isoTimestamp(std::chrono::system_clock::now())}};
    if (outcome.result) {
      const std::string text = outcome.result->data.value("text/plain", "");
      std::printf("%s\n", text.c_str());
      std::fflush(stdout);
      cell.outputs.push_back({{"output_type", "execute_result"},
                              {"execution_count", count},
                              {"data", outcome.result->data},
                              {"metadata", nlohmann::json::object()}});
    }
    if (outcome.status != host::ExecutionOutcome::Status::Ok) {
      const int failure = finish(executor, outcome);
      cell.outputs.push_back(errorOutput(outcome, executor.lastTraceback()));
      // A cell tagged raises-exception is meant to fail (and is no failure of the run), unless it was
      // interrupted; otherwise stop at the first error, like Jupyter's "run all".
      const bool expected = cell.raisesException() && outcome.status == host::ExecutionOutcome::Status::Error;
      if (!expected) {
        status = failure;
        stopped = !o.allowErrors || cancel.cancelled();  // after a timeout nothing more runs
      }
    }
  }
  if (!o.out.empty()) {
    const std::string error = notebook::saveNotebook(nb, o.out);
    if (!error.empty()) {
      std::fprintf(stderr, "tilescope-cli run: %s\n", error.c_str());
      return 1;
    }
  }
  return status;
}

// Runs the file with the options parsed.
int runWith(python::PythonExecutor& executor, const Options& o);

}  // namespace

int runRun(const Args& givenArgs) {
  if (runsRemotely(givenArgs)) return runRemoteRun(givenArgs);
  Options o;
  Args args = givenArgs;
  if (std::string error; !python::takeTorchOption(args, o.torchGiven, error)) {
    std::fprintf(stderr, "tilescope-cli run: %s\n", error.c_str());
    return 2;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "tilescope-cli run: %s needs a value\n\n%s", a.c_str(), kUsage);
        return false;
      }
      into = args[++i];
      return true;
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--backend") {
      if (!value(o.backend)) return 2;
    } else if (a == "--trace") {
      if (!value(o.traceDir)) return 2;
    } else if (a == "--program-timing") {
      if (!value(o.programTiming)) return 2;
    } else if (a == "--pid-filter") {
      if (!value(o.pidFilter)) return 2;
      // Checked now, so a typo is a usage error before anything runs, not a failure at the first launch.
      if (const sim::PidFilterParseResult f = sim::PidFilter::parse(o.pidFilter); !f.filter) {
        std::fprintf(stderr, "tilescope-cli run: --pid-filter '%s': %s\n", o.pidFilter.c_str(), f.error.c_str());
        return 2;
      }
    } else if (a == "--out") {
      if (!value(o.out)) return 2;
    } else if (a == "--timeout") {
      std::string seconds;
      if (!value(seconds)) return 2;
      const std::optional<double> parsed = CommandTimeout::parseSeconds(seconds);
      if (!parsed) {
        std::fprintf(stderr, "tilescope-cli run: --timeout takes a positive number of seconds, not '%s'\n", seconds.c_str());
        return 2;
      }
      o.timeoutSeconds = *parsed;
    } else if (a == "--python") {
      // Scripts written while there were two Pythons: `embedded` is the only one now.
      std::string python;
      if (!value(python)) return 2;
      if (python != "embedded") {
        std::fprintf(stderr, "tilescope-cli run: --python %s: %s\n", python.c_str(),
                     python == "interpreter"
                         ? "tilescope's own interpreter of a Python subset was removed; host code runs on the embedded "
                           "CPython now. Drop the --python option."
                         : "host code runs on the embedded CPython, the only Python; drop the --python option.");
        return 2;
      }
    } else if (a == "--sim-threads") {
      std::string count;
      if (!value(count)) return 2;
      char* end = nullptr;
      const long n = std::strtol(count.c_str(), &end, 10);
      if (count.empty() || *end != '\0' || n < 1 || n > 1024) {
        std::fprintf(stderr, "tilescope-cli run: --sim-threads takes a number of threads from 1 to 1024, not '%s'\n", count.c_str());
        return 2;
      }
      // The simulator reads it at every launch (sim::WorkerPool::defaultThreadCount).
      setenv("TILESCOPE_SIM_THREADS", std::to_string(n).c_str(), 1);
    } else if (a == "--allow-errors") {
      o.allowErrors = true;
    } else if (a == "--out-of-bounds") {
      std::string policy;
      if (!value(policy)) return 2;
      if (policy != "stop" && policy != "warn") {
        std::fprintf(stderr, "tilescope-cli run: --out-of-bounds takes 'stop' or 'warn', not '%s'\n", policy.c_str());
        return 2;
      }
      o.stopOnOutOfBounds = policy == "stop";
      o.outOfBoundsGiven = true;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "tilescope-cli run: unknown option '%s'\n\n%s", a.c_str(), kUsage);
      return 2;
    } else if (o.path.empty()) {
      o.path = a;
    } else {
      std::fprintf(stderr, "tilescope-cli run: only one file can be run (got '%s' and '%s')\n", o.path.c_str(), a.c_str());
      return 2;
    }
  }
  if (o.path.empty()) {
    std::fprintf(stderr, "tilescope-cli run: no file given\n\n%s", kUsage);
    return 2;
  }
  try {
    python::PythonExecutor executor;
    return runWith(executor, o);
  } catch (const python::PythonStartError& e) {
    std::fprintf(stderr, "tilescope-cli run: %s\n", e.what());
    return 1;
  }
}

namespace {

int runWith(python::PythonExecutor& executor, const Options& o) {
  // The limit covers everything from here: the device probe and warm-up too.
  host::CancelToken cancel;
  CommandTimeout timeout("run", o.timeoutSeconds, &cancel);
  // Ctrl+C asks the running code to stop: KeyboardInterrupt in Python, the cancel token in a launch.
  g_cancelForSignal = &cancel;
  struct sigaction action {};
  action.sa_handler = onRunSigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  auto finished = [&](int status) { return timeout.expired() ? timeout.report() : status; };
  if (o.backend == "sim" || o.backend == "simulator") {
    executor.setBackend(host::Backend::Simulator);
  } else if (o.backend == "gpu" || o.backend == "auto") {
    // The backend rule is host::resolveBackend's (auto: the GPU when one is usable, kernels it cannot
    // translate yet falling back to the simulator); a GPU asked for and missing is refused here,
    // before the script runs.
    const host::Backend choice = o.backend == "gpu" ? host::Backend::Gpu : host::Backend::Auto;
    if (choice == host::Backend::Gpu && !host::resolvesToGpu(choice)) {
      std::fprintf(stderr, "tilescope-cli run: --backend gpu needs a CUDA device, and this machine has none (%s). "
                           "Use --backend sim or auto.\n", host::gpuUnusableReason().c_str());
      return 1;
    }
    executor.setBackend(choice);
    // NVRTC's first compile initialises the compiler, and the first launch needs a CUDA context: start
    // both now, while the script is read.
    if (host::resolvesToGpu(choice)) gpu::DeviceReport::probe().warmUp();
  } else {
    std::fprintf(stderr, "tilescope-cli run: unknown backend '%s' (use sim, gpu or auto)\n", o.backend.c_str());
    return 2;
  }
  executor.launchSettings().traceDir = o.traceDir;
  executor.launchSettings().stopOnOutOfBounds = o.stopOnOutOfBounds;
  executor.launchSettings().pidFilter = o.pidFilter;
  if (!o.programTiming.empty()) {
    std::ofstream truncate(o.programTiming, std::ios::trunc);
    if (!truncate) {
      std::fprintf(stderr, "tilescope-cli run: cannot write '%s'\n", o.programTiming.c_str());
      return 1;
    }
    executor.launchSettings().programTimingPath = o.programTiming;
  }

  if (endsWith(o.path, ".ipynb")) return finished(runNotebook(executor, o, cancel));
  std::error_code ec;
  if (std::filesystem::is_directory(o.path, ec)) {
    std::fprintf(stderr, "tilescope-cli run: '%s' is a folder; give a .py script or a .ipynb notebook\n", o.path.c_str());
    return 1;
  }
  std::ifstream f(o.path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "tilescope-cli run: cannot read '%s'\n", o.path.c_str());
    return 1;
  }
  std::stringstream text;
  text << f.rdbuf();
  if (!o.out.empty()) {
    std::fprintf(stderr, "tilescope-cli run: --out writes notebooks; '%s' is a script (run the .ipynb instead)\n", o.path.c_str());
    return 2;
  }
  return finished(runScript(executor, o, text.str(), cancel));
}

}  // namespace

}  // namespace tilescope::cli
