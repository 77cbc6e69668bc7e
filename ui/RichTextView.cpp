#include "ui/RichTextView.h"

#include <QDesktopServices>
#include <QResizeEvent>

#include "ui/NotebookResourceDocument.h"

namespace tilescope::ui {

RichTextView::RichTextView(const QString& text, Format format, QWidget* parent) : QTextBrowser(parent) {
  document_ = new NotebookResourceDocument(this);
  setDocument(document_);
  setFrameShape(QFrame::NoFrame);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  setOpenLinks(false);
  connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (const std::optional<InspectorLink> link = InspectorLink::parse(url)) emit inspectorLinkActivated(*link);
    else openWebLink(url);
  });
  connect(document_, &NotebookResourceDocument::imageLoaded, this, &RichTextView::fitHeight);
  if (format == Format::Markdown) setMarkdown(text);
  else setHtml(text);
  fitHeight();
}

void RichTextView::openWebLink(const QUrl& url) {
  if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https") ||
      url.scheme() == QLatin1String("mailto"))
    QDesktopServices::openUrl(url);
}

void RichTextView::resizeEvent(QResizeEvent* event) {
  QTextBrowser::resizeEvent(event);
  if (event->size().width() != event->oldSize().width()) fitHeight();
}

void RichTextView::fitHeight() {
  const int width = viewport()->width();
  if (width > 0) document_->setTextWidth(width);
  const int height = static_cast<int>(document_->size().height()) + 4;
  if (this->height() != height) setFixedHeight(height);
}

}  // namespace tilescope::ui
