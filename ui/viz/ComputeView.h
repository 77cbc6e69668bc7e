#pragma once
// The inspector's Dot and Reduce tabs: the selected program's tl.dot executions (A, B and the
// accumulator at each K step) or its reductions (input, reduced axis, result), drawn by core/viz
// (DotScene, ReduceScene). A combo box names each execution and a slider walks them - through a
// matmul's K steps - and the code cell highlights the operation's source line while the tab shows.
// A hidden tab draws nothing until it is shown, so playing through programs does not pay for it.
#include <QWidget>
#include <memory>
#include <optional>

#include "ui/viz/TraceDocument.h"

class QComboBox;
class QSlider;
class QToolButton;

namespace tilescope::ui {

class SceneView;

class ComputeView : public QWidget {
  Q_OBJECT
public:
  enum class Kind { Dot, Reduce };
  explicit ComputeView(Kind kind, QWidget* parent = nullptr);

  void setDocument(std::shared_ptr<const TraceDocument> document);
  // The program to show; keeps the step when the new program has as many (walking programs at one K step).
  void setProgram(const std::optional<ProgramId>& pid);
  void selectStep(int index);  // clamped
  int currentStep() const;
  int stepCount() const;
  // Emits located() for the current operation (the inspector calls it when this tab comes forward).
  void announceLocation();

  // For tests and screenshots.
  QComboBox* stepBox() const { return steps_; }
  QSlider* slider() const { return slider_; }
  SceneView* sceneView() const { return view_; }

protected:
  void showEvent(QShowEvent* event) override;

signals:
  // The current operation's source file ("<cell:ID>") and 1-based line, while this view is shown.
  void located(const QString& file, int line);

private:
  void refresh();

  Kind kind_;
  bool stale_ = false;  // the scene waits for the tab to be shown (play steps programs fast)
  std::shared_ptr<const TraceDocument> document_;
  std::optional<ProgramId> program_;
  QComboBox* steps_;
  QSlider* slider_;
  QToolButton* prev_;
  QToolButton* next_;
  SceneView* view_;
};

}  // namespace tilescope::ui
