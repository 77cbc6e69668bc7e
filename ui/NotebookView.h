#pragma once
#include <QScrollArea>

#include "core/notebook/Notebook.h"

class QVBoxLayout;

namespace tilescope::ui {

// The vertical list of cells of one notebook.
class NotebookView : public QScrollArea {
  Q_OBJECT
public:
  explicit NotebookView(QWidget* parent = nullptr);
  void setNotebook(const notebook::Notebook& nb);
  int cellCount() const;
  QWidget* cellWidget(int index) const;

private:
  QWidget* content_;
  QVBoxLayout* cells_;
};

}  // namespace tilescope::ui
