#include "ui/TracebackLink.h"

#include <QRegularExpression>
#include <QStringList>

namespace tilescope::ui {
namespace {
// "Cell [3], line 2, column 5" or "Cell 4, line 2, column 5" at the start of a line.
const QRegularExpression& locationPattern() {
  static const QRegularExpression pattern(QStringLiteral(R"(^Cell (?:\[(\d+)\]|(\d+)), line (\d+), column (\d+))"));
  return pattern;
}
}  // namespace

QString TracebackLink::href() const {
  return QStringLiteral("%1:%2%3/%4/%5")
      .arg(QLatin1String(kScheme), by == CellBy::ExecutionCount ? QStringLiteral("count") : QStringLiteral("position"))
      .arg(cell)
      .arg(line)
      .arg(column);
}

std::optional<TracebackLink> TracebackLink::parse(const QString& href) {
  static const QRegularExpression pattern(QStringLiteral(R"(^tilescope-cell:(count|position)(\d+)/(\d+)/(\d+)$)"));
  const QRegularExpressionMatch m = pattern.match(href);
  if (!m.hasMatch()) return std::nullopt;
  TracebackLink link;
  link.by = m.captured(1) == QLatin1String("count") ? CellBy::ExecutionCount : CellBy::Position;
  link.cell = m.captured(2).toInt();
  link.line = m.captured(3).toInt();
  link.column = m.captured(4).toInt();
  if (link.cell <= 0 || link.line <= 0) return std::nullopt;
  return link;
}

std::optional<TracebackLink> TracebackLink::fromTracebackLine(const QString& line) {
  const QRegularExpressionMatch m = locationPattern().match(line);
  if (!m.hasMatch()) return std::nullopt;
  TracebackLink link;
  link.by = m.hasCaptured(1) && !m.captured(1).isEmpty() ? CellBy::ExecutionCount : CellBy::Position;
  link.cell = (link.by == CellBy::ExecutionCount ? m.captured(1) : m.captured(2)).toInt();
  link.line = m.captured(3).toInt();
  link.column = m.captured(4).toInt();
  if (link.cell <= 0 || link.line <= 0) return std::nullopt;
  return link;
}

QString TracebackLink::linkify(const QString& plainText) {
  QStringList lines;
  for (const QString& line : plainText.split(QLatin1Char('\n'))) {
    const QRegularExpressionMatch m = locationPattern().match(line);
    const std::optional<TracebackLink> link = fromTracebackLine(line);
    if (!link) {
      lines << line.toHtmlEscaped();
      continue;
    }
    const qsizetype end = m.capturedEnd(0);
    lines << QStringLiteral("<a href=\"%1\">%2</a>%3")
                 .arg(link->href(), line.left(end).toHtmlEscaped(), line.mid(end).toHtmlEscaped());
  }
  // pre-wrap keeps the spaces of aligned text and still wraps long lines, as Jupyter does.
  return QStringLiteral("<div style=\"white-space: pre-wrap;\">%1</div>").arg(lines.join(QStringLiteral("<br>")));
}

}  // namespace tilescope::ui
