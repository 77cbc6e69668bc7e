#pragma once
// Shows the inspector and the performance dock at presentation scale, for a projector: their fonts,
// the program grid's cells, labels and outlines, and every drawn view (tiles, variables, coverage,
// swizzle, SM timeline) grow by one factor (Preferences::presentationScale), and shrink back at 1.
class QWidget;

namespace tilescope::ui {

class PresentationScale {
public:
  // Applies `scale` (1: normal) to `root` and everything inside it; safe to call again with a new scale.
  static void apply(QWidget* root, double scale);
  // The scale last applied to `root` (1 when never).
  static double of(const QWidget* root);
};

}  // namespace tilescope::ui
