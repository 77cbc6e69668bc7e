#include "core/compiled/LineInfo.h"

#include <cctype>
#include <cstdlib>
#include <string_view>

namespace tilescope::compiled {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A C string literal starting at s[at] == '"': its text; `at` moves past the closing quote.
std::string readQuoted(std::string_view s, size_t& at) {
  std::string out;
  if (at >= s.size() || s[at] != '"') return out;
  for (++at; at < s.size() && s[at] != '"'; ++at) {
    if (s[at] == '\\' && at + 1 < s.size()) {
      ++at;
      out += s[at] == 'n' ? '\n' : s[at] == 't' ? '\t' : s[at];
    } else {
      out += s[at];
    }
  }
  if (at < s.size()) ++at;
  return out;
}

int readInt(std::string_view s, size_t& at) {
  while (at < s.size() && (s[at] == ' ' || s[at] == '\t')) ++at;
  int v = 0;
  bool any = false;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
    v = v * 10 + (s[at++] - '0');
    any = true;
  }
  return any ? v : -1;
}

bool mapsToSource(int line, const std::vector<SourceLine>& sourceOfCuda) {
  return line > 0 && static_cast<size_t>(line) <= sourceOfCuda.size() && sourceOfCuda[static_cast<size_t>(line) - 1].valid();
}

// The CUDA line to credit: `line` when it came from a source line, else the line it was inlined at.
int creditedLine(int line, int inlinedAt, const std::vector<SourceLine>& sourceOfCuda) {
  auto mapped = [&](int l) { return mapsToSource(l, sourceOfCuda); };
  if (mapped(line)) return line;
  if (mapped(inlinedAt)) return inlinedAt;
  return line > 0 ? line : 0;
}

}  // namespace

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

std::vector<SourceLine> cudaSourceLines(const std::string& cuda) {
  std::vector<SourceLine> out;
  SourceLine current;
  for (const std::string& l : splitLines(cuda)) {
    if (startsWith(l, "#line ")) {
      size_t at = 6;
      const int line = readInt(l, at);
      while (at < l.size() && l[at] == ' ') ++at;
      current = SourceLine{readQuoted(l, at), line > 0 ? line : 0};
      out.push_back({});
      continue;
    }
    out.push_back(current);
  }
  return out;
}

std::string withoutLineDirectives(const std::string& cuda) {
  std::string out;
  out.reserve(cuda.size());
  for (const std::string& l : splitLines(cuda)) {
    if (!startsWith(l, "#line ")) out += l;
    out += '\n';
  }
  return out;
}

std::vector<int> ptxCudaLines(const std::string& ptx, const std::string& cudaFileName,
                              const std::vector<SourceLine>& sourceOfCuda) {
  const std::vector<std::string> lines = splitLines(ptx);
  // .file 1 "/path/kernel.cu": which file numbers are the CUDA text.
  std::vector<int> ours;
  for (const std::string& raw : lines) {
    const std::string_view l = trimmed(raw);
    if (!startsWith(l, ".file")) continue;
    size_t at = 5;
    const int number = readInt(l, at);
    while (at < l.size() && l[at] != '"') ++at;
    const std::string name = readQuoted(l, at);
    if (number >= 0 && endsWith(name, cudaFileName)) ours.push_back(number);
  }
  auto isOurs = [&](int file) {
    for (int f : ours)
      if (f == file) return true;
    return false;
  };
  std::vector<int> out(lines.size(), 0);
  int current = 0;
  bool inlineAsm = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view l = trimmed(lines[i]);
    if (startsWith(l, ".loc")) {
      // .loc FILE LINE COL[, function_name $L__info_string0, inlined_at FILE LINE COL]
      size_t at = 4;
      const int file = readInt(l, at);
      const int line = readInt(l, at);
      int inlinedAt = 0;
      if (const size_t in = l.find("inlined_at"); in != std::string_view::npos) {
        size_t p = in + 10;
        const int inFile = readInt(l, p);
        const int inLine = readInt(l, p);
        if (isOurs(inFile)) inlinedAt = inLine;
      }
      // A helper inlined into a helper (the prelude's ts_vld inside ts_vec_load) names only prelude
      // lines: it belongs to the statement whose line came last.
      const int credited = creditedLine(isOurs(file) ? line : 0, inlinedAt, sourceOfCuda);
      const bool inlined = l.find("inlined_at") != std::string_view::npos;
      current = mapsToSource(credited, sourceOfCuda) || !inlined ? credited : current;
      continue;
    }
    if (startsWith(l, "// begin inline asm")) inlineAsm = true;
    if (startsWith(l, "// end inline asm")) inlineAsm = false;
    if (l.empty() || l.front() == '.' || startsWith(l, "//") || l == "{" || l == "}" || l == ")" || l == "(") {
      // A function's end: the next one starts without a location. (An inline asm block's own braces
      // end nothing.)
      if (l == "}" && !inlineAsm) current = 0;
      continue;
    }
    out[i] = current;
  }
  return out;
}

std::vector<int> sassCudaLines(const std::string& sass, const std::string& cudaFileName,
                               const std::vector<SourceLine>& sourceOfCuda) {
  const std::vector<std::string> lines = splitLines(sass);
  std::vector<int> out(lines.size(), 0);
  int current = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view l = trimmed(lines[i]);
    if (startsWith(l, "//## File ")) {
      // //## File "kernel.cu", line 12[ inlined at "kernel.cu", line 40]
      size_t at = 10;
      const std::string name = readQuoted(l, at);
      const size_t lineAt = l.find("line ", at);
      size_t p = lineAt == std::string_view::npos ? l.size() : lineAt + 5;
      const int line = endsWith(name, cudaFileName) ? readInt(l, p) : 0;
      int inlinedAt = 0;
      if (const size_t in = l.find("inlined at ", p); in != std::string_view::npos) {
        size_t q = in + 11;
        const std::string inName = readQuoted(l, q);
        const size_t inLineAt = l.find("line ", q);
        size_t r = inLineAt == std::string_view::npos ? l.size() : inLineAt + 5;
        if (endsWith(inName, cudaFileName)) inlinedAt = readInt(l, r);
      }
      const int credited = creditedLine(line, inlinedAt, sourceOfCuda);
      const bool inlined = l.find("inlined at ") != std::string_view::npos;
      current = mapsToSource(credited, sourceOfCuda) || !inlined ? credited : current;
      continue;
    }
    // Instructions: "/*0040*/  IMAD ..."; headers, labels and directives get no line.
    if (startsWith(l, "/*")) out[i] = current;
  }
  return out;
}

std::vector<SourceLine> throughCuda(const std::vector<int>& cudaLines, const std::vector<SourceLine>& sourceOfCuda) {
  std::vector<SourceLine> out(cudaLines.size());
  for (size_t i = 0; i < cudaLines.size(); ++i) {
    const int c = cudaLines[i];
    if (c > 0 && static_cast<size_t>(c) <= sourceOfCuda.size()) out[i] = sourceOfCuda[static_cast<size_t>(c) - 1];
  }
  return out;
}

std::vector<SourceLine> takeIrLocations(std::string& text) {
  std::vector<SourceLine> out;
  std::string stripped;
  stripped.reserve(text.size());
  for (const std::string& l : splitLines(text)) {
    SourceLine source;
    const size_t at = l.rfind("  loc(\"");
    if (at != std::string::npos) {
      size_t p = at + 6;
      source.file = readQuoted(l, p);
      if (p < l.size() && l[p] == ':') {
        ++p;
        const int line = readInt(l, p);
        source.line = line > 0 ? line : 0;
      }
      stripped.append(l, 0, at);
    } else {
      stripped += l;
    }
    stripped += '\n';
    out.push_back(std::move(source));
  }
  text = std::move(stripped);
  return out;
}

}  // namespace tilescope::compiled
