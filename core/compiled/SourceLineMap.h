#pragma once
// Which source line each line of a compiled-code pane came from (the IR after a pass, the CUDA C++,
// the PTX, the SASS), and the reverse: every pane line a source line became. The Compiled view
// highlights through it and `tilescope-cli compile --emit map` prints it as JSON.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace tilescope::compiled {

struct SourceLine {
  std::string file;  // the SourceFile's name: "<cell:ID>", "nb.ipynb[3]", "kernel.py"
  int line = 0;      // 1-based; 0 means "no source line"
  bool valid() const { return line > 0; }
  friend bool operator<(const SourceLine& a, const SourceLine& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  }
  friend bool operator==(const SourceLine& a, const SourceLine& b) { return a.file == b.file && a.line == b.line; }
};

enum class Pane { Ir, Cuda, Ptx, Sass };
const char* paneName(Pane pane);  // "ir", "cuda", "ptx", "sass"

class SourceLineMap {
public:
  // perLine[i] is the source line of the pane's line i + 1 (invalid where none).
  void setPane(Pane pane, std::vector<SourceLine> perLine);
  bool hasPane(Pane pane) const { return panes_.count(pane) != 0; }

  // The pane's 1-based lines that came from `source`, ascending.
  std::vector<int> linesFor(Pane pane, const SourceLine& source) const;
  // The source line of the pane's 1-based `line`, when it has one.
  std::optional<SourceLine> sourceOf(Pane pane, int line) const;
  // Every source line that some pane line came from, ascending.
  std::vector<SourceLine> sourceLines() const;

  // {"sources": [{"file": F, "line": L, "cuda": [..], "ptx": [..], ...}, ...]}: one entry per source
  // line, with the 1-based lines of each pane present.
  nlohmann::json toJson() const;

private:
  std::map<Pane, std::vector<SourceLine>> panes_;
};

}  // namespace tilescope::compiled
