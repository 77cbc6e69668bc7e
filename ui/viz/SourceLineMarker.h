#pragma once
// Highlights the source line of the inspector's current memory operation in the code cell that
// holds it (a background marker of its own, so diagnostics keep theirs), and removes it from the
// cell it marked before.
#include <QObject>
#include <QPointer>

namespace tilescope::ui {

class CodeEditor;
class NotebookView;

class SourceLineMarker : public QObject {
  Q_OBJECT
public:
  explicit SourceLineMarker(NotebookView* view, QObject* parent = nullptr);
  // file: "<cell:ID>" (anything else - a kernel from an imported file - is not in the notebook).
  void show(const QString& file, int line);
  // The editor and 1-based line marked now (null, 0 when none), for tests.
  CodeEditor* markedEditor() const { return editor_; }
  int markedLine() const { return line_; }
  int markerNumber() const { return marker_; }

private:
  void clear();
  NotebookView* view_;
  QPointer<CodeEditor> editor_;
  int marker_ = -1;
  int line_ = 0;
};

}  // namespace tilescope::ui
