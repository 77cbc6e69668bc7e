#pragma once
#include <QFrame>

#include "core/notebook/Notebook.h"

class QsciScintilla;
class QLabel;

namespace tilescope::ui {

// A code cell: a Python editor (QScintilla) with its execution counter and outputs below.
class CodeCellWidget : public QFrame {
  Q_OBJECT
public:
  explicit CodeCellWidget(const notebook::Cell& cell, QWidget* parent = nullptr);
  QString source() const;
  QsciScintilla* editor() const { return editor_; }

private:
  void fitHeightToText();

  QsciScintilla* editor_;
  QLabel* prompt_;
  QLabel* outputs_;
};

}  // namespace tilescope::ui
