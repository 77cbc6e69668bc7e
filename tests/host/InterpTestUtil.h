#pragma once
// Runs host code through the interpreter (HostExecutor) and captures what a user would see.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/host/HostExecutor.h"

namespace tilescope::testing {

struct PyRun {
  std::string out;        // stdout
  std::string err;        // stderr
  bool ok = false;
  std::string errorName;  // "TypeError"
  std::string errorValue;
  std::string traceback;  // the Python-style text
  std::string result;     // repr of a trailing expression (displayLast runs)
  std::string displayMime;  // MIME types of display outputs, comma separated
  std::string displayJson;  // the last display output's data
};

inline PyRun runPy(host::HostExecutor& ex, const std::string& code, bool displayLast = false, const std::string& name = "test.py") {
  PyRun r;
  host::ExecutionCallbacks cb;
  cb.stream = [&r](const std::string& stream, const std::string& text) { (stream == "stdout" ? r.out : r.err) += text; };
  cb.displayData = [&r](const host::RichOutput& o) {
    for (auto it = o.data.begin(); it != o.data.end(); ++it) r.displayMime += it.key() + ",";
    r.displayJson = o.data.dump();
  };
  host::CancelToken cancel;
  const host::ExecutionOutcome o = ex.run(std::make_shared<lang::SourceFile>(name, code), displayLast, cb, &cancel);
  r.ok = o.status == host::ExecutionOutcome::Status::Ok;
  r.errorName = o.errorName;
  r.errorValue = o.errorValue;
  r.traceback = ex.lastTraceback();
  if (o.result) r.result = o.result->data.value("text/plain", "");
  return r;
}

inline PyRun runPy(const std::string& code, bool displayLast = false) {
  host::HostExecutor ex;
  return runPy(ex, code, displayLast);
}

// stdout of a run that must succeed.
inline std::string pyOut(const std::string& code) {
  PyRun r = runPy(code);
  EXPECT_TRUE(r.ok) << r.traceback;
  return r.out;
}

// "Type: message" of a run that must fail.
inline std::string pyError(const std::string& code) {
  PyRun r = runPy(code);
  EXPECT_FALSE(r.ok) << "expected an error, got output: " << r.out;
  return r.errorName + ": " + r.errorValue;
}

}  // namespace tilescope::testing
