#include "ui/InspectorLink.h"

#include <QStringList>
#include <QUrlQuery>

namespace tilescope::ui {

std::optional<InspectorLink> InspectorLink::parse(const QUrl& url) {
  if (url.scheme() != QLatin1String(kScheme) || url.path() != QLatin1String("inspect")) return std::nullopt;
  const QUrlQuery query(url);
  InspectorLink link;
  link.kernel = query.queryItemValue(QStringLiteral("kernel"), QUrl::FullyDecoded);
  if (link.kernel.isEmpty()) return std::nullopt;
  link.tab = query.queryItemValue(QStringLiteral("tab"));
  const QString pid = query.queryItemValue(QStringLiteral("pid"));
  if (!pid.isEmpty()) {
    const QStringList parts = pid.split(QLatin1Char(','));
    if (parts.size() > 3) return std::nullopt;
    std::array<int64_t, 3> program{0, 0, 0};
    for (int i = 0; i < parts.size(); ++i) {
      bool ok = false;
      program[static_cast<size_t>(i)] = parts[i].trimmed().toLongLong(&ok);
      if (!ok || program[static_cast<size_t>(i)] < 0) return std::nullopt;
    }
    link.program = program;
  }
  return link;
}

}  // namespace tilescope::ui
