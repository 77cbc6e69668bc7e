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

// The same run in the shape the GPU run tests check (tests/gpu/GpuRun*): ok, the error's name and
// message, and the last display output's MIME types and data as text. A fresh cancel token each run.
struct PyRun {
  std::string out;
  std::string err;
  bool ok = false;
  std::string errorName;
  std::string errorValue;
  std::string traceback;
  std::string result;       // repr of a trailing expression (displayLast runs)
  std::string displayMime;  // MIME types of display outputs, comma separated
  std::string displayJson;  // the last display output's data
};

inline PyRun runPy(python::PythonExecutor& executor, const std::string& code, bool displayLast = false,
                   const std::string& name = "test.py") {
  host::CancelToken cancel;
  const PythonRun run = runPython(executor, code, name, displayLast, &cancel);
  PyRun r;
  r.out = run.out;
  r.err = run.err;
  r.ok = run.ok();
  r.errorName = run.outcome.errorName;
  r.errorValue = run.outcome.errorValue;
  r.traceback = run.traceback;
  r.result = run.result();
  for (const host::RichOutput& o : run.displays) {
    for (auto it = o.data.begin(); it != o.data.end(); ++it) r.displayMime += it.key() + ",";
    r.displayJson = o.data.dump();
  }
  return r;
}

// The imports every kernel cell starts with.
inline constexpr const char* kPrelude = "import torch\nimport triton\nimport triton.language as tl\n";

// A masked vector-add kernel, as users write the first one.
inline constexpr const char* kAddKernel = R"(
@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)
)";

}  // namespace tilescope::testing
