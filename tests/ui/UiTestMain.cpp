// One QApplication for all widget tests; it must outlive every widget and die before Qt's statics.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Widget tests never need a screen; gtest discovery also runs this binary without ctest's env.
  if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // Settings, recent files and recovery copies go to ~/.qttest, never into the user's real ones.
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  // ctest runs test processes in parallel: each gets its own settings file so they cannot interfere.
  QApplication::setOrganizationName(QString("tilescope-tests-%1").arg(QCoreApplication::applicationPid()));
  QSettings().clear();
  const int result = RUN_ALL_TESTS();
  QFile::remove(QSettings().fileName());
  return result;
}
