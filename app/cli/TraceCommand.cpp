// tilescope-cli trace: summarise a binary trace written by `run --trace`, or export it as JSON for
// tools (docs/TRACE_FORMAT.md describes both formats).
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/cli/Commands.h"
#include "core/sim/TraceJson.h"
#include "core/sim/TraceReader.h"

namespace tilescope::cli {
namespace {

const char* kUsage =
    "usage: tilescope-cli trace FILE.tstrace [--json OUT.json|-]\n\n"
    "Prints what a trace holds (kernel, grid, programs traced, events, the size policy).\n"
    "  --json PATH   write the whole trace as JSON to PATH ('-' for standard output)\n"
    "Exit code: 0 on success, 1 when the trace cannot be read or written, 2 on bad usage.\n";

struct EventCounts {
  size_t loads = 0, stores = 0, atomics = 0, binds = 0, prints = 0;
};

EventCounts countEvents(const sim::LaunchTrace& trace) {
  EventCounts c;
  for (const sim::ProgramTrace& p : trace.programs)
    for (const sim::TraceEvent& e : p.events) {
      if (const auto* m = std::get_if<sim::MemAccessEvent>(&e)) {
        if (m->kind == sim::MemOpKind::Load)
          ++c.loads;
        else if (m->kind == sim::MemOpKind::Store)
          ++c.stores;
        else
          ++c.atomics;
      } else if (std::holds_alternative<sim::BindEvent>(e)) {
        ++c.binds;
      } else {
        ++c.prints;
      }
    }
  return c;
}

}  // namespace

int runTrace(const Args& args) {
  std::string path, jsonPath;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--json") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "tilescope-cli trace: --json needs a path (or '-')\n");
        return 2;
      }
      jsonPath = args[++i];
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "tilescope-cli trace: unknown option '%s'\n\n%s", a.c_str(), kUsage);
      return 2;
    } else if (path.empty()) {
      path = a;
    } else {
      std::fprintf(stderr, "tilescope-cli trace: one trace at a time (got '%s' and '%s')\n", path.c_str(), a.c_str());
      return 2;
    }
  }
  if (path.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const sim::TraceReader::Result read = sim::TraceReader::readFile(path);
  if (!read.trace) {
    std::fprintf(stderr, "%s: error: %s\n", path.c_str(), read.error.c_str());
    return 1;
  }
  const sim::LaunchTrace& trace = *read.trace;
  if (!jsonPath.empty()) {
    const std::string text = sim::traceToJson(trace).dump();
    if (jsonPath == "-") {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fputc('\n', stdout);
      return 0;
    }
    std::ofstream out(jsonPath, std::ios::binary);
    out << text << '\n';
    if (!out) {
      std::fprintf(stderr, "tilescope-cli trace: cannot write %s\n", jsonPath.c_str());
      return 1;
    }
    std::printf("wrote %s (%.1f MiB)\n", jsonPath.c_str(), static_cast<double>(text.size()) / (1 << 20));
    return 0;
  }
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  const EventCounts c = countEvents(trace);
  std::printf("kernel %s, grid (%lld, %lld, %lld): %lld programs\n", trace.kernelName.c_str(),
              static_cast<long long>(trace.grid[0]), static_cast<long long>(trace.grid[1]),
              static_cast<long long>(trace.grid[2]), static_cast<long long>(trace.totalPrograms));
  std::printf("traced programs: %zu (%s)\n", trace.programs.size(), trace.policy.c_str());
  std::printf("events: %zu loads, %zu stores, %zu atomics, %zu variable bindings, %zu printed lines\n", c.loads,
              c.stores, c.atomics, c.binds, c.prints);
  std::printf("values recorded: %s; file size: %.1f MiB\n", trace.valuesRecorded ? "yes" : "no",
              ec ? 0.0 : static_cast<double>(bytes) / (1 << 20));
  return 0;
}

}  // namespace tilescope::cli
