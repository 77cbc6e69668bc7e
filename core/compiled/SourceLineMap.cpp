#include "core/compiled/SourceLineMap.h"

#include <set>

#include <nlohmann/json.hpp>

namespace tilescope::compiled {

const char* paneName(Pane pane) {
  switch (pane) {
    case Pane::Ir: return "ir";
    case Pane::Cuda: return "cuda";
    case Pane::Ptx: return "ptx";
    case Pane::Sass: return "sass";
  }
  return "?";
}

void SourceLineMap::setPane(Pane pane, std::vector<SourceLine> perLine) { panes_[pane] = std::move(perLine); }

std::vector<int> SourceLineMap::linesFor(Pane pane, const SourceLine& source) const {
  std::vector<int> out;
  const auto it = panes_.find(pane);
  if (it == panes_.end() || !source.valid()) return out;
  for (size_t i = 0; i < it->second.size(); ++i)
    if (it->second[i] == source) out.push_back(static_cast<int>(i) + 1);
  return out;
}

std::optional<SourceLine> SourceLineMap::sourceOf(Pane pane, int line) const {
  const auto it = panes_.find(pane);
  if (it == panes_.end() || line < 1 || static_cast<size_t>(line) > it->second.size()) return std::nullopt;
  const SourceLine& s = it->second[static_cast<size_t>(line) - 1];
  if (!s.valid()) return std::nullopt;
  return s;
}

std::vector<SourceLine> SourceLineMap::sourceLines() const {
  std::set<SourceLine> all;
  for (const auto& [pane, lines] : panes_)
    for (const SourceLine& s : lines)
      if (s.valid()) all.insert(s);
  return {all.begin(), all.end()};
}

nlohmann::json SourceLineMap::toJson() const {
  // One pass per pane collects each source line's pane lines (linesFor per line would be quadratic).
  std::map<SourceLine, std::map<Pane, std::vector<int>>> bySource;
  for (const auto& [pane, lines] : panes_)
    for (size_t i = 0; i < lines.size(); ++i)
      if (lines[i].valid()) bySource[lines[i]][pane].push_back(static_cast<int>(i) + 1);
  nlohmann::json sources = nlohmann::json::array();
  for (const auto& [source, panes] : bySource) {
    nlohmann::json entry = {{"file", source.file}, {"line", source.line}};
    for (const auto& [pane, lines] : panes_) entry[paneName(pane)] = nlohmann::json::array();
    for (const auto& [pane, lines] : panes) entry[paneName(pane)] = lines;
    sources.push_back(std::move(entry));
  }
  return {{"sources", std::move(sources)}};
}

}  // namespace tilescope::compiled
