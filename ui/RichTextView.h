#pragma once
// A rich (HTML or markdown) output under a code cell: read-only text, as tall as its content, with
// images only from data: URLs (NotebookResourceDocument without a folder: an output never reads
// local files), links to the web opened outside, inspector links (InspectorLink) handed on as a
// signal, no scroll bars of its own.
#include <QTextBrowser>

#include "ui/InspectorLink.h"

namespace tilescope::ui {

class NotebookResourceDocument;

class RichTextView : public QTextBrowser {
  Q_OBJECT
public:
  enum class Format { Html, Markdown };
  RichTextView(const QString& text, Format format, QWidget* parent = nullptr);

  NotebookResourceDocument* resourceDocument() const { return document_; }
  // Web and mail links open in the desktop's browser or mail program; any other link does nothing
  // (following it inside a QTextBrowser would read its target on the UI thread).
  static void openWebLink(const QUrl& url);

signals:
  // A "tilescope:inspect?..." link was clicked.
  void inspectorLinkActivated(const tilescope::ui::InspectorLink& link);

protected:
  void resizeEvent(QResizeEvent* event) override;

private:
  void fitHeight();

  NotebookResourceDocument* document_;
};

}  // namespace tilescope::ui
