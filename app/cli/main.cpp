// tilescope-cli: the headless front door to core (devices, check, run, compile, worker).
#include <cstdio>
#include <string>

#include "app/cli/Commands.h"

namespace tilescope::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"devices", "report the CUDA device and NVRTC, or why the simulator is used", runDevices},
      {"worker", "run notebook cells for the GUI over stdin/stdout (docs/PROTOCOL.md)", runWorker},
      {"run", "run a .py script or every cell of a .ipynb notebook (simulator backend)", runRun},
      {"trace", "summarise a trace written by 'run --trace', or export it as JSON", runTrace},
      {"viz", "draw an inspector view of a trace (grid, tiles, coverage, swizzle) as PNG or SVG", runViz},
      {"check", "parse and type-check every @triton.jit kernel of a file, printing diagnostics", runCheck},
      {"compile", "compile one kernel for a signature (Triton AOT convention) and print its IR", runCompile},
  };
  return table;
}

}  // namespace tilescope::cli

namespace {
void printUsage(std::FILE* out) {
  std::fprintf(out, "usage: tilescope-cli [--version] [--help] <command> [args]\n\ncommands:\n");
  for (const auto& c : tilescope::cli::commands()) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "\nRun 'tilescope-cli <command> --help' for a command's options.\n");
}
}  // namespace

int main(int argc, char** argv) {
  tilescope::cli::Args args(argv + 1, argv + argc);
  if (args.empty()) {
    printUsage(stderr);
    return 2;
  }
  const std::string first = args.front();
  if (first == "--version" || first == "-V") {
    std::printf("tilescope-cli %s\n", TILESCOPE_VERSION);
    return 0;
  }
  if (first == "--help" || first == "-h" || first == "help") {
    printUsage(stdout);
    return 0;
  }
  for (const auto& command : tilescope::cli::commands()) {
    if (first == command.name) return command.run(tilescope::cli::Args(args.begin() + 1, args.end()));
  }
  std::fprintf(stderr, "tilescope-cli: unknown command '%s'\n\n", first.c_str());
  printUsage(stderr);
  return 2;
}
