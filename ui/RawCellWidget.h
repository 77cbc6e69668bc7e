#pragma once
// A raw cell (nbconvert passes its text through untouched): a plain editor with a "raw" tag.
#include "ui/CellWidget.h"

namespace tilescope::ui {

class RawCellWidget : public CellWidget {
  Q_OBJECT
public:
  RawCellWidget(const notebook::Cell& cell, const Appearance& appearance, QWidget* parent = nullptr);
  notebook::CellType cellType() const override { return notebook::CellType::Raw; }
};

}  // namespace tilescope::ui
