#pragma once
// The text document behind rendered markdown cells and HTML/markdown outputs. Qt's own documents
// read any path an <img> or ![](...) names, on the UI thread: /dev/zero filled memory until the app
// aborted, a FIFO froze the window in open(). Here images come only from resources added by the
// owner (a cell's attachments), data: URLs and regular files under the notebook's folder, at most
// kMaxImageBytes, read and decoded on a pool thread; the document lays itself out again when one
// arrives. Everything else (other paths, devices, pipes, the network, style sheets) shows a small
// placeholder, as does an image still being read.
#include <QHash>
#include <QImage>
#include <QSet>
#include <QTextDocument>
#include <QUrl>

namespace tilescope::ui {

class NotebookResourceDocument : public QTextDocument {
  Q_OBJECT
public:
  static constexpr qint64 kMaxImageBytes = 16 * 1024 * 1024;

  explicit NotebookResourceDocument(QObject* parent = nullptr);

  // Images may come from regular files in this folder and below; "" allows no local file at all.
  void setNotebookFolder(const QString& folder);
  QString notebookFolder() const { return folder_; }
  // Local images still being read (tests wait for 0).
  int pendingImageCount() const { return static_cast<int>(pending_.size()); }
  // What an image that is refused, broken or still being read shows (tests compare with it).
  static QImage placeholder();

signals:
  // A local image arrived and the document was laid out again: its height may have changed.
  void imageLoaded();

protected:
  QVariant loadResource(int type, const QUrl& name) override;

private:
  void startLoading(const QUrl& url);
  void imageArrived(const QUrl& url, quint64 generation, const QImage& image);

  QString folder_;
  QHash<QUrl, QImage> images_;  // read already; a null image was refused (kept, so it is not retried)
  QSet<QUrl> pending_;
  quint64 generation_ = 0;      // bumped when the folder changes: late results are dropped
};

}  // namespace tilescope::ui
