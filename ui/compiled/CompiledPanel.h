#pragma once
// The inspector's Compiled tab: for a kernel of the notebook and a specialization (signature,
// num_warps, num_stages, target), its source beside the typed IR (after the pass picked), the CUDA
// C++, the PTX and the SASS. Hovering or clicking a line of any pane highlights the source line it
// came from and every line that source line became in the other panes. Below: the resources
// (ptxas's and the driver's), occupancy and tensor-core instructions, and a diff of the resources of
// a kept compilation against the current one (two specializations, or before and after an edit).
// Compiling runs on a pool thread behind a progress bar.
#include <QFutureWatcher>
#include <QWidget>
#include <functional>
#include <memory>

#include "ui/compiled/CompiledDocument.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace tilescope::ui {

class CodePane;

class CompiledPanel : public QWidget {
  Q_OBJECT
public:
  explicit CompiledPanel(QWidget* parent = nullptr);
  ~CompiledPanel() override;

  // Where the notebook's code cells come from (read when the tab shows and each time a compile starts).
  void setCellsProvider(std::function<CompiledDocument::Cells()> provider);
  // Picks `kernel` (a launch selected in the inspector), suggests its signature from the cells'
  // launch of it, and compiles when the tab is (or next becomes) visible.
  void showKernel(const QString& kernel);
  // Compiles the kernel and specialization in the controls now.
  void compileNow();
  // The same kernel and specialization in a top-level window of its own (deleted when closed).
  CompiledPanel* openInWindow();
  // Keeps the current compilation as the left side of the diff.
  void keepForDiff();

  bool busy() const;  // a compile is running (or its result is not shown yet)
  bool disassembling() const;  // the SASS of the shown compilation is still coming
  std::shared_ptr<const CompiledDocument> document() const { return document_; }
  std::shared_ptr<const CompiledDocument> keptDocument() const { return kept_; }
  CodePane* pane(CompiledDocument::Pane p) const;
  QComboBox* kernelBox() const { return kernel_; }
  QLineEdit* signatureEdit() const { return signature_; }
  QSpinBox* warpsBox() const { return warps_; }
  QSpinBox* stagesBox() const { return stages_; }
  QPushButton* compileButton() const { return compile_; }
  QPushButton* keepButton() const { return keep_; }
  QPushButton* windowButton() const { return window_; }
  QComboBox* irPassBox() const { return irPass_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* statusLabel() const { return status_; }
  QPlainTextEdit* resourcesView() const { return resources_; }
  QTableWidget* diffTable() const { return diff_; }

signals:
  void compiled();  // a compile finished (document() or the status says how)

protected:
  void showEvent(QShowEvent* event) override;

private:
  void refillKernels();
  void applyPendingKernel();
  void suggestSignature();
  void finished();
  void sassFinished();
  void showDocument();
  void linkFrom(CompiledDocument::Pane pane, int line, bool scrollOrigin);
  void refreshDiff();

  std::function<CompiledDocument::Cells()> cells_;
  std::shared_ptr<const CompiledDocument> document_;
  std::shared_ptr<const CompiledDocument> kept_;
  struct Result {
    std::shared_ptr<const CompiledDocument> document;
    QString error;
    qint64 ms = 0;
  };
  QFutureWatcher<Result>* watcher_;
  QFutureWatcher<std::shared_ptr<const CompiledDocument>>* sassWatcher_;  // the SASS, after the other panes
  bool running_ = false;  // a compile started and its result is not shown yet
  QString pendingKernel_;  // picked while the tab was hidden: read and compiled when it shows
  bool again_ = false;    // compile once more when the running one finishes (controls changed)

  QComboBox* kernel_;
  QLineEdit* signature_;
  QSpinBox* warps_;
  QSpinBox* stages_;
  QLineEdit* arch_;
  QPushButton* compile_;
  QPushButton* keep_;
  QPushButton* window_;
  QProgressBar* progress_;
  QLabel* status_;
  QComboBox* irPass_;
  CodePane* source_;
  CodePane* ir_;
  CodePane* cuda_;
  CodePane* ptx_;
  CodePane* sass_;
  QPlainTextEdit* resources_;
  QTableWidget* diff_;
};

}  // namespace tilescope::ui
