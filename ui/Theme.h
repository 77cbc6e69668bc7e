#pragma once
// Colours of the light and dark themes, and the fonts in use (Appearance). Widgets read these when
// created and when the user changes preferences or presentation mode; nothing else holds colours.
#include <QColor>
#include <QFont>
#include <QString>

class QApplication;
class QPalette;

namespace tilescope::ui {

struct Theme {
  QString name;  // "light" or "dark"
  bool dark = false;
  QColor window, cellBackground, text, mutedText, border, link;
  QColor commandModeBar, editModeBar, selectedCellBackground;
  QColor editorPaper, editorText, caret, selection, marginPaper, marginText, indentGuide, braceMatch;
  QColor keyword, string, comment, number, decorator, definition, operatorColor;
  QColor promptIn, promptOut;
  QColor errorBackground, errorText, warningBackground, warningText, infoBackground, stderrBackground;
  QColor noticeBackground, noticeText;

  static Theme lightTheme();
  static Theme darkTheme();
  static Theme named(const QString& name);  // unknown names give the light theme
  QPalette palette() const;
  void applyTo(QApplication& app) const;  // Fusion style and this palette
};

// A fixed-pitch font at this size, as QFontInfo confirms: the given family if it is one, else the
// system's fixed-width font if it is one, else the first installed of a list of known monospace families.
QFont monospaceFont(double pointSize, const QString& family = {});

struct Appearance {
  Theme theme = Theme::lightTheme();
  QFont editorFont = monospaceFont(11);  // code and markdown source
  QFont outputFont = monospaceFont(10);  // stream and text outputs
  QFont markdownFont;  // rendered markdown
  bool presentation = false;
};

}  // namespace tilescope::ui
