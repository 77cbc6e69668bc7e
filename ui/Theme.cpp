#include "ui/Theme.h"

#include <QApplication>
#include <QFontDatabase>
#include <QFontInfo>
#include <QPalette>
#include <QStyleFactory>

namespace tilescope::ui {

Theme Theme::lightTheme() {
  Theme t;
  t.name = QStringLiteral("light");
  t.dark = false;
  t.window = QColor(0xfa, 0xfa, 0xfa);
  t.cellBackground = Qt::white;
  t.text = QColor(0x21, 0x21, 0x21);
  t.mutedText = QColor(0x75, 0x75, 0x75);
  t.border = QColor(0xe0, 0xe0, 0xe0);
  t.link = QColor(0x15, 0x65, 0xc0);
  t.commandModeBar = QColor(0x19, 0x76, 0xd2);
  t.editModeBar = QColor(0x38, 0x8e, 0x3c);
  t.selectedCellBackground = QColor(0xf3, 0xf8, 0xfe);
  t.editorPaper = QColor(0xf5, 0xf5, 0xf5);
  t.editorText = QColor(0x21, 0x21, 0x21);
  t.caret = QColor(0x00, 0x00, 0x00);
  t.selection = QColor(0xbb, 0xde, 0xfb);
  t.marginPaper = QColor(0xee, 0xee, 0xee);
  t.marginText = QColor(0x9e, 0x9e, 0x9e);
  t.indentGuide = QColor(0xd0, 0xd0, 0xd0);
  t.braceMatch = QColor(0xc8, 0xe6, 0xc9);
  t.keyword = QColor(0x00, 0x80, 0x00);
  t.string = QColor(0xba, 0x21, 0x21);
  t.comment = QColor(0x40, 0x80, 0x80);
  t.number = QColor(0x08, 0x80, 0x80);
  t.decorator = QColor(0xaa, 0x22, 0xff);
  t.definition = QColor(0x00, 0x00, 0xff);
  t.operatorColor = QColor(0xaa, 0x22, 0xff);
  t.promptIn = QColor(0x30, 0x3f, 0x9f);
  t.promptOut = QColor(0xd8, 0x43, 0x15);
  t.errorBackground = QColor(0xff, 0xeb, 0xee);
  t.errorText = QColor(0xb7, 0x1c, 0x1c);
  t.warningBackground = QColor(0xff, 0xf8, 0xe1);
  t.warningText = QColor(0x8d, 0x5b, 0x00);
  t.infoBackground = QColor(0xe3, 0xf2, 0xfd);
  t.stderrBackground = QColor(0xff, 0xf3, 0xf3);
  t.noticeBackground = QColor(0xff, 0xf3, 0xe0);
  t.noticeText = QColor(0x5d, 0x40, 0x37);
  return t;
}

Theme Theme::darkTheme() {
  Theme t;
  t.name = QStringLiteral("dark");
  t.dark = true;
  t.window = QColor(0x1e, 0x1e, 0x1e);
  t.cellBackground = QColor(0x25, 0x25, 0x26);
  t.text = QColor(0xd4, 0xd4, 0xd4);
  t.mutedText = QColor(0x85, 0x85, 0x85);
  t.border = QColor(0x3c, 0x3c, 0x3c);
  t.link = QColor(0x4f, 0xc1, 0xff);
  t.commandModeBar = QColor(0x3a, 0x96, 0xdd);
  t.editModeBar = QColor(0x4c, 0xaf, 0x50);
  t.selectedCellBackground = QColor(0x2a, 0x2d, 0x2e);
  t.editorPaper = QColor(0x1b, 0x1b, 0x1c);
  t.editorText = QColor(0xd4, 0xd4, 0xd4);
  t.caret = QColor(0xae, 0xaf, 0xad);
  t.selection = QColor(0x26, 0x4f, 0x78);
  t.marginPaper = QColor(0x1b, 0x1b, 0x1c);
  t.marginText = QColor(0x6e, 0x76, 0x81);
  t.indentGuide = QColor(0x40, 0x40, 0x40);
  t.braceMatch = QColor(0x3b, 0x51, 0x4d);
  t.keyword = QColor(0x56, 0x9c, 0xd6);
  t.string = QColor(0xce, 0x91, 0x78);
  t.comment = QColor(0x6a, 0x99, 0x55);
  t.number = QColor(0xb5, 0xce, 0xa8);
  t.decorator = QColor(0xc5, 0x86, 0xc0);
  t.definition = QColor(0xdc, 0xdc, 0xaa);
  t.operatorColor = QColor(0xd4, 0xd4, 0xd4);
  t.promptIn = QColor(0x8c, 0x9e, 0xff);
  t.promptOut = QColor(0xff, 0x8a, 0x65);
  t.errorBackground = QColor(0x4b, 0x1e, 0x1e);
  t.errorText = QColor(0xff, 0x8a, 0x80);
  t.warningBackground = QColor(0x4a, 0x3b, 0x12);
  t.warningText = QColor(0xff, 0xd5, 0x4f);
  t.infoBackground = QColor(0x1a, 0x36, 0x4d);
  t.stderrBackground = QColor(0x3a, 0x22, 0x22);
  t.noticeBackground = QColor(0x4a, 0x3b, 0x12);
  t.noticeText = QColor(0xff, 0xe0, 0xb2);
  return t;
}

namespace {
// Tried in order when neither the chosen family nor the system's fixed font is really fixed-pitch.
// fontconfig marks some "mono" families as dual-width (Noto Sans Mono, the usual system fixed font
// once fonts-noto-mono is installed), and tables printed in them do not line up.
const char* const kKnownMonospaceFamilies[] = {
    "DejaVu Sans Mono", "Liberation Mono", "Noto Mono",     "Ubuntu Mono", "Source Code Pro",
    "Fira Mono",        "Hack",            "Cascadia Mono", "Menlo",       "Consolas",
    "Courier New",      "Nimbus Mono PS",  "FreeMono",      "Courier"};

QFont withFamily(QFont font, const QString& family) {
  font.setFamily(family);
  return font;
}
}  // namespace

QFont monospaceFont(double pointSize, const QString& family) {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  font.setStyleHint(QFont::Monospace);
  font.setPointSizeF(pointSize);
  // QFontInfo tells what the font database really resolved the request to.
  if (!family.isEmpty() && QFontInfo(withFamily(font, family)).fixedPitch()) return withFamily(font, family);
  if (QFontInfo(font).fixedPitch()) return font;
  for (const char* known : kKnownMonospaceFamilies) {
    const QString name = QString::fromLatin1(known);
    if (!QFontDatabase::hasFamily(name)) continue;
    const QFont candidate = withFamily(font, name);
    if (QFontInfo(candidate).fixedPitch()) return candidate;
  }
  return font;  // no fixed-pitch family installed: the closest the system has
}

Theme Theme::named(const QString& name) { return name == QLatin1String("dark") ? darkTheme() : lightTheme(); }

QPalette Theme::palette() const {
  QPalette p;
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, cellBackground);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, dark ? QColor(0x33, 0x33, 0x33) : QColor(0xf0, 0xf0, 0xf0));
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::Highlight, selection);
  p.setColor(QPalette::HighlightedText, text);
  p.setColor(QPalette::ToolTipBase, cellBackground);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, mutedText);
  p.setColor(QPalette::Link, link);
  p.setColor(QPalette::Disabled, QPalette::Text, mutedText);
  p.setColor(QPalette::Disabled, QPalette::ButtonText, mutedText);
  p.setColor(QPalette::Disabled, QPalette::WindowText, mutedText);
  return p;
}

void Theme::applyTo(QApplication& app) const {
  // Fusion looks the same everywhere and follows the palette fully, which the dark theme needs.
  if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) app.setStyle(fusion);
  app.setPalette(palette());
}

}  // namespace tilescope::ui
