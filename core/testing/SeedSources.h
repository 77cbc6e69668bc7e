#pragma once
// Code of the seed tutorials (../shared/seeds/*.md) as parseable pieces. Shared by tests and
// benchmarks, so it depends on nothing but the standard library.
#include <string>
#include <vector>

namespace tilescope::seeds {

// Code of a seed tutorial: every ```python block, and - outside the fences - every top-level
// decorated or plain `def` with its body (the guide's notebook export lost the fences around
// its later cells). Pieces keep their line numbers so diagnostics point into the .md file.
struct SeedPiece {
  int firstLine = 1;
  std::string code;
};

inline std::vector<SeedPiece> seedPieces(const std::string& markdown) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos <= markdown.size()) {
    size_t nl = markdown.find('\n', pos);
    if (nl == std::string::npos) nl = markdown.size();
    lines.push_back(markdown.substr(pos, nl - pos));
    pos = nl + 1;
  }
  std::vector<SeedPiece> pieces;
  auto indented = [](const std::string& l) { return !l.empty() && (l[0] == ' ' || l[0] == '\t'); };
  auto blank = [](const std::string& l) { return l.find_first_not_of(" \t\r") == std::string::npos; };
  size_t i = 0;
  while (i < lines.size()) {
    const std::string& l = lines[i];
    if (l.rfind("```python", 0) == 0) {
      SeedPiece p;
      p.firstLine = static_cast<int>(i) + 2;
      for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) p.code += lines[i] + "\n";
      pieces.push_back(std::move(p));
      ++i;
      continue;
    }
    if (l.rfind("```", 0) == 0) {  // another language: skip to its end
      for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) {
      }
      ++i;
      continue;
    }
    if (l.rfind("@triton.", 0) == 0 || l.rfind("def ", 0) == 0) {
      SeedPiece p;
      p.firstLine = static_cast<int>(i) + 1;
      int depth = 0;
      bool inDef = false, headerDone = false;
      for (; i < lines.size(); ++i) {
        const std::string& cur = lines[i];
        if (headerDone && !blank(cur) && !indented(cur)) break;
        p.code += cur + "\n";
        if (cur.rfind("def ", 0) == 0) inDef = true;
        for (char c : cur) {
          if (c == '#') break;
          if (c == '(' || c == '[' || c == '{') ++depth;
          if (c == ')' || c == ']' || c == '}') --depth;
        }
        if (inDef && depth == 0) headerDone = true;
      }
      pieces.push_back(std::move(p));
      continue;
    }
    ++i;
  }
  return pieces;
}

}  // namespace tilescope::seeds
