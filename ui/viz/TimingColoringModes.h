#pragma once
// The program grid's colourings by GPU program timing ("by duration", "by SM") in its colour box:
// enabled only for a launch with program timing, otherwise greyed out with a tooltip saying how to
// get it. A launch with timing (and so no trace, whose pid colours would all be grey) starts
// coloured by duration.
class QComboBox;
class QString;

namespace tilescope::ui {

class TimingColoringModes {
public:
  static void addTo(QComboBox* box);  // after the trace colourings
  static void update(QComboBox* box, bool launchHasTiming);
  static bool enabled(const QComboBox* box, int index);  // whether the box's item can be picked
  static QString unavailableReason();
};

}  // namespace tilescope::ui
