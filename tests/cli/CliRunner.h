#pragma once
// Runs the built tilescope-cli in a child process and captures its exit code and output.
#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace tilescope::testing {

struct CliRun {
  int exitCode = -1;
  std::string output;  // stdout and stderr together
};

inline CliRun runCli(const std::string& args) {
  CliRun r;
  const std::string command = std::string(TILESCOPE_CLI_PATH) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace tilescope::testing
