#include "ui/OutputArea.h"

#include <QBuffer>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>
#include <QVBoxLayout>
#include <algorithm>

#include "core/notebook/CellOutputs.h"
#include "ui/BenchmarkPlot.h"
#include "ui/FittedImageLabel.h"
#include "ui/RichTextView.h"

namespace tilescope::ui {
using nlohmann::json;

namespace {
QString qstr(const std::string& s) { return QString::fromStdString(s); }

QString truncatedStream(const QString& text) {
  if (text.size() <= OutputArea::kMaxShownCharacters) return text;
  const qsizetype hidden = text.size() - OutputArea::kMaxShownCharacters;
  return QObject::tr("[... %1 earlier characters not shown ...]\n").arg(hidden) +
         text.right(OutputArea::kMaxShownCharacters);
}

QPixmap imageFromBundle(const json& data, const Theme& theme) {
  // A benchmark is drawn live in the current theme; its saved image/png is for other viewers.
  if (data.contains(BenchmarkPlot::kMimeType))
    if (const QImage plot = BenchmarkPlot::render(data[BenchmarkPlot::kMimeType], theme); !plot.isNull())
      return QPixmap::fromImage(plot);
  for (const char* mime : {"image/png", "image/jpeg", "image/gif"}) {
    if (!data.contains(mime)) continue;
    const QByteArray base64 = QByteArray::fromStdString(notebook::joinLines(data[mime]));
    QImage image;
    if (image.loadFromData(QByteArray::fromBase64(base64))) return QPixmap::fromImage(image);
  }
  if (data.contains("image/svg+xml")) {
    QSvgRenderer svg(QByteArray::fromStdString(notebook::joinLines(data["image/svg+xml"])));
    if (svg.isValid()) {
      QPixmap pixmap(svg.defaultSize().isEmpty() ? QSize(400, 300) : svg.defaultSize());
      pixmap.fill(Qt::transparent);
      QPainter painter(&pixmap);
      svg.render(&painter);
      return pixmap;
    }
  }
  return {};
}
}  // namespace

OutputArea::OutputArea(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("outputArea"));
  layout_ = new QVBoxLayout(this);
  layout_->setContentsMargins(0, 2, 0, 2);
  layout_->setSpacing(2);
  setVisible(false);
}

void OutputArea::setOutputs(const json& outputs) {
  const size_t count = outputs.is_array() ? outputs.size() : 0;
  while (shown_.size() > count) {
    delete widgets_.back();
    widgets_.pop_back();
    shown_.pop_back();
    plainTexts_.pop_back();
  }
  for (size_t i = 0; i < count; ++i) {
    const json& output = outputs[i];
    if (i < shown_.size()) {
      if (shown_[i] == output) continue;
      QWidget* fresh = render(output);
      layout_->replaceWidget(widgets_[i], fresh);
      delete widgets_[i];
      widgets_[i] = fresh;
      shown_[i] = output;
      plainTexts_[i] = fresh->property("plainText").toString();
    } else {
      QWidget* widget = render(output);
      layout_->addWidget(widget);
      widgets_.push_back(widget);
      shown_.push_back(output);
      plainTexts_.push_back(widget->property("plainText").toString());
    }
  }
  setVisible(count > 0);
}

const json* OutputArea::benchmarkSpec(int index) const {
  if (index < 0 || index >= static_cast<int>(shown_.size())) return nullptr;
  const json& output = shown_[static_cast<size_t>(index)];
  const auto data = output.find("data");
  if (data == output.end() || !data->is_object()) return nullptr;
  const auto spec = data->find(BenchmarkPlot::kMimeType);
  return spec == data->end() ? nullptr : &*spec;
}

QMenu* OutputArea::createBenchmarkMenu(int index) {
  if (!benchmarkSpec(index)) return nullptr;
  auto* menu = new QMenu(this);
  for (const auto& [label, suffix] : {std::pair{tr("Export chart as PNG..."), QStringLiteral("png")},
                                      std::pair{tr("Export chart as SVG..."), QStringLiteral("svg")},
                                      std::pair{tr("Export chart as PDF..."), QStringLiteral("pdf")},
                                      std::pair{tr("Export data as CSV (full precision)..."), QStringLiteral("csv")}})
    menu->addAction(label, this, [this, index, suffix = suffix] {
      const json* spec = benchmarkSpec(index);
      if (!spec) return;
      QString path = QFileDialog::getSaveFileName(this, tr("Export benchmark"), QStringLiteral("benchmark.%1").arg(suffix),
                                                  tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
      if (path.isEmpty()) return;
      if (!path.endsWith(QLatin1Char('.') + suffix, Qt::CaseInsensitive)) path += QLatin1Char('.') + suffix;
      QString error;
      if (!exportBenchmark(index, path, &error)) QMessageBox::warning(this, tr("Export benchmark"), error);
    });
  return menu;
}

bool OutputArea::exportBenchmark(int index, const QString& path, QString* error) const {
  const json* spec = benchmarkSpec(index);
  if (!spec) {
    if (error) *error = tr("Output %1 is not a benchmark chart").arg(index + 1);
    return false;
  }
  return BenchmarkPlot::save(*spec, appearance_.theme, path, error);
}

QWidget* OutputArea::render(const json& output) {
  const std::string type = notebook::textField(output, "output_type");
  QPixmap image;
  if (type == "execute_result" || type == "display_data") {
    const json data = notebook::objectField(output, "data");
    image = imageFromBundle(data, appearance_.theme);
    // HTML and markdown go to a document that reads no local file (NotebookResourceDocument): a
    // QLabel's own document reads any path an <img> names, on this thread.
    if (image.isNull() && (data.contains("text/markdown") || data.contains("text/html"))) {
      const bool markdown = data.contains("text/markdown");
      auto* view = new RichTextView(qstr(notebook::joinLines(data[markdown ? "text/markdown" : "text/html"])),
                                    markdown ? RichTextView::Format::Markdown : RichTextView::Format::Html, this);
      // Its "plainText" is QTextEdit's own property (setting it would replace the rich text).
      style(view, output);
      connect(view, &RichTextView::inspectorLinkActivated, this, &OutputArea::inspectorLinkActivated);
      return view;
    }
  }
  QLabel* label = image.isNull() ? new QLabel(this) : new FittedImageLabel(image, this);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  label->setWordWrap(true);
  label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  label->setOpenExternalLinks(true);
  if (type == "execute_result" || type == "display_data") {
    if (!image.isNull()) {
      label->setWordWrap(false);
      const json data = notebook::objectField(output, "data");
      if (data.contains(BenchmarkPlot::kMimeType)) {
        // Screen readers and tooltips get the chart's title, "(simulated)" included.
        const QString description = tr("Benchmark chart: %1").arg(BenchmarkPlot::title(data[BenchmarkPlot::kMimeType]));
        label->setAccessibleName(description);
        label->setToolTip(description);
        // Right-click exports the chart (PNG/SVG/PDF) or its numbers (CSV).
        label->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(label, &QLabel::customContextMenuRequested, this, [this, label](const QPoint& at) {
          const auto it = std::find(widgets_.begin(), widgets_.end(), label);
          if (it == widgets_.end()) return;
          QMenu* menu = createBenchmarkMenu(static_cast<int>(it - widgets_.begin()));
          menu->setAttribute(Qt::WA_DeleteOnClose);
          menu->popup(label->mapToGlobal(at));
        });
      }
    } else {
      label->setTextFormat(Qt::PlainText);
      label->setText(truncatedStream(qstr(notebook::outputPlainText(output))));
    }
  } else if (type == "error") {
    // Rich text only for the links: the text itself is escaped, and pre-wrap keeps its spacing.
    const QString text = truncatedStream(qstr(notebook::outputPlainText(output)));
    label->setTextFormat(Qt::RichText);
    label->setOpenExternalLinks(false);
    label->setText(TracebackLink::linkify(text));
    label->setProperty("plainText", text);
    connect(label, &QLabel::linkActivated, this, [this](const QString& href) {
      if (const std::optional<TracebackLink> link = TracebackLink::parse(href)) emit locationActivated(*link);
    });
  } else {
    label->setTextFormat(Qt::PlainText);
    QString text = qstr(notebook::outputPlainText(output));
    if (text.endsWith('\n')) text.chop(1);
    label->setText(truncatedStream(text));
  }
  if (!label->property("plainText").isValid()) label->setProperty("plainText", label->text());
  style(label, output);
  return label;
}

void OutputArea::style(QWidget* widget, const json& output) const {
  const Theme& t = appearance_.theme;
  const std::string type = notebook::textField(output, "output_type");
  const bool isError = type == "error";
  const bool isStderr = type == "stream" && notebook::textField(output, "name") == "stderr";
  widget->setFont(appearance_.outputFont);
  QPalette palette = widget->palette();
  palette.setColor(QPalette::WindowText, isError ? t.errorText : t.text);
  palette.setColor(QPalette::Text, isError ? t.errorText : t.text);  // rich outputs' text
  palette.setColor(QPalette::Base, t.cellBackground);
  palette.setColor(QPalette::Link, t.link);
  palette.setColor(QPalette::Window, isError ? t.errorBackground : isStderr ? t.stderrBackground : t.cellBackground);
  widget->setPalette(palette);
  widget->setAutoFillBackground(isError || isStderr);
  widget->setContentsMargins(isError || isStderr ? 6 : 2, 2, 2, 2);
  widget->setProperty("outputType", QString::fromStdString(type));
}

void OutputArea::setAppearance(const Appearance& appearance) {
  const bool themeChanged = appearance.theme.name != appearance_.theme.name;
  appearance_ = appearance;
  if (themeChanged) {
    // Plots are drawn in the theme's colours: draw them again.
    const json outputs(shown_);
    for (QWidget* widget : widgets_) delete widget;
    widgets_.clear();
    shown_.clear();
    plainTexts_.clear();
    setOutputs(outputs);
    return;
  }
  for (size_t i = 0; i < widgets_.size(); ++i) style(widgets_[i], shown_[i]);
}

QString OutputArea::plainText() const {
  QStringList parts;
  for (const QString& text : plainTexts_) parts << text;
  return parts.join('\n');
}

QWidget* OutputArea::outputWidget(int index) const {
  return index >= 0 && index < outputCount() ? widgets_[static_cast<size_t>(index)] : nullptr;
}

QLabel* OutputArea::outputLabel(int index) const { return qobject_cast<QLabel*>(outputWidget(index)); }

QStringList OutputArea::links() const {
  QStringList out;
  for (size_t i = 0; i < shown_.size(); ++i) {
    if (notebook::textField(shown_[i], "output_type") != "error") continue;
    for (const QString& line : plainTexts_[i].split('\n'))
      if (const std::optional<TracebackLink> link = TracebackLink::fromTracebackLine(line)) out << link->href();
  }
  return out;
}

}  // namespace tilescope::ui
