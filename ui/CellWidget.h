#pragma once
// Base of the widgets that show one notebook cell: the selection bar (blue in command mode, green in
// edit mode, as in Jupyter), the editor, and the link back to the model by cell id.
#include <QFrame>

#include "core/notebook/Notebook.h"
#include "ui/CodeEditor.h"
#include "ui/Theme.h"

namespace tilescope::ui {

class CellWidget : public QFrame {
  Q_OBJECT
public:
  CellWidget(QString cellId, QWidget* parent);

  const QString& cellId() const { return cellId_; }
  virtual notebook::CellType cellType() const = 0;
  CodeEditor* editor() const { return editor_; }
  QString source() const { return editor_->text(); }

  // Shows the model's text unless the editor already holds it (the usual case: the edit came from here).
  void setSourceFromModel(const QString& source);
  virtual void enterEditMode();
  void setSelected(bool selected, bool editing);
  bool isSelected() const { return selected_; }
  virtual void setAppearance(const Appearance& appearance);
  void showDiagnostic(int line, int column, const QString& message, DiagnosticSeverity severity);

  // A cell tells the notebook a fixed height, measured again only when its width or its contents
  // change. Were it height-for-width (wrapped outputs are), every layout pass of the notebook would
  // measure every cell's text anew: a Run all of n cells would cost n passes over n cells.
  bool hasHeightForWidth() const override { return false; }

signals:
  void sourceEdited(const QString& cellId);
  // The user clicked the cell (forEditing false) or put the cursor into its editor (true).
  void activated(const QString& cellId, bool forEditing);

protected:
  // Subclasses create their editor in their constructor and hand it over here.
  void adoptEditor(CodeEditor* editor);
  void fitEditorHeight();
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

  Appearance appearance_;
  static constexpr int kSelectionBarWidth = 5;

private:
  void fitHeightToWidth();

  QString cellId_;
  CodeEditor* editor_ = nullptr;
  bool selected_ = false;
  bool editing_ = false;
  bool settingFromModel_ = false;
};

}  // namespace tilescope::ui
