#pragma once
// Edits Preferences: theme, fonts and sizes, presentation scale, autosave interval, simulator threads.
#include <QDialog>

#include "ui/Preferences.h"

class QComboBox;
class QDoubleSpinBox;
class QFontComboBox;
class QSpinBox;

namespace tilescope::ui {

class PreferencesDialog : public QDialog {
  Q_OBJECT
public:
  explicit PreferencesDialog(const Preferences& current, QWidget* parent = nullptr);
  Preferences preferences() const;

signals:
  // OK or Apply: the caller saves and shows them.
  void applied(const tilescope::ui::Preferences& preferences);

private:
  Preferences current_;
  QComboBox* theme_;
  QFontComboBox* editorFont_;
  QSpinBox* editorSize_;
  QSpinBox* outputSize_;
  QSpinBox* markdownSize_;
  QDoubleSpinBox* presentationScale_;
  QSpinBox* autosaveSeconds_;
  QComboBox* torch_;
  QSpinBox* simulatorThreads_;
};

}  // namespace tilescope::ui
