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

const std::vector<Command>& commands();

}  // namespace tilescope::cli
