#pragma once
// Markdown source prepared for Qt's renderer (QTextDocument::setMarkdown, GitHub dialect). Math is
// shown as the plain text the author typed: inside $...$ and $$...$$ the characters markdown would
// treat as emphasis, escapes or HTML are escaped, so "$a_i * b_j$" does not turn into italics.
#include <QString>

namespace tilescope::ui {

QString markdownWithLiteralMath(const QString& source);

}  // namespace tilescope::ui
