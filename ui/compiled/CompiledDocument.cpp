#include "ui/compiled/CompiledDocument.h"

#include "core/compiled/CompiledView.h"
#include "core/compiled/ResourceComparison.h"
#include "core/compiled/Signature.h"
#include "core/syntax/Parser.h"

namespace tilescope::ui {
namespace {

// The cells as one program; cells that do not parse (a half-typed edit) are left out.
std::shared_ptr<lang::Program> programOf(const CompiledDocument::Cells& cells) {
  auto program = std::make_shared<lang::Program>();
  for (const auto& [name, code] : cells) {
    auto file = std::make_shared<lang::SourceFile>(name.toStdString(), code.toStdString());
    lang::ParseResult parsed = lang::parseModule(file);
    if (parsed.ok() && parsed.module) program->addModule(std::shared_ptr<const lang::Module>(std::move(parsed.module)));
  }
  return program;
}

compiled::Pane corePane(CompiledDocument::Pane p) {
  switch (p) {
    case CompiledDocument::Pane::Cuda: return compiled::Pane::Cuda;
    case CompiledDocument::Pane::Ptx: return compiled::Pane::Ptx;
    case CompiledDocument::Pane::Sass: return compiled::Pane::Sass;
    default: return compiled::Pane::Ir;
  }
}

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

CompiledDocument::~CompiledDocument() = default;

QStringList CompiledDocument::kernelsIn(const Cells& cells) {
  QStringList out;
  const auto program = programOf(cells);
  for (const lang::JitFunctionInfo& fn : program->jitFunctions())
    if (!fn.shadowed && !out.contains(q(fn.name))) out << q(fn.name);
  return out;
}

QString CompiledDocument::suggestSignature(const Cells& cells, const QString& kernel, int* numWarps, int* numStages) {
  const auto program = programOf(cells);
  ir::KernelOptions options;
  const auto text = compiled::suggestSignature(*program, kernel.toStdString(), &options);
  if (numWarps) *numWarps = options.numWarps;
  if (numStages) *numStages = options.numStages;
  return text ? q(*text) : QString();
}

std::shared_ptr<const CompiledDocument> CompiledDocument::compile(const Request& request,
                                                                  const std::function<void(QString, int, int)>& progress,
                                                                  QString* error) {
  std::string why;
  auto spec = compiled::parseSignature(request.signature.toStdString(), &why);
  if (!spec) {
    if (error) *error = QStringLiteral("signature: ") + q(why);
    return nullptr;
  }
  spec->options.numWarps = request.numWarps;
  spec->options.numStages = request.numStages;
  compiled::CompileRequest r;
  r.program = programOf(request.cells);
  r.kernel = request.kernel.toStdString();
  r.spec = *spec;
  r.arch = request.arch.toStdString();
  r.driverResources = request.driverResources;
  r.disassemble = request.sass;
  compiled::CompileOutcome out = compiled::compileView(r, [&](const std::string& step, int done, int total) {
    if (progress) progress(q(step), done, total);
  });
  if (!out.view) {
    if (error) *error = q(out.error);
    return nullptr;
  }
  std::shared_ptr<CompiledDocument> doc(new CompiledDocument);
  doc->view_ = std::move(out.view);
  return doc;
}

bool CompiledDocument::sassPending() const { return !view_->sass && view_->sassMissing.empty(); }

std::shared_ptr<const CompiledDocument> CompiledDocument::withSass(const CompiledDocument& document) {
  auto view = std::make_shared<compiled::CompiledView>(*document.view_);
  compiled::disassembleInto(*view);
  std::shared_ptr<CompiledDocument> doc(new CompiledDocument);
  doc->view_ = std::move(view);
  return doc;
}

QString CompiledDocument::kernel() const { return q(view_->kernel); }
QString CompiledDocument::title() const {
  return QStringLiteral("%1[%2] num_warps=%3 num_stages=%4 %5")
      .arg(q(view_->kernel), q(view_->signature))
      .arg(view_->numWarps)
      .arg(view_->numStages)
      .arg(q(view_->arch));
}
QString CompiledDocument::source() const { return q(view_->source); }
int CompiledDocument::sourceFirstLine() const { return view_->sourceFirstLine; }
QStringList CompiledDocument::irStages() const {
  QStringList out;
  for (const compiled::IrStage& s : view_->ir) out << q(s.name);
  return out;
}
QString CompiledDocument::irText(int stage) const {
  return stage >= 0 && stage < static_cast<int>(view_->ir.size()) ? q(view_->ir[static_cast<size_t>(stage)].text) : QString();
}
QString CompiledDocument::cuda() const { return q(view_->cuda); }
bool CompiledDocument::hasPtx() const { return !view_->ptx.empty(); }
QString CompiledDocument::ptx() const { return hasPtx() ? q(view_->ptx) : q(view_->ptxMissing); }
bool CompiledDocument::hasSass() const { return view_->sass.has_value(); }
QString CompiledDocument::sass() const {
  if (sassPending()) return QStringLiteral("disassembling...");
  if (!view_->sass) return q(view_->sassMissing);
  QString text = q(view_->sass->text);
  if (!view_->sass->hasLineInfo) text.prepend(QStringLiteral("// cuobjdump gives no line information: lines are not linked\n"));
  return text;
}
QString CompiledDocument::cacheHit() const { return q(view_->cacheHit); }

QString CompiledDocument::resourcesText() const {
  QStringList lines;
  lines << title();
  lines << QStringLiteral("%1 threads per program").arg(view_->threads);
  for (const compiled::ResourceFigures& r : view_->resources) {
    QString spills = r.spillStoreBytes < 0 ? QString()
                                           : QStringLiteral(", spills %1 B stored / %2 B loaded").arg(r.spillStoreBytes).arg(r.spillLoadBytes);
    lines << QStringLiteral("%1: %2 registers per thread%3, %4 B local per thread, shared %5 B static + %6 B dynamic")
                 .arg(r.from == "driver" ? QStringLiteral("Driver (loaded kernel)") : QStringLiteral("ptxas"))
                 .arg(r.registers)
                 .arg(spills)
                 .arg(r.localBytes)
                 .arg(r.staticSharedBytes)
                 .arg(r.dynamicSharedBytes);
    lines << QStringLiteral("  occupancy on %1: %2").arg(q(view_->arch), q(r.occupancy.str()));
  }
  if (view_->resources.empty()) lines << q(view_->ptxMissing);
  if (!view_->driverMissing.empty()) lines << q(view_->driverMissing);
  if (view_->tensorCoreInstructions.empty()) {
    lines << QStringLiteral("Tensor cores: none used");
  } else {
    lines << QStringLiteral("Tensor-core instructions in the PTX:");
    for (const auto& [op, n] : view_->tensorCoreInstructions) lines << QStringLiteral("  %1 x %2").arg(n).arg(q(op));
  }
  for (const std::string& w : view_->warnings) lines << q(w);
  return lines.join(QLatin1Char('\n'));
}

QList<int> CompiledDocument::linesFor(Pane pane, int sourceLine, int irStage) const {
  QList<int> out;
  if (sourceLine <= 0) return out;
  const compiled::SourceLine s{view_->sourceFile, sourceLine};
  if (pane == Pane::Source) return {sourceLine - view_->sourceFirstLine + 1};
  if (pane == Pane::Ir) {
    if (irStage < 0 || irStage >= static_cast<int>(view_->ir.size())) return out;
    const auto& lines = view_->ir[static_cast<size_t>(irStage)].lines;
    for (size_t i = 0; i < lines.size(); ++i)
      if (lines[i] == s) out << static_cast<int>(i) + 1;
    return out;
  }
  for (int l : view_->map.linesFor(corePane(pane), s)) out << l;
  return out;
}

int CompiledDocument::sourceLineOf(Pane pane, int line, int irStage) const {
  std::optional<compiled::SourceLine> s;
  if (pane == Pane::Source) return line > 0 ? view_->sourceFirstLine + line - 1 : 0;
  if (pane == Pane::Ir) {
    if (irStage >= 0 && irStage < static_cast<int>(view_->ir.size())) {
      const auto& lines = view_->ir[static_cast<size_t>(irStage)].lines;
      if (line >= 1 && line <= static_cast<int>(lines.size()) && lines[static_cast<size_t>(line) - 1].valid())
        s = lines[static_cast<size_t>(line) - 1];
    }
  } else {
    s = view_->map.sourceOf(corePane(pane), line);
  }
  return s && s->file == view_->sourceFile ? s->line : 0;
}

QList<QStringList> CompiledDocument::compare(const CompiledDocument& left, const CompiledDocument& right) {
  QList<QStringList> out;
  for (const compiled::ComparisonRow& r : compiled::compareViews(*left.view_, *right.view_))
    out << QStringList{q(r.figure), q(r.left), q(r.right)};
  return out;
}

}  // namespace tilescope::ui
