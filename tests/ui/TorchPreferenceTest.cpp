// The torch preference: chosen in the preferences dialog (real key presses), saved with QSettings, and
// passed to the worker process as `--torch system`.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QTest>

#include "ui/Preferences.h"
#include "ui/PreferencesDialog.h"
#include "ui/WorkerProcessClient.h"

using tilescope::ui::Preferences;
using tilescope::ui::PreferencesDialog;
using tilescope::ui::WorkerProcessClient;

namespace {

QComboBox* torchBox(PreferencesDialog& dialog) {
  for (QComboBox* box : dialog.findChildren<QComboBox*>())
    if (box->findData(QStringLiteral("system")) >= 0) return box;
  return nullptr;
}

}  // namespace

TEST(TorchPreference, TheDialogChoosesInstalledPyTorchAndItIsSaved) {
  PreferencesDialog dialog(Preferences{});
  dialog.show();
  QComboBox* box = torchBox(dialog);
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(box->currentData().toString(), "builtin");
  box->setFocus();
  QTest::keyClick(box, Qt::Key_Down);
  EXPECT_EQ(dialog.preferences().torch, "system");
  dialog.preferences().save();
  EXPECT_EQ(Preferences::load().torch, "system");
  Preferences().save();
  EXPECT_EQ(Preferences::load().torch, "builtin");
}

TEST(TorchPreference, TheWorkerIsStartedWithTheChosenTorch) {
  WorkerProcessClient client(QStringLiteral("/nonexistent/tilescope-cli"));
  EXPECT_EQ(client.workerArguments(), QStringList{"worker"});
  client.setTorch(QStringLiteral("system"));
  EXPECT_EQ(client.workerArguments(), (QStringList{"worker", "--torch", "system"}));
}
