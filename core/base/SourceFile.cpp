#include "core/base/SourceFile.h"

#include <algorithm>

namespace tilescope::lang {

SourceFile::SourceFile(std::string name, std::string text, int firstLine)
    : name_(std::move(name)), text_(std::move(text)), firstLine_(firstLine) {
  lineStarts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') lineStarts_.push_back(i + 1);
  }
}

LineColumn SourceFile::lineColumn(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  const auto index = static_cast<int>(it - lineStarts_.begin()) - 1;
  return {index + firstLine_, static_cast<int>(offset - lineStarts_[index]) + 1};
}

std::string_view SourceFile::lineText(int line) const {
  const int index = line - firstLine_;
  if (index < 0 || index >= lineCount()) return {};
  const uint32_t begin = lineStarts_[index];
  uint32_t end = index + 1 < lineCount() ? lineStarts_[index + 1] : static_cast<uint32_t>(text_.size());
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::string SourceRange::str() const {
  if (!file) return "<unknown>";
  const LineColumn lc = start();
  return file->name() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
}

std::string_view SourceRange::text() const {
  if (!file || end < begin || end > file->text().size()) return {};
  return std::string_view(file->text()).substr(begin, end - begin);
}

SourceRange SourceRange::merge(const SourceRange& a, const SourceRange& b) {
  if (!a.valid()) return b;
  if (!b.valid() || a.file != b.file) return a;
  return {a.file, std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

}  // namespace tilescope::lang
