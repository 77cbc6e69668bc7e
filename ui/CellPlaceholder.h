#pragma once
// Stands in for a cell widget that has not been built yet: an empty strip of about the height the
// cell will have. A notebook of thousands of cells opens in a moment because NotebookView builds the
// real widgets (each with its own QScintilla editor) only for cells that come into view. A layout
// item, not a widget: laying out thousands of them then costs next to nothing.
#include <QSpacerItem>

#include "core/notebook/Notebook.h"
#include "ui/Theme.h"

namespace tilescope::ui {

class CellPlaceholder : public QSpacerItem {
public:
  CellPlaceholder(const notebook::Cell& cell, const Appearance& appearance);

  // Height the built cell will probably have: its source lines and text outputs at the given fonts,
  // a fixed allowance per picture. Only a guess (wrapping is unknown until a cell is painted):
  // NotebookView keeps the view steady when the real widget turns out taller or shorter.
  static int estimatedHeight(const notebook::Cell& cell, const Appearance& appearance);
  void reestimate(const notebook::Cell& cell, const Appearance& appearance);
  // A hidden placeholder takes no room (presentation mode shows one cell).
  void setShown(bool shown);

private:
  void applySize();

  int height_ = 0;
  bool shown_ = true;
};

}  // namespace tilescope::ui
