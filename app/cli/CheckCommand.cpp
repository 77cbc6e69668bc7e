// tilescope-cli check: parse and type-check every kernel of a script or notebook without running it.
#include <cstdio>
#include <map>

#include "app/cli/CommandTimeout.h"
#include "app/cli/Commands.h"
#include "app/cli/ConstexprArg.h"
#include "app/cli/ProgramLoader.h"
#include "core/kernel/Checker.h"

namespace tilescope::cli {
namespace {
const char* kUsage =
    "usage: tilescope-cli check FILE.py|FILE.ipynb [-D NAME=VALUE ...] [--timeout SECONDS]\n\n"
    "Parses the file and type-checks every @triton.jit kernel as far as possible without running it.\n"
    "A kernel that the file launches is checked with the argument types of those launches; element\n"
    "types that the code does not show are unknown, and only errors that no such type avoids are reported.\n"
    "Constexpr parameters take a -D value, else the launch's value, else the first autotune config,\n"
    "else their default.\n"
    "  --timeout S   stop after S seconds and exit with code 124, saying the timeout was hit\n"
    "Exit code: 0 when clean, 1 on errors, 2 on bad usage, 124 when --timeout was hit.\n";
}

int runCheck(const Args& args) {
  std::string path;
  std::map<std::string, lang::ConstValue> defines;
  double timeoutSeconds = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--timeout") {
      const std::optional<double> parsed = i + 1 < args.size() ? CommandTimeout::parseSeconds(args[i + 1]) : std::nullopt;
      if (!parsed) {
        std::fprintf(stderr, "tilescope-cli check: --timeout takes a positive number of seconds, not '%s'\n",
                     i + 1 < args.size() ? args[i + 1].c_str() : "");
        return 2;
      }
      timeoutSeconds = *parsed;
      ++i;
    } else if (a == "-D" || a.rfind("-D", 0) == 0) {
      std::string def = a == "-D" ? (i + 1 < args.size() ? args[++i] : "") : a.substr(2);
      const auto eq = def.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::fprintf(stderr, "tilescope-cli check: -D needs NAME=VALUE (got '%s')\n", def.c_str());
        return 2;
      }
      defines[def.substr(0, eq)] = parseConstexprArg(def.substr(eq + 1));
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "tilescope-cli check: unknown option '%s'\n\n%s", a.c_str(), kUsage);
      return 2;
    } else if (path.empty()) {
      path = a;
    } else {
      std::fprintf(stderr, "tilescope-cli check: one file at a time (got '%s' and '%s')\n", path.c_str(), a.c_str());
      return 2;
    }
  }
  if (path.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  // Checking runs no user code and polls no cancel flag: past the limit the watchdog ends the process.
  CommandTimeout timeout("check", timeoutSeconds, nullptr);
  LoadedProgram loaded = loadProgram(path);
  if (!loaded.program) {
    std::fprintf(stderr, "%s\n", loaded.error.c_str());
    return 1;
  }
  lang::DiagnosticList all = std::move(loaded.diagnostics);
  const lang::DiagnosticList checked = lang::checkAllKernels(*loaded.program, defines);
  for (const lang::Diagnostic& d : checked.items()) all.add(d);
  std::fputs(all.render().c_str(), stdout);
  const size_t kernels = lang::kernelRoots(*loaded.program).size();
  const size_t errors = all.errorCount();
  std::printf("%zu kernel%s checked: %zu error%s\n", kernels, kernels == 1 ? "" : "s", errors, errors == 1 ? "" : "s");
  return errors == 0 ? 0 : 1;
}

}  // namespace tilescope::cli
