#pragma once
// A markdown cell: rendered (headings, lists, code, tables, images, math as plain text) until
// double-clicked or Enter is pressed, then a markdown editor; running it (Shift+Enter) renders again.
#include "ui/CellWidget.h"

class QTextBrowser;

namespace tilescope::ui {

class NotebookResourceDocument;

class MarkdownCellWidget : public CellWidget {
  Q_OBJECT
public:
  // startRendered false shows the source (a cell just turned into markdown, as in Jupyter).
  MarkdownCellWidget(const notebook::Cell& cell, const Appearance& appearance, const QString& baseDirectory,
                     bool startRendered, QWidget* parent = nullptr);

  notebook::CellType cellType() const override { return notebook::CellType::Markdown; }
  void enterEditMode() override;
  void render();
  bool isRendered() const { return rendered_; }
  void setAttachments(const nlohmann::json& attachments);
  void setBaseDirectory(const QString& directory);
  void setAppearance(const Appearance& appearance) override;
  QTextBrowser* renderer() const { return renderer_; }
  NotebookResourceDocument* document() const { return document_; }

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

private:
  void fitRendererHeight();
  void loadAttachmentImages();
  void useCodeFontForCode();

  QTextBrowser* renderer_;
  NotebookResourceDocument* document_;
  nlohmann::json attachments_;
  QString baseDirectory_;
  bool rendered_ = false;
};

}  // namespace tilescope::ui
