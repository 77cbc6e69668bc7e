#pragma once
// A link in a cell's output that opens the kernel inspector on one of the cell's launches:
// "tilescope:inspect?kernel=NAME&tab=grid|tiles|coverage&pid=X,Y,Z" (tab and pid optional). tilescope.check
// (resources/python/tilescope/checking.py) writes one under a failed exercise: the program that made
// an invalid access, or the coverage of a launch whose results differ. The inspector picks the cell's
// last launch of that kernel.
#include <QString>
#include <QUrl>
#include <array>
#include <cstdint>
#include <optional>

namespace tilescope::ui {

struct InspectorLink {
  QString kernel;
  QString tab;                                   // "grid", "tiles", "coverage", ... or empty
  std::optional<std::array<int64_t, 3>> program;  // missing axes are 0

  static constexpr const char* kScheme = "tilescope";
  // Null when the URL is not an inspector link or names no kernel.
  static std::optional<InspectorLink> parse(const QUrl& url);
};

}  // namespace tilescope::ui
