#include "ui/viz/SourceLineMarker.h"

#include "ui/CodeEditor.h"
#include "ui/NotebookView.h"
#include "ui/CellWidget.h"

namespace tilescope::ui {

namespace {
// QScintilla has 32 marker numbers; the editor's own diagnostic markers take the first ones.
constexpr int kInspectorMarker = 20;
}  // namespace

SourceLineMarker::SourceLineMarker(NotebookView* view, QObject* parent) : QObject(parent), view_(view) {}

void SourceLineMarker::clear() {
  if (editor_ && marker_ >= 0) editor_->markerDeleteAll(marker_);
  editor_ = nullptr;
  line_ = 0;
}

void SourceLineMarker::show(const QString& file, int line) {
  clear();
  static const QString prefix = QStringLiteral("<cell:");
  if (!file.startsWith(prefix) || !file.endsWith(QLatin1Char('>')) || line < 1) return;
  const QString cellId = file.mid(prefix.size(), file.size() - prefix.size() - 1);
  CellWidget* cell = view_->cellWidget(cellId);
  if (!cell || !cell->editor()) return;
  CodeEditor* editor = cell->editor();
  marker_ = editor->markerDefine(QsciScintilla::Background, kInspectorMarker);
  editor->setMarkerBackgroundColor(QColor(255, 200, 120), marker_);
  editor->markerAdd(line - 1, marker_);
  editor_ = editor;
  line_ = line;
}

}  // namespace tilescope::ui
