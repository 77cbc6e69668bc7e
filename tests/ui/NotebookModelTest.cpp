#include <gtest/gtest.h>

#include <QSignalSpy>

#include "core/notebook/CellOutputs.h"
#include "ui/NotebookModel.h"

using tilescope::notebook::CellType;
using tilescope::notebook::Notebook;
using tilescope::ui::NotebookModel;

namespace {
Notebook threeCells() {
  Notebook nb;
  nb.appendCell(CellType::Markdown, "# Title");
  nb.appendCell(CellType::Code, "a = 1");
  nb.appendCell(CellType::Code, "print(a)");
  return nb;
}
}  // namespace

TEST(NotebookModel, ResetIsCleanAndAnnounced) {
  NotebookModel model;
  QSignalSpy reset(&model, &NotebookModel::modelReset);
  model.reset(threeCells());
  EXPECT_EQ(reset.count(), 1);
  EXPECT_EQ(model.cellCount(), 3);
  EXPECT_FALSE(model.isDirty());
  model.reset(threeCells(), /*markDirty=*/true);
  EXPECT_TRUE(model.isDirty());
}

TEST(NotebookModel, InsertDeleteAndUndoKeepIdsAndPositions) {
  NotebookModel model;
  model.reset(threeCells());
  QSignalSpy inserted(&model, &NotebookModel::cellInserted);
  QSignalSpy removed(&model, &NotebookModel::cellRemoved);
  QSignalSpy dirty(&model, &NotebookModel::dirtyChanged);

  EXPECT_EQ(model.insertCell(1, CellType::Code, "new"), 1);
  ASSERT_EQ(inserted.count(), 1);
  EXPECT_EQ(inserted.at(0).at(0).toInt(), 1);
  EXPECT_EQ(model.source(1), "new");
  EXPECT_TRUE(model.isDirty());
  EXPECT_EQ(dirty.count(), 1);  // announced once, not per change

  const QString deletedId = model.cellId(2);
  model.deleteCell(2);
  EXPECT_EQ(removed.count(), 1);
  EXPECT_EQ(model.cellCount(), 3);
  EXPECT_EQ(model.indexOf(deletedId), -1);

  EXPECT_EQ(model.undoDelete(), 2);
  EXPECT_EQ(model.cellId(2), deletedId);
  EXPECT_EQ(model.source(2), "a = 1");
  EXPECT_EQ(model.undoDelete(), -1) << "nothing left to undo";
}

TEST(NotebookModel, UndoRestoresSeveralDeletionsInReverseOrder) {
  NotebookModel model;
  model.reset(threeCells());
  model.deleteCell(0);
  model.deleteCell(0);
  EXPECT_EQ(model.cellCount(), 1);
  EXPECT_EQ(model.undoDelete(), 0);
  EXPECT_EQ(model.source(0), "a = 1");
  EXPECT_EQ(model.undoDelete(), 0);
  EXPECT_EQ(model.source(0), "# Title");
  EXPECT_EQ(model.source(1), "a = 1");
}

TEST(NotebookModel, MoveCell) {
  NotebookModel model;
  model.reset(threeCells());
  QSignalSpy moved(&model, &NotebookModel::cellMoved);
  const QString id = model.cellId(0);
  model.moveCell(0, 2);
  ASSERT_EQ(moved.count(), 1);
  EXPECT_EQ(model.indexOf(id), 2);
  EXPECT_EQ(model.source(0), "a = 1");
  model.moveCell(0, 7);  // out of range: ignored
  EXPECT_EQ(moved.count(), 1);
}

TEST(NotebookModel, ChangingTypeDropsOutputsAndCount) {
  NotebookModel model;
  model.reset(threeCells());
  model.appendStream(1, "stdout", "hi\n");
  model.setExecutionCount(1, 4);
  QSignalSpy typeChanged(&model, &NotebookModel::cellTypeChanged);
  model.setCellType(1, CellType::Markdown);
  EXPECT_EQ(typeChanged.count(), 1);
  EXPECT_EQ(model.cell(1).type, CellType::Markdown);
  EXPECT_EQ(model.source(1), "a = 1");
  EXPECT_TRUE(model.cell(1).outputs.empty());
  EXPECT_EQ(model.cell(1).executionCount, 0);
  model.setCellType(1, CellType::Markdown);  // no change, no signal
  EXPECT_EQ(typeChanged.count(), 1);
}

TEST(NotebookModel, SourceEditsAreAnnouncedOnlyWhenTextChanges) {
  NotebookModel model;
  model.reset(threeCells());
  QSignalSpy changed(&model, &NotebookModel::sourceChanged);
  const quint64 revision = model.revision();
  model.setSource(1, "a = 1");
  EXPECT_EQ(changed.count(), 0);
  EXPECT_FALSE(model.isDirty());
  model.setSource(1, "a = 2");
  EXPECT_EQ(changed.count(), 1);
  EXPECT_GT(model.revision(), revision);
  model.setClean();
  EXPECT_FALSE(model.isDirty());
}

TEST(NotebookModel, StreamsMergeAndOnlyCodeCellsGetOutputs) {
  NotebookModel model;
  model.reset(threeCells());
  QSignalSpy outputs(&model, &NotebookModel::outputsChanged);
  model.appendStream(1, "stdout", "a\n");
  model.appendStream(1, "stdout", "b\n");
  model.appendStream(1, "stderr", "oops\n");
  ASSERT_EQ(model.cell(1).outputs.size(), 2u);
  EXPECT_EQ(tilescope::notebook::outputPlainText(model.cell(1).outputs[0]), "a\nb\n");
  EXPECT_EQ(outputs.count(), 3);
  model.appendStream(0, "stdout", "markdown cells have no outputs");
  EXPECT_TRUE(model.cell(0).outputs.empty());
  model.clearAllOutputs();
  EXPECT_TRUE(model.cell(1).outputs.empty());
}
