#pragma once
// The kernel inspector beside the notebook: the launches of the selected cell (kernel, grid,
// backend) and, for the one picked, the program grid, the offsets/mask tiles of the selected
// program and memory operation, its dots and reductions, the write coverage and the swizzle order. Programs can be stepped
// through (previous/next/play) and clicked in the grid; the selection is shared by every view.
#include <QHash>
#include <QList>
#include <QPointer>
#include <QWidget>
#include <memory>
#include <optional>

#include "ui/ExecutionClient.h"
#include "ui/InspectorLink.h"
#include "ui/viz/TraceDocument.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTimer;
class QToolButton;

namespace tilescope::ui {

class CompiledPanel;
class ComputeView;
class ProgramGridView;
class SceneView;
class SteppingExportDialog;

class InspectorPanel : public QWidget {
  Q_OBJECT
public:
  explicit InspectorPanel(QWidget* parent = nullptr);
  ~InspectorPanel() override;

  // The cell whose launches are listed (the notebook's selected cell).
  void showCell(const QString& cellId);
  QString cellId() const { return cellId_; }
  // A cell started running again: its old launches are gone.
  void clearCell(const QString& cellId);
  void addLaunch(const QString& cellId, const KernelLaunch& launch);
  // A GPU launch's program timing (a --program-timing JSON line) shown as a launch of its own, for
  // the grid's duration and SM colourings; false, with the reason shown, when the line is not one.
  bool inspectProgramTiming(const QByteArray& line);
  static constexpr const char* kTimingCell = "<program timing>";

  void selectLaunch(int row);
  void selectProgram(const ProgramId& pid);
  // Follows an output's inspector link (tilescope.check): the cell's last launch of the link's
  // kernel, the tab it names and its program (once the trace is read); false, saying why in the
  // status line, when the cell has no such launch.
  bool openLink(const QString& cellId, const InspectorLink& link);
  void stepProgram(int delta);  // through the traced programs the pid filter keeps, in execution order
  // Stepping and play visit only programs matching this filter (seeds' syntax, "" for all); false,
  // with the reason shown, when it does not parse.
  bool setPidFilter(const QString& filter);
  void selectMemoryOp(int index);
  void setPlaying(bool playing);
  bool playing() const;
  // "Export stepping...": opens the export dialog for the current launch and stepping (null when
  // no launch with a trace is picked).
  SteppingExportDialog* openSteppingExport();

  std::shared_ptr<const TraceDocument> document() const { return document_; }
  std::optional<ProgramId> currentProgram() const { return program_; }
  int currentMemoryOp() const;

  // For tests and the screenshots.
  QListWidget* launchList() const { return launches_; }
  QTabWidget* tabs() const { return tabs_; }
  ProgramGridView* gridView() const { return grid_; }
  SceneView* tilesView() const { return tilesView_; }
  SceneView* coverageView() const { return coverageView_; }
  SceneView* variablesSceneView() const { return variablesScene_; }
  QSpinBox* loopStepBox() const { return loopStep_; }
  SceneView* swizzleView() const { return swizzleView_; }
  ComputeView* dotView() const { return dotView_; }
  ComputeView* reduceView() const { return reduceView_; }
  CompiledPanel* compiledPanel() const { return compiled_; }  // the Compiled tab (ui/compiled)
  QComboBox* coloringBox() const { return coloring_; }
  QComboBox* memoryOpBox() const { return ops_; }
  QPlainTextEdit* variablesView() const { return variables_; }
  QLabel* programLabel() const { return programLabel_; }
  QSpinBox* swizzleWindowBox() const { return window_; }
  QLineEdit* pidFilterBox() const { return pidFilter_; }
  QLabel* statusLabel() const { return status_; }
  QPushButton* traceNextRunButton() const { return traceNext_; }
  // The selected program was not traced (a big grid's launch is sampled): trace it in this cell's
  // launches from its next run on. Re-running the cell here could repeat its side effects (appends,
  // random draws, files), so the user runs it when it suits them.
  void requestTraceOfSelectedProgram();
  std::vector<ProgramId> requestedPrograms(const QString& cellId) const { return requested_.value(cellId); }
  // Whether the selected launch's trace is still being read (off the UI thread).
  bool loading() const { return shownLoading_; }

signals:
  // Where the current memory operation is in the source: its file ("<cell:ID>" for a notebook
  // cell) and 1-based line; an empty file when there is no current operation.
  void memoryOpLocated(const QString& file, int line);
  // The programs to trace besides the policy's sample when the cell runs again (all requested so far).
  void tracedProgramsRequested(const QString& cellId, const std::vector<tilescope::ui::ProgramId>& pids);

private:
  struct Launch {
    KernelLaunch info;
    std::shared_ptr<const TraceDocument> document;  // read on first use
    QString error;
    std::shared_ptr<const viz::Scene> coverage;  // built with the document when it is read off the UI thread
    quint64 serial = 0;                          // names the launch to a reading that finishes later
    bool loading = false;
  };
  // Traces at least this large are read on a pool thread (the panel says "Loading" meanwhile);
  // smaller ones take under a frame's time and are read at once.
  static constexpr qsizetype kReadAtOnceBytes = qsizetype{1} << 20;
  void startLoading(Launch& launch);
  void traceLoaded(quint64 serial, std::shared_ptr<const TraceDocument> document, std::shared_ptr<const viz::Scene> coverage,
                   const QString& error);
  QWidget* buildGridTab();
  QWidget* buildTilesTab();
  QWidget* buildSwizzleTab();
  QWidget* buildVariablesTab();
  void refreshVariables();
  void refillLaunchList();
  QString launchRowText(const Launch& launch) const;  // one row of the launch list
  void refreshGrid();
  void refreshTiles();
  void refreshSwizzle();
  void refreshProgramLabel();
  void updateSteps();

  QString cellId_;
  QHash<QString, QList<Launch>> launchesByCell_;
  std::shared_ptr<const TraceDocument> document_;
  std::optional<ProgramId> program_;
  std::optional<ProgramId> linkedProgram_;  // an inspector link's program, selected once its trace is read
  std::vector<ProgramId> steps_;  // the traced programs that stepping visits
  quint64 nextSerial_ = 1;
  quint64 shownSerial_ = 0;  // the launch selected in the list (its trace may still be loading)
  bool shownLoading_ = false;

  QLabel* title_;
  QListWidget* launches_;
  QLabel* status_;
  QTabWidget* tabs_;
  ProgramGridView* grid_;
  QComboBox* coloring_;
  QSpinBox* slice_;
  QToolButton* prev_;
  QToolButton* play_;
  QToolButton* next_;
  QSpinBox* speed_;
  QLineEdit* pidFilter_;
  QLabel* programLabel_;
  QLabel* gridLegend_;  // what the grid's colours mean
  QPushButton* traceNext_;
  QHash<QString, std::vector<ProgramId>> requested_;  // by cell
  QTimer* playTimer_;
  QComboBox* ops_;
  SceneView* tilesView_;
  QPlainTextEdit* variables_;
  SceneView* coverageView_;
  SceneView* variablesScene_;
  QSpinBox* loopStep_;
  SceneView* swizzleView_;
  QComboBox* swizzleSource_;
  QSpinBox* rows_;
  QSpinBox* cols_;
  QSpinBox* group_;
  QSpinBox* window_;
  ComputeView* dotView_;     // the Dot and Reduce tabs (ui/viz/ComputeView)
  ComputeView* reduceView_;
  CompiledPanel* compiled_;
  QPointer<SteppingExportDialog> exportDialog_;
};

}  // namespace tilescope::ui
