#pragma once
// A piece of source text (a .py file, or one notebook cell) and the ranges that point into it.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::lang {

struct LineColumn {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, counted in bytes like clang
};

class SourceFile {
public:
  // firstLine lets a notebook cell report lines of the cell while naming the notebook.
  SourceFile(std::string name, std::string text, int firstLine = 1);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  int firstLine() const { return firstLine_; }
  LineColumn lineColumn(uint32_t offset) const;
  // Text of a line (as reported by lineColumn), without its newline.
  std::string_view lineText(int line) const;
  int lineCount() const { return static_cast<int>(lineStarts_.size()); }

private:
  std::string name_;
  std::string text_;
  int firstLine_;
  std::vector<uint32_t> lineStarts_;
};

using SourceFilePtr = std::shared_ptr<const SourceFile>;

// Half-open byte range [begin, end) in one file. Every token, AST node and IR node carries one.
struct SourceRange {
  const SourceFile* file = nullptr;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool valid() const { return file != nullptr; }
  LineColumn start() const { return file ? file->lineColumn(begin) : LineColumn{}; }
  // "file:line:col", or "<unknown>" for ranges without a file.
  std::string str() const;
  std::string_view text() const;
  static SourceRange merge(const SourceRange& a, const SourceRange& b);
};

}  // namespace tilescope::lang
