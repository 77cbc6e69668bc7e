#pragma once
// A code cell: the In prompt ([ ], [*] while queued or running, [n] after), the Python editor and
// the outputs under it.
#include "ui/CellWidget.h"
#include "ui/InspectorLink.h"
#include "ui/TracebackLink.h"

class QLabel;

namespace tilescope::ui {

class OutputArea;

enum class RunState { Idle, Queued, Running };

class CodeCellWidget : public CellWidget {
  Q_OBJECT
public:
  CodeCellWidget(const notebook::Cell& cell, const Appearance& appearance, QWidget* parent = nullptr);

  notebook::CellType cellType() const override { return notebook::CellType::Code; }
  void setOutputs(const nlohmann::json& outputs);
  void setExecutionCount(int count);
  void setRunState(RunState state);
  RunState runState() const { return runState_; }
  void setAppearance(const Appearance& appearance) override;

  OutputArea* outputArea() const { return outputs_; }
  QString promptText() const;

signals:
  // A traceback link in this cell's outputs was clicked.
  void locationActivated(const QString& cellId, const tilescope::ui::TracebackLink& link);
  // An inspector link in this cell's outputs was clicked.
  void inspectorLinkActivated(const QString& cellId, const tilescope::ui::InspectorLink& link);

private:
  void updatePrompt();

  QLabel* prompt_;
  OutputArea* outputs_;
  int executionCount_ = 0;
  RunState runState_ = RunState::Idle;
};

}  // namespace tilescope::ui
