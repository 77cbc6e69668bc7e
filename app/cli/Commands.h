#pragma once
// Each tilescope-cli subcommand is one function in its own file; main.cpp only dispatches.
#include <string>
#include <vector>

namespace tilescope::cli {

using Args = std::vector<std::string>;

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Args& args);  // returns the process exit code
};

int runDevices(const Args& args);
int runWorker(const Args& args);  // WorkerCommand.cpp: runs cells for the GUI (docs/PROTOCOL.md)
int runRun(const Args& args);
bool runsRemotely(const Args& args);  // RemoteRunCommand.cpp: `run --remote HOST FILE` over SSH
int runRemoteRun(const Args& args);
int runTrace(const Args& args);    // TraceCommand.cpp: summarises a trace or exports it as JSON
int runCheck(const Args& args);    // CheckCommand.cpp: type-checks every kernel without a launch
int runViz(const Args& args);      // VizCommand.cpp: draws an inspector view of a trace (PNG/SVG)
int runCompile(const Args& args);  // CompileCommand.cpp: one kernel + signature -> IR, CUDA or PTX

const std::vector<Command>& commands();

}  // namespace tilescope::cli
