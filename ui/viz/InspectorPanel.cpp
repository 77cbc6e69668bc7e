#include "ui/viz/InspectorPanel.h"

#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

#include "ui/compiled/CompiledPanel.h"
#include "ui/viz/ComputeView.h"
#include "ui/viz/ProgramGridView.h"
#include "ui/viz/SceneView.h"
#include "ui/viz/SteppingExportDialog.h"
#include "ui/viz/TimingColoringModes.h"

namespace tilescope::ui {

namespace {

QString gridText(const qint64 grid[3]) { return QStringLiteral("(%1, %2, %3)").arg(grid[0]).arg(grid[1]).arg(grid[2]); }

QScrollArea* scrolled(QWidget* inner) {
  auto* area = new QScrollArea;
  area->setWidget(inner);
  area->setWidgetResizable(false);
  area->setBackgroundRole(QPalette::Base);
  return area;
}

QToolButton* toolButton(const QString& text, const QString& name, const QString& tip) {
  auto* b = new QToolButton;
  b->setText(text);
  b->setObjectName(name);
  b->setToolTip(tip);
  return b;
}

// What reading a trace on a pool thread gives back.
struct LoadedTrace {
  std::shared_ptr<const TraceDocument> document;
  std::shared_ptr<const viz::Scene> coverage;
  QString error;
};

}  // namespace

InspectorPanel::InspectorPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("inspectorPanel"));
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(6, 6, 6, 6);
  title_ = new QLabel(tr("Select a cell that launches kernels."));
  title_->setObjectName(QStringLiteral("launchTitle"));
  title_->setWordWrap(true);
  column->addWidget(title_);
  launches_ = new QListWidget;
  launches_->setObjectName(QStringLiteral("launchList"));
  launches_->setMaximumHeight(110);
  column->addWidget(launches_);
  status_ = new QLabel;
  status_->setWordWrap(true);
  status_->setObjectName(QStringLiteral("inspectorStatus"));
  column->addWidget(status_);

  tabs_ = new QTabWidget;
  tabs_->setObjectName(QStringLiteral("inspectorTabs"));
  tabs_->addTab(buildGridTab(), tr("Grid"));
  tabs_->addTab(buildTilesTab(), tr("Tiles"));
  tabs_->addTab(buildVariablesTab(), tr("Variables"));
  dotView_ = new ComputeView(ComputeView::Kind::Dot);
  tabs_->addTab(dotView_, tr("Dot"));
  reduceView_ = new ComputeView(ComputeView::Kind::Reduce);
  tabs_->addTab(reduceView_, tr("Reduce"));
  coverageView_ = new SceneView;
  coverageView_->setExportName(QStringLiteral("coverage.png"));
  tabs_->addTab(scrolled(coverageView_), tr("Coverage"));
  tabs_->addTab(buildSwizzleTab(), tr("Swizzle"));
  compiled_ = new CompiledPanel;
  tabs_->addTab(compiled_, tr("Compiled"));
  column->addWidget(tabs_, 1);

  connect(launches_, &QListWidget::currentRowChanged, this, &InspectorPanel::selectLaunch);
  // The highlighted source line is the Dot/Reduce tab's operation while one is in front, else the
  // current memory operation's.
  for (ComputeView* v : {dotView_, reduceView_}) connect(v, &ComputeView::located, this, &InspectorPanel::memoryOpLocated);
  connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
    if (auto* v = qobject_cast<ComputeView*>(tabs_->widget(index))) v->announceLocation();
    else refreshTiles();
  });
  playTimer_ = new QTimer(this);
  connect(playTimer_, &QTimer::timeout, this, [this] {
    if (steps_.empty()) return setPlaying(false);
    // Play wraps around at the end, like a slide loop.
    if (program_ && *program_ == steps_.back()) selectProgram(steps_.front());
    else stepProgram(1);
  });
}

InspectorPanel::~InspectorPanel() = default;

QWidget* InspectorPanel::buildGridTab() {
  auto* tab = new QWidget;
  auto* column = new QVBoxLayout(tab);
  auto* row = new QHBoxLayout;
  coloring_ = new QComboBox;
  coloring_->setObjectName(QStringLiteral("colorBy"));
  coloring_->addItem(tr("Colour by pid"), static_cast<int>(TraceDocument::Coloring::Pid));
  coloring_->addItem(tr("Colour by launch order"), static_cast<int>(TraceDocument::Coloring::Order));
  coloring_->addItem(tr("Colour by output tile"), static_cast<int>(TraceDocument::Coloring::OutputTile));
  coloring_->addItem(tr("Colour by bytes moved"), static_cast<int>(TraceDocument::Coloring::Bytes));
  coloring_->addItem(tr("Colour by masked lanes"), static_cast<int>(TraceDocument::Coloring::Masked));
  TimingColoringModes::addTo(coloring_);
  row->addWidget(coloring_);
  slice_ = new QSpinBox;
  slice_->setObjectName(QStringLiteral("gridSlice"));
  slice_->setPrefix(tr("pid_2 = "));
  slice_->setVisible(false);
  row->addWidget(slice_);
  row->addStretch(1);
  prev_ = toolButton(QStringLiteral("\u25C0"), QStringLiteral("prevProgram"), tr("Previous program"));
  play_ = toolButton(QStringLiteral("\u25B6"), QStringLiteral("playPrograms"), tr("Play through the programs"));
  play_->setCheckable(true);
  next_ = toolButton(QStringLiteral("\u25B6|"), QStringLiteral("nextProgram"), tr("Next program"));
  speed_ = new QSpinBox;
  speed_->setObjectName(QStringLiteral("playSpeed"));
  speed_->setRange(1, 60);
  speed_->setValue(4);
  speed_->setSuffix(tr(" /s"));
  speed_->setToolTip(tr("Programs per second while playing"));
  row->addWidget(prev_);
  row->addWidget(play_);
  row->addWidget(next_);
  row->addWidget(speed_);
  column->addLayout(row);
  pidFilter_ = new QLineEdit;
  pidFilter_->setObjectName(QStringLiteral("pidFilter"));
  pidFilter_->setPlaceholderText(tr("Step through programs where ... e.g. >1 or =0,=1 or pid_0 > 1, pid_1 == 0"));
  pidFilter_->setClearButtonEnabled(true);
  // Export sits beside the filter, whose programs it exports; the row above is full.
  auto* filterRow = new QHBoxLayout;
  filterRow->addWidget(pidFilter_, 1);
  auto* exportSteps = toolButton(tr("Export..."), QStringLiteral("exportStepping"),
                                 tr("Export stepping...: the programs or memory operations as an animated GIF or PNG sequence, for slides"));
  filterRow->addWidget(exportSteps);
  connect(exportSteps, &QToolButton::clicked, this, &InspectorPanel::openSteppingExport);
  column->addLayout(filterRow);
  connect(pidFilter_, &QLineEdit::returnPressed, this, [this] { setPidFilter(pidFilter_->text()); });
  programLabel_ = new QLabel;
  programLabel_->setObjectName(QStringLiteral("programLabel"));
  programLabel_->setWordWrap(true);
  column->addWidget(programLabel_);
  traceNext_ = new QPushButton(tr("Trace this program on the next run"));
  traceNext_->setObjectName(QStringLiteral("traceOnNextRun"));
  traceNext_->setToolTip(tr("Big grids are sampled. Run the cell again and its launches also trace this program."));
  // Its room is kept while hidden, so the grid does not jump as traced and untraced programs are clicked.
  QSizePolicy keepRoom = traceNext_->sizePolicy();
  keepRoom.setRetainSizeWhenHidden(true);
  traceNext_->setSizePolicy(keepRoom);
  traceNext_->setVisible(false);
  column->addWidget(traceNext_, 0, Qt::AlignLeft);
  connect(traceNext_, &QPushButton::clicked, this, &InspectorPanel::requestTraceOfSelectedProgram);
  // The colours' meaning, which the CLI's picture also prints; without it a colouring is guesswork.
  gridLegend_ = new QLabel;
  gridLegend_->setObjectName(QStringLiteral("gridLegend"));
  gridLegend_->setWordWrap(true);
  gridLegend_->setForegroundRole(QPalette::PlaceholderText);
  column->addWidget(gridLegend_);
  grid_ = new ProgramGridView;
  column->addWidget(grid_, 1);
  connect(grid_, &ProgramGridView::legendChanged, gridLegend_, &QLabel::setText);

  connect(coloring_, &QComboBox::currentIndexChanged, this, [this] {
    grid_->setColoring(static_cast<TraceDocument::Coloring>(coloring_->currentData().toInt()));
  });
  connect(slice_, &QSpinBox::valueChanged, this, [this](int v) { grid_->setSlice(v); });
  connect(grid_, &ProgramGridView::programSelected, this, &InspectorPanel::selectProgram);
  connect(prev_, &QToolButton::clicked, this, [this] { stepProgram(-1); });
  connect(next_, &QToolButton::clicked, this, [this] { stepProgram(1); });
  connect(play_, &QToolButton::toggled, this, &InspectorPanel::setPlaying);
  connect(speed_, &QSpinBox::valueChanged, this, [this](int perSecond) { playTimer_->setInterval(1000 / perSecond); });
  return tab;
}

QWidget* InspectorPanel::buildTilesTab() {
  auto* tab = new QWidget;
  auto* column = new QVBoxLayout(tab);
  auto* row = new QHBoxLayout;
  auto* prevOp = toolButton(QStringLiteral("\u25C0"), QStringLiteral("prevOp"), tr("Previous memory operation"));
  ops_ = new QComboBox;
  ops_->setObjectName(QStringLiteral("memoryOp"));
  auto* nextOp = toolButton(QStringLiteral("\u25B6"), QStringLiteral("nextOp"), tr("Next memory operation"));
  row->addWidget(prevOp);
  row->addWidget(ops_, 1);
  row->addWidget(nextOp);
  column->addLayout(row);
  auto* split = new QSplitter(Qt::Vertical);
  tilesView_ = new SceneView;
  split->addWidget(scrolled(tilesView_));
  variables_ = new QPlainTextEdit;
  variables_->setObjectName(QStringLiteral("variables"));
  variables_->setReadOnly(true);
  variables_->setPlaceholderText(tr("Named tiles of the selected program"));
  variables_->setLineWrapMode(QPlainTextEdit::NoWrap);
  split->addWidget(variables_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  column->addWidget(split, 1);
  connect(ops_, &QComboBox::currentIndexChanged, this, [this] { refreshTiles(); });
  connect(prevOp, &QToolButton::clicked, this, [this] { selectMemoryOp(ops_->currentIndex() - 1); });
  connect(nextOp, &QToolButton::clicked, this, [this] { selectMemoryOp(ops_->currentIndex() + 1); });
  return tab;
}

QWidget* InspectorPanel::buildVariablesTab() {
  auto* tab = new QWidget;
  auto* column = new QVBoxLayout(tab);
  auto* row = new QHBoxLayout;
  auto* prev = toolButton(QStringLiteral("\u25C0"), QStringLiteral("prevLoopStep"), tr("Previous loop step"));
  loopStep_ = new QSpinBox;
  loopStep_->setObjectName(QStringLiteral("loopStep"));
  loopStep_->setPrefix(tr("loop step "));
  loopStep_->setRange(1, 1);
  auto* next = toolButton(QStringLiteral("\u25B6"), QStringLiteral("nextLoopStep"), tr("Next loop step"));
  row->addWidget(prev);
  row->addWidget(loopStep_);
  row->addWidget(next);
  row->addStretch(1);
  column->addLayout(row);
  variablesScene_ = new SceneView;
  variablesScene_->setExportName(QStringLiteral("variables.png"));
  column->addWidget(scrolled(variablesScene_), 1);
  connect(loopStep_, &QSpinBox::valueChanged, this, [this] { refreshVariables(); });
  connect(prev, &QToolButton::clicked, loopStep_, &QSpinBox::stepDown);
  connect(next, &QToolButton::clicked, loopStep_, &QSpinBox::stepUp);
  return tab;
}

void InspectorPanel::refreshVariables() {
  if (!document_ || !program_) {
    variablesScene_->setScene({}, shownLoading_ ? tr("Loading the trace\u2026") : tr("Pick a launch and a program."));
    return;
  }
  variablesScene_->setScene(document_->variablesScene(*program_, loopStep_->value() - 1));
}

QWidget* InspectorPanel::buildSwizzleTab() {
  auto* tab = new QWidget;
  auto* column = new QVBoxLayout(tab);
  auto* row = new QHBoxLayout;
  swizzleSource_ = new QComboBox;
  swizzleSource_->setObjectName(QStringLiteral("swizzleSource"));
  swizzleSource_->addItem(tr("What this launch did"));
  swizzleSource_->addItem(tr("Row-major vs grouped"));
  row->addWidget(swizzleSource_);
  row->addStretch(1);
  column->addLayout(row);
  // The grid's numbers on a row of their own, so the panel stays narrow enough to leave the notebook
  // most of the window.
  auto* numbers = new QHBoxLayout;
  auto spin = [&](const QString& name, const QString& prefix, int value) {
    auto* s = new QSpinBox;
    s->setObjectName(name);
    s->setRange(1, 256);
    s->setValue(value);
    s->setPrefix(prefix);
    numbers->addWidget(s);
    connect(s, &QSpinBox::valueChanged, this, [this] { refreshSwizzle(); });
    return s;
  };
  rows_ = spin(QStringLiteral("swizzleRows"), tr("rows "), 9);
  cols_ = spin(QStringLiteral("swizzleCols"), tr("cols "), 9);
  group_ = spin(QStringLiteral("swizzleGroup"), tr("group "), 3);
  window_ = spin(QStringLiteral("swizzleWindow"), tr("W "), 9);
  numbers->addStretch(1);
  column->addLayout(numbers);
  swizzleView_ = new SceneView;
  column->addWidget(scrolled(swizzleView_), 1);
  connect(swizzleSource_, &QComboBox::currentIndexChanged, this, [this] { refreshSwizzle(); });
  return tab;
}

void InspectorPanel::showCell(const QString& cellId) {
  if (cellId == cellId_) return;
  cellId_ = cellId;
  refillLaunchList();
}

void InspectorPanel::clearCell(const QString& cellId) {
  launchesByCell_.remove(cellId);
  if (cellId == cellId_) refillLaunchList();
}

QString InspectorPanel::launchRowText(const Launch& l) const {
  return QStringLiteral("%1  grid %2  %3%4")
      .arg(l.info.kernel, gridText(l.info.grid), l.info.backend,
           l.info.trace.isEmpty() ? (l.info.programTiming.isEmpty() ? tr("  (no trace)") : tr("  program timing")) : tr("  %1 programs traced").arg(l.info.tracedPrograms));
}

void InspectorPanel::addLaunch(const QString& cellId, const KernelLaunch& launch) {
  launchesByCell_[cellId].append(Launch{launch, nullptr, {}, nullptr, nextSerial_++, false});
  if (cellId != cellId_) return;
  const QList<Launch>& list = launchesByCell_[cellId];
  title_->setText(tr("Kernel launches of this cell (%1):").arg(list.size()));
  launches_->addItem(launchRowText(list.back()));
  if (launches_->currentRow() < 0) launches_->setCurrentRow(0);
}

bool InspectorPanel::inspectProgramTiming(const QByteArray& line) {
  QString error;
  const std::shared_ptr<TraceDocument> doc = TraceDocument::fromProgramTiming(line, &error);
  if (!doc) {
    status_->setText(tr("Program timing: %1").arg(error));
    return false;
  }
  KernelLaunch launch;
  launch.kernel = doc->kernelName();
  for (int i = 0; i < 3; ++i) launch.grid[i] = doc->grid()[static_cast<size_t>(i)];
  launch.backend = QStringLiteral("gpu");
  launch.programTiming = line;
  const QString cell = QLatin1String(kTimingCell);
  // Shown again: pick the launch already listed rather than listing it twice.
  const QList<Launch>& listed = launchesByCell_[cell];
  int row = -1;
  for (int i = 0; i < listed.size() && row < 0; ++i)
    if (listed[i].info.programTiming == line) row = i;
  if (row < 0) {
    addLaunch(cell, launch);
    row = static_cast<int>(launchesByCell_[cell].size()) - 1;
  }
  showCell(cell);
  selectLaunch(row);
  return true;
}

void InspectorPanel::refillLaunchList() {
  setPlaying(false);
  {
    const QSignalBlocker block(launches_);
    launches_->clear();
  }
  const QList<Launch> list = launchesByCell_.value(cellId_);
  title_->setText(list.isEmpty() ? tr("This cell launched no kernel (yet). Run it to inspect its launches.")
                                 : tr("Kernel launches of this cell (%1):").arg(list.size()));
  for (const Launch& l : list) launches_->addItem(launchRowText(l));
  if (list.isEmpty()) selectLaunch(-1);
  else launches_->setCurrentRow(0);
}

void InspectorPanel::selectLaunch(int row) {
  setPlaying(false);
  QList<Launch>& list = launchesByCell_[cellId_];
  document_.reset();
  program_.reset();
  status_->clear();
  shownSerial_ = 0;
  shownLoading_ = false;
  std::shared_ptr<const viz::Scene> coverage;
  if (row >= 0 && row < list.size()) {
    if (launches_->currentRow() != row) launches_->setCurrentRow(row);
    Launch& l = list[row];
    compiled_->showKernel(l.info.kernel);
    if (!l.document && l.error.isEmpty() && !l.loading) {
      if (l.info.trace.isEmpty() && !l.info.programTiming.isEmpty())
        l.document = TraceDocument::fromProgramTiming(l.info.programTiming, &l.error);
      else if (l.info.trace.isEmpty())
        l.error = l.info.backend == QLatin1String("gpu")
                      ? tr("This launch ran on the GPU, which records no trace; run the cell on the simulator to inspect it.")
                      : tr("This launch has no trace: %1.").arg(l.info.untracedReason);
      else if (l.info.trace.size() >= kReadAtOnceBytes) startLoading(l);
      else l.document = TraceDocument::fromBytes(l.info.trace, &l.error);
    }
    document_ = l.document;
    coverage = l.coverage;
    shownSerial_ = l.serial;
    shownLoading_ = l.loading;
    status_->setText(l.loading ? tr("Loading the trace (%1 MiB)\u2026").arg(static_cast<double>(l.info.trace.size()) / (1 << 20), 0, 'f', 1)
                     : document_ ? document_->policy()
                                 : l.error);
    title_->setText(tr("Kernel launches of this cell (%1):").arg(list.size()));
  }
  grid_->setDocument(document_);
  dotView_->setDocument(document_);
  reduceView_->setDocument(document_);
  TimingColoringModes::update(coloring_, document_ && document_->hasTiming());
  updateSteps();
  slice_->setVisible(document_ && document_->gridDimensions() == 3);
  if (document_) slice_->setRange(0, static_cast<int>(document_->grid()[2] - 1));
  coverageView_->setScene(document_ ? (coverage ? *coverage : document_->coverageScene()) : viz::Scene(),
                          shownLoading_ ? tr("Loading the trace\u2026") : tr("No trace to show."));
  if (document_ && linkedProgram_ && document_->isTraced(*linkedProgram_)) selectProgram(*std::exchange(linkedProgram_, std::nullopt));
  else if (document_ && !document_->tracedPrograms().empty()) selectProgram(document_->tracedPrograms().front());
  else {
    refreshTiles();
    refreshVariables();
    refreshProgramLabel();
  }
  refreshSwizzle();
}

void InspectorPanel::startLoading(Launch& launch) {
  launch.loading = true;
  auto* watcher = new QFutureWatcher<LoadedTrace>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, serial = launch.serial] {
    const LoadedTrace loaded = watcher->result();
    watcher->deleteLater();
    traceLoaded(serial, loaded.document, loaded.coverage, loaded.error);
  });
  // The document is immutable once read, so the pool thread can also build the whole-trace models.
  watcher->setFuture(QtConcurrent::run([bytes = launch.info.trace] {
    LoadedTrace loaded;
    std::shared_ptr<const TraceDocument> document = TraceDocument::fromBytes(bytes, &loaded.error);
    if (document) loaded.coverage = std::make_shared<const viz::Scene>(document->coverageScene());
    loaded.document = std::move(document);
    return loaded;
  }));
}

void InspectorPanel::traceLoaded(quint64 serial, std::shared_ptr<const TraceDocument> document,
                                 std::shared_ptr<const viz::Scene> coverage, const QString& error) {
  for (auto it = launchesByCell_.begin(); it != launchesByCell_.end(); ++it)
    for (Launch& l : it.value()) {
      if (l.serial != serial) continue;
      l.loading = false;
      l.document = std::move(document);
      l.coverage = std::move(coverage);
      l.error = l.document ? QString() : error;
      // Shown only if the user has not moved on to another launch meanwhile.
      if (serial == shownSerial_) selectLaunch(launches_->currentRow());
      return;
    }
  // The cell ran again (or was cleared) while its trace was read: nothing to show.
}

bool InspectorPanel::openLink(const QString& cellId, const InspectorLink& link) {
  showCell(cellId);
  const QList<Launch>& list = launchesByCell_.value(cellId);
  int row = -1;
  for (int i = 0; i < list.size(); ++i)
    if (list[i].info.kernel == link.kernel) row = i;
  if (row < 0) {
    status_->setText(tr("This cell has no launch of %1 (yet): run the cell, then follow the link again.").arg(link.kernel));
    return false;
  }
  for (int i = 0; i < tabs_->count(); ++i)
    if (tabs_->tabText(i).compare(link.tab, Qt::CaseInsensitive) == 0) tabs_->setCurrentIndex(i);
  // Picking the row re-enters selectLaunch through the list's signal, which selects the first program:
  // the linked one is selected after it. A big trace still being read selects it once read.
  linkedProgram_ = link.program;
  selectLaunch(row);
  if (document_ && link.program) {
    linkedProgram_.reset();
    selectProgram(*link.program);  // also when it was not traced (a sampled big grid): the label says so
  }
  return true;
}

void InspectorPanel::selectProgram(const ProgramId& pid) {
  program_ = pid;
  grid_->setSelected(pid);
  if (slice_->isVisibleTo(this) && slice_->value() != pid[2]) slice_->setValue(static_cast<int>(pid[2]));
  const int keep = ops_->currentIndex();
  {
    const QSignalBlocker block(ops_);
    ops_->clear();
    if (document_) ops_->addItems(document_->memoryOpTitles(pid));
    ops_->setCurrentIndex(std::clamp(keep, ops_->count() ? 0 : -1, ops_->count() - 1));
  }
  if (document_) {
    QStringList lines = document_->namedTiles(pid);
    variables_->setPlainText(lines.join(QLatin1Char('\n')));
  }
  {
    const QSignalBlocker block(loopStep_);
    loopStep_->setRange(1, static_cast<int>(std::max<qint64>(1, document_ ? document_->loopSteps(pid) : 1)));
  }
  refreshTiles();
  refreshVariables();
  refreshProgramLabel();
  dotView_->setProgram(pid);
  reduceView_->setProgram(pid);
}

void InspectorPanel::stepProgram(int delta) {
  if (steps_.empty()) return;
  auto it = program_ ? std::find(steps_.begin(), steps_.end(), *program_) : steps_.end();
  qint64 index = it == steps_.end() ? 0 : (it - steps_.begin()) + delta;
  index = std::clamp<qint64>(index, 0, static_cast<qint64>(steps_.size()) - 1);
  selectProgram(steps_[static_cast<size_t>(index)]);
}

bool InspectorPanel::setPidFilter(const QString& filter) {
  if (pidFilter_->text() != filter) pidFilter_->setText(filter);
  updateSteps();
  return !pidFilter_->property("invalid").toBool();
}

void InspectorPanel::updateSteps() {
  steps_.clear();
  pidFilter_->setProperty("invalid", false);
  pidFilter_->setStyleSheet({});
  if (!document_) return;
  QString error;
  if (auto kept = document_->tracedMatching(pidFilter_->text(), &error)) {
    steps_ = std::move(*kept);
    if (!pidFilter_->text().trimmed().isEmpty())
      status_->setText(tr("%n traced program(s) match the pid filter.", nullptr, static_cast<int>(steps_.size())));
  } else {
    steps_ = document_->tracedPrograms();
    pidFilter_->setProperty("invalid", true);
    pidFilter_->setStyleSheet(QStringLiteral("QLineEdit { color: #c62828; }"));
    status_->setText(tr("Pid filter: %1").arg(error));
  }
}

void InspectorPanel::selectMemoryOp(int index) {
  if (index < 0 || index >= ops_->count()) return;
  ops_->setCurrentIndex(index);
}

int InspectorPanel::currentMemoryOp() const { return ops_->currentIndex(); }

void InspectorPanel::setPlaying(bool playing) {
  if (playing && !document_) playing = false;
  if (playing) playTimer_->start(1000 / speed_->value());
  else playTimer_->stop();
  const QSignalBlocker block(play_);
  play_->setChecked(playing);
  // U+275A twice for pause: the usual U+23F8 is in none of Debian's default fonts, so it drew as a box.
  play_->setText(playing ? QStringLiteral("\u275A\u275A") : QStringLiteral("\u25B6"));
}

bool InspectorPanel::playing() const { return playTimer_->isActive(); }

SteppingExportDialog* InspectorPanel::openSteppingExport() {
  if (!document_) {
    status_->setText(tr("Pick a launch with a trace to export its stepping."));
    return nullptr;
  }
  setPlaying(false);
  TraceDocument::SteppingExport defaults;
  defaults.programs = steps_;
  defaults.program = program_.value_or(document_->tracedPrograms().empty() ? ProgramId{0, 0, 0} : document_->tracedPrograms().front());
  defaults.op = std::max(0, ops_->currentIndex());
  defaults.gridView = tabs_->currentIndex() == 0;
  defaults.coloring = static_cast<TraceDocument::Coloring>(coloring_->currentData().toInt());
  if (exportDialog_) exportDialog_->close();
  exportDialog_ = new SteppingExportDialog(document_, defaults, this);
  exportDialog_->setAttribute(Qt::WA_DeleteOnClose);
  exportDialog_->show();
  return exportDialog_;
}

void InspectorPanel::refreshTiles() {
  if (!document_ || !program_) {
    tilesView_->setScene({}, shownLoading_ ? tr("Loading the trace\u2026") : tr("Pick a launch and a program."));
    variables_->clear();
    emit memoryOpLocated({}, 0);
    return;
  }
  QString error;
  viz::Scene scene = document_->tilesScene(*program_, std::max(0, ops_->currentIndex()), &error);
  tilesView_->setScene(std::move(scene), error);
  const auto sources = document_->memoryOpSources(*program_);
  const int op = ops_->currentIndex();
  if (op >= 0 && op < static_cast<int>(sources.size())) emit memoryOpLocated(sources[static_cast<size_t>(op)].first, sources[static_cast<size_t>(op)].second);
  else emit memoryOpLocated({}, 0);
}

void InspectorPanel::refreshProgramLabel() {
  const bool untraced = document_ && program_ && !document_->isTraced(*program_);
  QString text = document_ && program_ ? document_->programSummary(*program_) : QString();
  if (untraced) {
    const auto asked = requested_.value(cellId_);
    const bool requested = std::find(asked.begin(), asked.end(), *program_) != asked.end();
    // Why it was left out is the policy above the tabs.
    text += requested ? tr(" - it will be traced when this cell runs again.")
                      : tr(" - the trace kept %1 of the launch's %2 programs.").arg(document_->tracedPrograms().size()).arg(document_->totalPrograms());
    traceNext_->setEnabled(!requested);
  }
  traceNext_->setVisible(untraced);
  programLabel_->setText(text);
}

void InspectorPanel::requestTraceOfSelectedProgram() {
  if (!document_ || !program_ || document_->isTraced(*program_) || cellId_.isEmpty()) return;
  std::vector<ProgramId>& asked = requested_[cellId_];
  if (std::find(asked.begin(), asked.end(), *program_) == asked.end()) asked.push_back(*program_);
  // The worker takes at most 256 (execute_request's trace_pids); the oldest requests go first.
  constexpr size_t kMostRequested = 256;
  if (asked.size() > kMostRequested) asked.erase(asked.begin(), asked.end() - kMostRequested);
  emit tracedProgramsRequested(cellId_, asked);
  refreshProgramLabel();
}

void InspectorPanel::refreshSwizzle() {
  const bool fromTrace = swizzleSource_->currentIndex() == 0;
  for (QSpinBox* s : {rows_, cols_, group_}) s->setEnabled(!fromTrace);
  if (fromTrace) {
    if (document_) swizzleView_->setScene(document_->swizzleScene(window_->value()));
    else swizzleView_->setScene({}, tr("No trace to show; pick \"Row-major vs grouped\" to explore a grid."));
  } else {
    swizzleView_->setScene(TraceDocument::swizzleScene(rows_->value(), cols_->value(), group_->value(), window_->value()));
  }
}

}  // namespace tilescope::ui
