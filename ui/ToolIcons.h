#pragma once
// Toolbar icons drawn in the theme's text colour, so they stay visible on the dark theme (the
// style's standard icons are black).
#include <QColor>
#include <QIcon>

namespace tilescope::ui {

enum class ToolIcon { Run, RunAll, RunAbove, Interrupt, Restart, ClearOutputs, Presentation };

QIcon toolIcon(ToolIcon kind, const QColor& colour);

}  // namespace tilescope::ui
