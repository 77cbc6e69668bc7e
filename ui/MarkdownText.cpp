#include "ui/MarkdownText.h"

#include <QStringList>

namespace tilescope::ui {
namespace {
bool isMarkdownSpecial(QChar c) {
  static const QString specials = QStringLiteral("\\`*_{}[]<>()#+-.!|~");
  return specials.contains(c);
}

QString escapedMath(QStringView math) {
  QString out;
  out.reserve(math.size() * 2);
  for (QChar c : math) {
    if (isMarkdownSpecial(c)) out += '\\';
    out += c;
  }
  return out;
}

// One line outside code blocks: escape the inside of $...$ spans, leave code spans alone.
QString protectInlineMath(const QString& line) {
  QString out;
  qsizetype i = 0;
  while (i < line.size()) {
    const QChar c = line[i];
    if (c == '`') {  // a code span: copy through its closing run of backticks
      qsizetype run = 0;
      while (i + run < line.size() && line[i + run] == '`') ++run;
      const QString fence(run, '`');
      const qsizetype close = line.indexOf(fence, i + run);
      const qsizetype end = close < 0 ? line.size() : close + run;
      out += line.mid(i, end - i);
      i = end;
    } else if (c == '\\' && i + 1 < line.size()) {  // an escaped character, e.g. \$ for a dollar sign
      out += line.mid(i, 2);
      i += 2;
    } else if (c == '$') {
      const bool display = i + 1 < line.size() && line[i + 1] == '$';
      const QString delimiter = display ? QStringLiteral("$$") : QStringLiteral("$");
      const qsizetype close = line.indexOf(delimiter, i + delimiter.size());
      if (close < 0 || close == i + delimiter.size()) {
        out += c;
        ++i;
        continue;
      }
      out += delimiter + escapedMath(QStringView(line).mid(i + delimiter.size(), close - i - delimiter.size())) +
             delimiter;
      i = close + delimiter.size();
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}
}  // namespace

QString markdownWithLiteralMath(const QString& source) {
  const QStringList lines = source.split('\n');
  QStringList out;
  bool inFence = false;
  bool inDisplayMath = false;
  for (const QString& line : lines) {
    const QString trimmed = line.trimmed();
    if (!inDisplayMath && (trimmed.startsWith(QLatin1String("```")) || trimmed.startsWith(QLatin1String("~~~")))) {
      inFence = !inFence;
      out << line;
    } else if (inFence) {
      out << line;
    } else if (trimmed == QLatin1String("$$")) {  // a display-math block over several lines
      inDisplayMath = !inDisplayMath;
      out << line;
    } else if (inDisplayMath) {
      out << escapedMath(line);
    } else {
      out << protectInlineMath(line);
    }
  }
  return out.join('\n');
}

}  // namespace tilescope::ui
