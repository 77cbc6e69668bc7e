// One QApplication for all widget tests; it must outlive every widget and die before Qt's statics.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Widget tests never need a screen; gtest discovery also runs this binary without ctest's env.
  if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // Settings, recent files and recovery copies go to ~/.qttest, never into the user's real ones.
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("tilescope-tests");
  QSettings().clear();
  return RUN_ALL_TESTS();
}
