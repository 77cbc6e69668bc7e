// The torch preference: chosen in the preferences dialog (real key presses), saved with QSettings, and
// passed to the worker process as `--torch system`; a notebook's metadata wins over it.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "ui/MainWindow.h"
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

TEST(TorchPreference, ANotebookThatAsksForInstalledPyTorchGetsIt) {
  tilescope::ui::MainWindow window;
  QTemporaryDir dir;
  const QString asking = dir.filePath("asking.ipynb");
  const QString plain = dir.filePath("plain.ipynb");
  const char* cells = R"("cells": [{"cell_type": "code", "id": "a", "metadata": {}, "execution_count": null, "outputs": [], "source": "x = 1"}])";
  QFile f(asking);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(QByteArray(R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {"tilescope": {"torch": "system"}}, )") + cells + "}");
  f.close();
  QFile g(plain);
  ASSERT_TRUE(g.open(QIODevice::WriteOnly));
  g.write(QByteArray(R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, )") + cells + "}");
  g.close();
  auto* worker = window.findChild<WorkerProcessClient*>();
  ASSERT_NE(worker, nullptr);
  ASSERT_TRUE(window.openNotebook(asking).isEmpty());
  EXPECT_EQ(worker->workerArguments(), (QStringList{"worker", "--torch", "system"}));
  ASSERT_TRUE(window.openNotebook(plain).isEmpty());
  EXPECT_EQ(worker->workerArguments(), QStringList{"worker"});  // the preference: the built-in torch
}
