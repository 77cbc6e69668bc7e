#pragma once
// Running code on embedded CPython in tests: one call runs a cell (or script) and collects what it
// printed, its outcome and its traceback text.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/python/PythonExecutor.h"

namespace tilescope::testing {

struct PythonRun {
  host::ExecutionOutcome outcome;
  std::string out;
  std::string err;
  std::string traceback;
  std::vector<host::RichOutput> displays;  // display_data outputs, in order
  bool ok() const { return outcome.status == host::ExecutionOutcome::Status::Ok; }
  std::string result() const { return outcome.result ? outcome.result->data.value("text/plain", "") : ""; }
};

inline PythonRun runPython(python::PythonExecutor& executor, const std::string& code, const std::string& file = "Cell [1]",
                           bool displayLast = true, const host::CancelToken* cancel = nullptr, int firstLine = 1) {
  PythonRun run;
  host::ExecutionCallbacks callbacks;
  callbacks.stream = [&run](const std::string& name, const std::string& text) { (name == "stderr" ? run.err : run.out) += text; };
  callbacks.displayData = [&run](const host::RichOutput& output) { run.displays.push_back(output); };
  run.outcome = executor.run(std::make_shared<lang::SourceFile>(file, code, firstLine), displayLast, callbacks, cancel);
  run.traceback = executor.lastTraceback();
  return run;
}

// Runs a script "test.py" in a fresh executor (each test starts clean, like a new process).
inline PythonRun runScript(const std::string& code) {
  python::PythonExecutor executor;
  return runPython(executor, code, "test.py", false);
}

// stdout of a script that must succeed.
inline std::string scriptOut(const std::string& code) {
  const PythonRun run = runScript(code);
  EXPECT_TRUE(run.ok()) << run.traceback;
  return run.out;
}

// "Type: message" of a script that must fail.
inline std::string scriptError(const std::string& code) {
  const PythonRun run = runScript(code);
  EXPECT_FALSE(run.ok()) << "expected an error, got output: " << run.out;
  return run.outcome.errorName + ": " + run.outcome.errorValue;
}

}  // namespace tilescope::testing
