#pragma once
// Real traces of the seed tutorials' kernels for the inspector's tests: parts of
// TILESCOPE_SEEDS_DIR/triton-practitioners-guide.md run as host code on embedded CPython with tracing on
// (values recorded, as the inspector asks), and the traces its launches wrote read back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/python/PythonExecutor.h"
#include "core/syntax/Parser.h"
#include "core/sim/TraceReader.h"

namespace tilescope::viz::testing {

inline const char* kGuide = "triton-practitioners-guide.md";

inline std::optional<std::vector<std::string>> seedLines(const std::string& name) {
  std::ifstream f(std::string(TILESCOPE_SEEDS_DIR) + "/" + name, std::ios::binary);
  if (!f) return std::nullopt;
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}

// One host session whose launches are traced into a fresh temporary folder.
class TracedSession {
public:
  TracedSession() {
    static int counter = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("tilescope-viz-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::filesystem::remove_all(dir_);
    executor_.launchSettings().traceDir = dir_.string();
    executor_.launchSettings().traceValues = true;
  }
  ~TracedSession() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Runs code that must succeed.
  void run(const std::string& code) {
    host::ExecutionCallbacks cb;
    cb.stream = [this](const std::string&, const std::string& text) { output_ += text; };
    host::CancelToken cancel;
    const host::ExecutionOutcome o = executor_.run(std::make_shared<lang::SourceFile>("seed.ipynb", code), true, cb, &cancel);
    EXPECT_EQ(o.status, host::ExecutionOutcome::Status::Ok) << code << "\n" << executor_.lastTraceback();
  }

  // The traces written since the last call, in launch order.
  std::vector<sim::LaunchTrace> takeTraces() {
    std::vector<std::pair<long, std::filesystem::path>> files;
    if (std::filesystem::exists(dir_))
      for (const auto& entry : std::filesystem::directory_iterator(dir_))
        files.emplace_back(std::stol(entry.path().filename().string()), entry.path());
    std::sort(files.begin(), files.end());
    std::vector<sim::LaunchTrace> traces;
    for (const auto& [number, path] : files) {
      sim::TraceReader::Result r = sim::TraceReader::readFile(path.string());
      EXPECT_TRUE(r.trace) << path << ": " << r.error;
      if (r.trace) traces.push_back(std::move(*r.trace));
      std::filesystem::remove(path);
    }
    return traces;
  }

  const std::string& output() const { return output_; }

private:
  std::filesystem::path dir_;
  python::PythonExecutor executor_;
  std::string output_;
};

// The guide's Example 1 (fenced blocks before "# Example 2"): its three copy_k launches with bs=2
// on x = [1..6] - the two buggy kernels, then the fixed one.
inline std::vector<sim::LaunchTrace> copyTraces(const std::vector<std::string>& lines) {
  TracedSession session;
  for (size_t i = 0; i < lines.size() && lines[i] != "# Example 2: Greyscaling an image"; ++i) {
    if (lines[i].rfind("```", 0) != 0) continue;
    const std::string lang = lines[i].substr(3);
    std::string body;
    size_t j = i + 1;
    for (; j < lines.size() && lines[j].rfind("```", 0) != 0; ++j) body += lines[j] + "\n";
    // Unlabelled blocks are code when they parse (the guide's tables and output do not).
    if (lang == "python" || (lang.empty() && lang::parseModule(body, "block.py").ok())) session.run(body);
    i = j;
  }
  return session.takeTraces();
}

// The text from the first line equal to `first` at or after `from` to the next line equal to `last`.
inline std::string seedSpan(const std::vector<std::string>& lines, size_t& from, const std::string& first,
                            const std::string& last) {
  size_t b = from;
  while (b < lines.size() && lines[b] != first) ++b;
  size_t e = b;
  while (e < lines.size() && lines[e] != last) ++e;
  EXPECT_LT(e, lines.size()) << "seed lines not found: " << first << " ... " << last;
  std::string code;
  for (size_t i = b; i <= e && i < lines.size(); ++i) code += lines[i] + "\n";
  from = e + 1;
  return code;
}

}  // namespace tilescope::viz::testing
