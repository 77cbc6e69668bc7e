#include "ui/MarkdownCellWidget.h"

#include <QEvent>
#include <QImage>
#include <QResizeEvent>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <vector>
#include <QUrl>
#include <QVBoxLayout>

#include "core/notebook/CellOutputs.h"
#include "ui/MarkdownText.h"
#include "ui/NotebookResourceDocument.h"
#include "ui/RichTextView.h"

namespace tilescope::ui {

MarkdownCellWidget::MarkdownCellWidget(const notebook::Cell& cell, const Appearance& appearance,
                                       const QString& baseDirectory, bool startRendered, QWidget* parent)
    : CellWidget(QString::fromStdString(cell.id), parent), attachments_(cell.attachments), baseDirectory_(baseDirectory) {
  setObjectName(QStringLiteral("markdownCell"));
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(kSelectionBarWidth + 4, 4, 8, 4);
  renderer_ = new QTextBrowser(this);
  renderer_->setObjectName(QStringLiteral("markdownRenderer"));
  renderer_->setFrameShape(QFrame::NoFrame);
  // Images only from the attachments and the notebook's folder, read off the UI thread.
  document_ = new NotebookResourceDocument(renderer_);
  renderer_->setDocument(document_);
  connect(document_, &NotebookResourceDocument::imageLoaded, this, [this] {
    if (rendered_) fitRendererHeight();
  });
  // Following a link would load its target into this cell, read on the UI thread: web and mail
  // links open outside, others do nothing.
  renderer_->setOpenLinks(false);
  connect(renderer_, &QTextBrowser::anchorClicked, this, &RichTextView::openWebLink);
  renderer_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  renderer_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // Keys belong to the notebook in command mode; the rendered text is only clicked and read.
  renderer_->setFocusPolicy(Qt::NoFocus);
  renderer_->viewport()->installEventFilter(this);
  column->addWidget(renderer_);
  auto* editor = new CodeEditor(CodeEditor::Language::Markdown, this);
  editor->setMarginWidth(0, 0);
  adoptEditor(editor);
  setSourceFromModel(QString::fromStdString(cell.source));
  column->addWidget(editor);
  setAppearance(appearance);
  if (startRendered) render();
  else {
    renderer_->hide();
    rendered_ = false;
  }
}

void MarkdownCellWidget::enterEditMode() {
  rendered_ = false;
  renderer_->hide();
  CellWidget::enterEditMode();
}

void MarkdownCellWidget::render() {
  rendered_ = true;
  const QString text = source().trimmed();
  QTextDocument* doc = renderer_->document();
  doc->setBaseUrl(QUrl::fromLocalFile(baseDirectory_ + '/'));
  document_->setNotebookFolder(baseDirectory_);
  if (text.isEmpty()) {
    renderer_->setHtml(QStringLiteral("<p style='color:%1'><i>%2</i></p>")
                           .arg(appearance_.theme.mutedText.name(),
                                tr("Empty markdown cell: double-click or press Enter to write.")));
  } else {
    renderer_->setMarkdown(markdownWithLiteralMath(source()));
  }
  useCodeFontForCode();
  // After setMarkdown(), which clears the document and with it every resource added before.
  loadAttachmentImages();
  editor()->hide();
  renderer_->show();
  fitRendererHeight();
}

void MarkdownCellWidget::useCodeFontForCode() {
  // Qt marks `code` and fenced blocks only as "fixed pitch", which most sans fonts ignore: give them
  // the editor's monospace font so code in prose looks like code in cells.
  QTextDocument* doc = renderer_->document();
  std::vector<std::pair<int, int>> ranges;
  for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
    const bool fenced = block.blockFormat().hasProperty(QTextFormat::BlockCodeFence);
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextFragment fragment = it.fragment();
      if (fenced || fragment.charFormat().fontFixedPitch()) ranges.emplace_back(fragment.position(), fragment.length());
    }
  }
  QTextCharFormat code;
  code.setFontFamilies({appearance_.editorFont.family()});
  QTextCursor cursor(doc);
  for (const auto& [position, length] : ranges) {
    cursor.setPosition(position);
    cursor.setPosition(position + length, QTextCursor::KeepAnchor);
    cursor.mergeCharFormat(code);
  }
}

void MarkdownCellWidget::setAttachments(const nlohmann::json& attachments) { attachments_ = attachments; }

void MarkdownCellWidget::setBaseDirectory(const QString& directory) {
  baseDirectory_ = directory;
  if (rendered_) render();
}

void MarkdownCellWidget::loadAttachmentImages() {
  // ![](attachment:name.png) refers to base64 data kept in the cell itself.
  if (!attachments_.is_object()) return;
  for (const auto& [name, bundle] : attachments_.items()) {
    if (!bundle.is_object()) continue;
    for (const auto& [mime, data] : bundle.items()) {
      if (!QString::fromStdString(mime).startsWith(QLatin1String("image/"))) continue;
      QImage image;
      if (image.loadFromData(QByteArray::fromBase64(QByteArray::fromStdString(notebook::joinLines(data)))))
        renderer_->document()->addResource(QTextDocument::ImageResource,
                                           QUrl(QStringLiteral("attachment:") + QString::fromStdString(name)), image);
    }
  }
  // Lay out again so images take their real size instead of the broken-image placeholder.
  renderer_->document()->markContentsDirty(0, renderer_->document()->characterCount());
}

void MarkdownCellWidget::setAppearance(const Appearance& appearance) {
  CellWidget::setAppearance(appearance);
  renderer_->setFont(appearance.markdownFont);
  renderer_->document()->setDefaultFont(appearance.markdownFont);
  QPalette palette = renderer_->palette();
  palette.setColor(QPalette::Base, Qt::transparent);
  palette.setColor(QPalette::Text, appearance.theme.text);
  palette.setColor(QPalette::Link, appearance.theme.link);
  renderer_->setPalette(palette);
  renderer_->viewport()->setAutoFillBackground(false);
  if (rendered_) render();
}

bool MarkdownCellWidget::eventFilter(QObject* watched, QEvent* event) {
  if (watched == renderer_->viewport()) {
    // The renderer gets its width from the notebook's layout after this cell's own resize event:
    // fit the height again once the renderer knows its width, or the first (narrow, tall) layout stays.
    if (event->type() == QEvent::Resize && rendered_) {
      const auto* resize = static_cast<QResizeEvent*>(event);
      if (resize->size().width() != resize->oldSize().width()) fitRendererHeight();
    }
    if (event->type() == QEvent::MouseButtonDblClick) {
      emit activated(cellId(), true);
      enterEditMode();
      return true;
    }
    if (event->type() == QEvent::MouseButtonPress) emit activated(cellId(), false);
  }
  return CellWidget::eventFilter(watched, event);
}

void MarkdownCellWidget::resizeEvent(QResizeEvent* event) {
  CellWidget::resizeEvent(event);
  if (rendered_) fitRendererHeight();
}

void MarkdownCellWidget::fitRendererHeight() {
  QTextDocument* doc = renderer_->document();
  const int width = renderer_->viewport()->width();
  if (width > 0) doc->setTextWidth(width);
  const int height = static_cast<int>(doc->size().height()) + 4;
  if (renderer_->height() != height) renderer_->setFixedHeight(height);
}

}  // namespace tilescope::ui
