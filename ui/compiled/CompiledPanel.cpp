#include "ui/compiled/CompiledPanel.h"

#include <QComboBox>
#include <algorithm>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/compiled/CodePane.h"

namespace tilescope::ui {
namespace {

using Pane = CompiledDocument::Pane;

// A pane with its title above it (and, for the IR, the pass selector beside the title).
QWidget* titled(const QString& title, CodePane* pane, QWidget* extra = nullptr) {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  auto* head = new QHBoxLayout;
  auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title));
  head->addWidget(label);
  if (extra) head->addWidget(extra, 1);
  else head->addStretch(1);
  layout->addLayout(head);
  layout->addWidget(pane, 1);
  return box;
}

}  // namespace

CompiledPanel::CompiledPanel(QWidget* parent)
    : QWidget(parent),
      watcher_(new QFutureWatcher<Result>(this)),
      sassWatcher_(new QFutureWatcher<std::shared_ptr<const CompiledDocument>>(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);

  auto* controls = new QHBoxLayout;
  kernel_ = new QComboBox;
  kernel_->setObjectName(QStringLiteral("compiledKernel"));
  kernel_->setToolTip(tr("The @triton.jit kernel of this notebook to compile"));
  signature_ = new QLineEdit;
  signature_->setObjectName(QStringLiteral("compiledSignature"));
  signature_->setPlaceholderText(tr("signature: *fp32,*fp32,i32,1024"));
  signature_->setToolTip(tr("The kernel's arguments in order: '*fp16' a pointer, 'i32' or 'fp32' a scalar ('i32:16' a "
                            "multiple of 16), a value for a constexpr"));
  warps_ = new QSpinBox;
  warps_->setRange(1, 32);
  warps_->setValue(4);
  warps_->setPrefix(tr("warps "));
  stages_ = new QSpinBox;
  stages_->setRange(1, 8);
  stages_->setValue(3);
  stages_->setPrefix(tr("stages "));
  arch_ = new QLineEdit;
  arch_->setPlaceholderText(tr("target (GPU's)"));
  arch_->setToolTip(tr("sm_80, sm_90, sm_90a, ...; empty: the GPU's, else sm_90"));
  arch_->setMaximumWidth(110);
  arch_->setMinimumWidth(50);
  compile_ = new QPushButton(tr("Compile"));
  keep_ = new QPushButton(tr("Keep for diff"));
  keep_->setToolTip(tr("Keep this compilation as the left side of the Diff tab; then change the specialization (or "
                       "edit the kernel) and compile again"));
  keep_->setEnabled(false);
  // Two rows, so the inspector dock keeps its narrow minimum width (widen it to read the panes).
  kernel_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  kernel_->setMinimumContentsLength(10);
  signature_->setMinimumWidth(60);
  auto* first = new QHBoxLayout;
  first->addWidget(kernel_);
  first->addWidget(signature_, 1);
  first->addWidget(arch_);
  first->addWidget(compile_);
  layout->addLayout(first);
  controls->addWidget(warps_);
  controls->addWidget(stages_);
  controls->addWidget(keep_);
  window_ = new QPushButton(tr("Open in window"));
  window_->setToolTip(tr("Five panes side by side want more room than the inspector: show this kernel in a window of its own"));
  controls->addWidget(window_);
  controls->addStretch(1);
  layout->addLayout(controls);

  auto* statusRow = new QHBoxLayout;
  status_ = new QLabel(tr("Pick a kernel (or a launch in the list above) and press Compile."));
  status_->setWordWrap(true);
  status_->setMinimumWidth(40);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  progress_ = new QProgressBar;
  progress_->setMaximumWidth(220);
  progress_->setMinimumWidth(40);
  progress_->setVisible(false);
  statusRow->addWidget(status_, 1);
  statusRow->addWidget(progress_);
  layout->addLayout(statusRow);

  source_ = new CodePane;
  ir_ = new CodePane;
  cuda_ = new CodePane;
  ptx_ = new CodePane;
  sass_ = new CodePane;
  source_->setObjectName(QStringLiteral("compiledSource"));
  ir_->setObjectName(QStringLiteral("compiledIr"));
  cuda_->setObjectName(QStringLiteral("compiledCuda"));
  ptx_->setObjectName(QStringLiteral("compiledPtx"));
  sass_->setObjectName(QStringLiteral("compiledSass"));
  irPass_ = new QComboBox;
  irPass_->setToolTip(tr("The IR after this pass of the GPU pipeline"));
  irPass_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  irPass_->setMinimumContentsLength(4);
  for (CodePane* p : {source_, ir_, cuda_, ptx_, sass_}) p->setMinimumWidth(30);
  auto* panes = new QSplitter(Qt::Horizontal);
  panes->addWidget(titled(tr("Source"), source_));
  panes->addWidget(titled(tr("IR"), ir_, irPass_));
  panes->addWidget(titled(tr("CUDA C++"), cuda_));
  panes->addWidget(titled(tr("PTX"), ptx_));
  panes->addWidget(titled(tr("SASS"), sass_));

  resources_ = new QPlainTextEdit;
  resources_->setReadOnly(true);
  diff_ = new QTableWidget(0, 3);
  diff_->setHorizontalHeaderLabels({tr("Figure"), tr("Kept"), tr("Current")});
  diff_->horizontalHeader()->setStretchLastSection(true);
  diff_->verticalHeader()->setVisible(false);
  diff_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto* below = new QTabWidget;
  below->addTab(resources_, tr("Resources"));
  below->addTab(diff_, tr("Diff"));

  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(panes);
  split->addWidget(below);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  layout->addWidget(split, 1);

  connect(compile_, &QPushButton::clicked, this, &CompiledPanel::compileNow);
  connect(signature_, &QLineEdit::returnPressed, this, &CompiledPanel::compileNow);
  connect(keep_, &QPushButton::clicked, this, &CompiledPanel::keepForDiff);
  connect(window_, &QPushButton::clicked, this, &CompiledPanel::openInWindow);
  connect(kernel_, &QComboBox::activated, this, [this] {
    suggestSignature();
    compileNow();
  });
  connect(irPass_, &QComboBox::currentIndexChanged, this, [this](int stage) {
    if (!document_ || stage < 0) return;
    ir_->setCode(document_->irText(stage));
    linkFrom(Pane::Source, source_->highlightedLines().value(0), true);
  });
  connect(watcher_, &QFutureWatcher<Result>::finished, this, &CompiledPanel::finished);
  connect(sassWatcher_, &QFutureWatcher<std::shared_ptr<const CompiledDocument>>::finished, this, &CompiledPanel::sassFinished);
  const std::pair<CodePane*, Pane> all[] = {{source_, Pane::Source}, {ir_, Pane::Ir}, {cuda_, Pane::Cuda}, {ptx_, Pane::Ptx},
                                           {sass_, Pane::Sass}};
  for (const auto& [widget, which] : all) {
    const Pane p = which;
    connect(widget, &CodePane::lineHovered, this, [this, p](int line) { linkFrom(p, line, false); });
    connect(widget, &CodePane::lineClicked, this, [this, p](int line) { linkFrom(p, line, false); });
  }
}

CompiledPanel::~CompiledPanel() {
  watcher_->waitForFinished();
  sassWatcher_->waitForFinished();
}

bool CompiledPanel::disassembling() const { return sassWatcher_->isRunning() || (document_ && document_->sassPending()); }

void CompiledPanel::setCellsProvider(std::function<CompiledDocument::Cells()> provider) {
  cells_ = std::move(provider);
  if (isVisible()) refillKernels();  // else when the tab shows: reading the cells parses them
}

bool CompiledPanel::busy() const { return running_; }

CodePane* CompiledPanel::pane(Pane p) const {
  switch (p) {
    case Pane::Source: return source_;
    case Pane::Ir: return ir_;
    case Pane::Cuda: return cuda_;
    case Pane::Ptx: return ptx_;
    case Pane::Sass: return sass_;
  }
  return nullptr;
}

void CompiledPanel::refillKernels() {
  const QString current = kernel_->currentText();
  const QStringList names = cells_ ? CompiledDocument::kernelsIn(cells_()) : QStringList();
  kernel_->clear();
  kernel_->addItems(names);
  if (names.contains(current)) kernel_->setCurrentText(current);
}

void CompiledPanel::suggestSignature() {
  if (!cells_) return;
  int warps = 4, stages = 3;
  const QString text = CompiledDocument::suggestSignature(cells_(), kernel_->currentText(), &warps, &stages);
  signature_->setText(text);
  warps_->setValue(warps);
  stages_->setValue(stages);
}

void CompiledPanel::showKernel(const QString& kernel) {
  // Reading the cells (parsing them for kernels and launches) waits until the tab is looked at.
  pendingKernel_ = kernel;
  if (isVisible()) applyPendingKernel();
}

void CompiledPanel::applyPendingKernel() {
  const QString kernel = pendingKernel_;
  pendingKernel_.clear();
  if (kernel.isEmpty()) return;
  refillKernels();
  if (kernel_->findText(kernel) < 0) {
    status_->setText(tr("Kernel '%1' is not defined in this notebook's cells.").arg(kernel));
    return;
  }
  if (kernel_->currentText() == kernel && document_ && document_->kernel() == kernel) return;
  kernel_->setCurrentText(kernel);
  suggestSignature();
  compileNow();
}

void CompiledPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (pendingKernel_.isEmpty() && !running_) refillKernels();  // cells may have changed while hidden
  applyPendingKernel();
}

void CompiledPanel::compileNow() {
  if (running_) {
    again_ = true;
    return;
  }
  if (kernel_->count() == 0) refillKernels();
  if (kernel_->currentText().isEmpty()) {
    status_->setText(tr("No @triton.jit kernel in this notebook's cells to compile."));
    return;
  }
  CompiledDocument::Request request;
  request.cells = cells_ ? cells_() : CompiledDocument::Cells();
  request.kernel = kernel_->currentText();
  request.signature = signature_->text();
  request.numWarps = warps_->value();
  request.numStages = stages_->value();
  request.arch = arch_->text().trimmed();
  request.sass = false;  // the other panes first: sassFinished() fills the SASS pane
  progress_->setRange(0, 6);
  progress_->setValue(0);
  progress_->setVisible(true);
  compile_->setEnabled(false);
  running_ = true;
  status_->setText(tr("Compiling %1...").arg(request.kernel));
  QPointer<QProgressBar> bar = progress_;
  QPointer<QLabel> label = status_;
  watcher_->setFuture(QtConcurrent::run([request, bar, label] {
    QElapsedTimer timer;
    timer.start();
    Result r;
    r.document = CompiledDocument::compile(
        request,
        [bar, label](QString step, int done, int total) {
          // Reported from the pool thread: the widgets change on the UI thread.
          QMetaObject::invokeMethod(
              bar.data(),
              [bar, label, step, done, total] {
                if (bar) {
                  bar->setRange(0, total);
                  bar->setValue(done);
                }
                if (label) label->setText(QObject::tr("Compiling: %1...").arg(step));
              },
              Qt::QueuedConnection);
        },
        &r.error);
    r.ms = timer.elapsed();
    return r;
  }));
}

void CompiledPanel::finished() {
  const Result r = watcher_->result();
  running_ = false;
  progress_->setVisible(false);
  compile_->setEnabled(true);
  if (!r.document) {
    status_->setText(tr("Cannot compile: %1").arg(r.error.trimmed()));
  } else {
    document_ = r.document;
    const QString cache = document_->cacheHit().isEmpty() ? tr("NVRTC ran") : tr("NVRTC's output from the %1 cache").arg(document_->cacheHit());
    status_->setText(tr("%1: compiled in %2 ms (%3). Hover or click a line to see what it became.")
                         .arg(document_->title())
                         .arg(r.ms)
                         .arg(cache));
    showDocument();
    if (document_->sassPending() && !sassWatcher_->isRunning()) {
      const std::shared_ptr<const CompiledDocument> doc = document_;
      sassWatcher_->setFuture(QtConcurrent::run([doc] { return CompiledDocument::withSass(*doc); }));
    }
  }
  emit compiled();
  if (again_) {
    again_ = false;
    compileNow();
  }
}

void CompiledPanel::sassFinished() {
  const std::shared_ptr<const CompiledDocument> withSass = sassWatcher_->result();
  // A later compile may have replaced the document meanwhile: its own SASS is asked for next.
  if (document_ && withSass && document_->sassPending() && withSass->title() == document_->title() &&
      withSass->cuda() == document_->cuda()) {
    const QList<int> lit = source_->highlightedLines();
    const bool keptIsCurrent = kept_ == document_;
    document_ = withSass;
    if (keptIsCurrent) kept_ = document_;
    sass_->setCode(document_->sass());
    if (!lit.isEmpty()) linkFrom(Pane::Source, lit.front(), false);
  }
  if (document_ && document_->sassPending()) {
    const std::shared_ptr<const CompiledDocument> doc = document_;
    sassWatcher_->setFuture(QtConcurrent::run([doc] { return CompiledDocument::withSass(*doc); }));
  }
}

void CompiledPanel::showDocument() {
  keep_->setEnabled(true);
  source_->setCode(document_->source(), document_->sourceFirstLine());
  const QSignalBlocker block(irPass_);
  irPass_->clear();
  irPass_->addItems(document_->irStages());
  irPass_->setCurrentIndex(irPass_->count() - 1);  // what the CUDA is generated from
  ir_->setCode(document_->irText(irPass_->currentIndex()));
  cuda_->setCode(document_->cuda());
  ptx_->setCode(document_->ptx());
  sass_->setCode(document_->sass());
  resources_->setPlainText(document_->resourcesText());
  refreshDiff();
}

CompiledPanel* CompiledPanel::openInWindow() {
  auto* w = new CompiledPanel;
  w->setWindowFlag(Qt::Window);
  w->setAttribute(Qt::WA_DeleteOnClose);
  w->setWindowTitle(tr("Compiled: %1").arg(kernel_->currentText()));
  w->window_->hide();
  w->setCellsProvider(cells_);
  w->refillKernels();
  w->kernel_->setCurrentText(kernel_->currentText());
  w->signature_->setText(signature_->text());
  w->warps_->setValue(warps_->value());
  w->stages_->setValue(stages_->value());
  w->arch_->setText(arch_->text());
  w->kept_ = kept_;
  w->resize(std::max(width(), 1600), std::max(height(), 900));
  w->show();
  if (!kernel_->currentText().isEmpty()) w->compileNow();
  return w;
}

void CompiledPanel::keepForDiff() {
  if (!document_) return;
  kept_ = document_;
  refreshDiff();
  status_->setText(tr("Kept %1 for the diff: change the specialization or the kernel and compile again.").arg(kept_->title()));
}

void CompiledPanel::refreshDiff() {
  diff_->setRowCount(0);
  if (!kept_ || !document_) return;
  const QList<QStringList> rows = CompiledDocument::compare(*kept_, *document_);
  diff_->setRowCount(static_cast<int>(rows.size()));
  for (int i = 0; i < rows.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      auto* item = new QTableWidgetItem(rows[i].value(c));
      if (c > 0 && rows[i].value(1) != rows[i].value(2)) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
      }
      diff_->setItem(i, c, item);
    }
  }
  diff_->resizeColumnsToContents();
}

void CompiledPanel::linkFrom(Pane origin, int line, bool scrollOrigin) {
  if (!document_) return;
  const int irStage = irPass_->currentIndex();
  const int sourceLine = document_->sourceLineOf(origin, line, irStage);
  for (Pane p : {Pane::Source, Pane::Ir, Pane::Cuda, Pane::Ptx, Pane::Sass}) {
    if (p == Pane::Sass && !document_->hasSass()) continue;
    if (p == Pane::Ptx && !document_->hasPtx()) continue;
    pane(p)->highlightLines(document_->linesFor(p, sourceLine, irStage), p != origin || scrollOrigin);
  }
}

}  // namespace tilescope::ui
