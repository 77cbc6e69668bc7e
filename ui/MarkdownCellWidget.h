#pragma once
#include <QTextBrowser>

#include "core/notebook/Notebook.h"

namespace tilescope::ui {

// A markdown cell, rendered (headings, lists, code, tables) and sized to its content.
class MarkdownCellWidget : public QTextBrowser {
  Q_OBJECT
public:
  explicit MarkdownCellWidget(const notebook::Cell& cell, QWidget* parent = nullptr);
  QString source() const { return source_; }

protected:
  void resizeEvent(QResizeEvent* event) override;

private:
  void fitHeightToDocument();
  QString source_;
};

}  // namespace tilescope::ui
