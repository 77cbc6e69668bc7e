#include "ui/NotebookResourceDocument.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

namespace tilescope::ui {
namespace {
// QImageReader refuses pictures that would decode into more than its allocation limit (Qt's
// default, application-wide), so a small file cannot become a huge picture either.
QImage decodeImage(const QByteArray& bytes) {
  QBuffer buffer;
  buffer.setData(bytes);
  buffer.open(QIODevice::ReadOnly);
  return QImageReader(&buffer).read();
}

// Runs on a pool thread. The image at path if it is a regular file inside folder (after following
// links) of at most kMaxImageBytes, else a null image.
QImage readImageInFolder(const QString& folder, const QString& path) {
  const QString canonicalFolder = QFileInfo(folder).canonicalFilePath();
  const QString canonical = QFileInfo(path).canonicalFilePath();
  if (canonicalFolder.isEmpty() || canonical.isEmpty()) return {};
  const QString prefix = canonicalFolder.endsWith('/') ? canonicalFolder : canonicalFolder + '/';
  if (!canonical.startsWith(prefix)) return {};
  // O_NONBLOCK: a FIFO opens at once instead of waiting for a writer, and is refused just below.
  const int fd = ::open(QFile::encodeName(canonical).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) return {};
  struct stat info {};
  QByteArray bytes;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size <= NotebookResourceDocument::kMaxImageBytes) {
    bytes.resize(static_cast<qsizetype>(info.st_size));
    qsizetype got = 0;
    while (got < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + got, static_cast<size_t>(bytes.size() - got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += n;
    }
    bytes.truncate(got);
  }
  ::close(fd);
  return bytes.isEmpty() ? QImage() : decodeImage(bytes);
}

// Stands for an image not (yet) shown. Never an empty answer: for those, Qt's image handler loads
// the src itself with QImage::load(), here, on the UI thread, bypassing loadResource().
QImage placeholderImage() {
  static const QImage placeholder = [] {
    QImage image(16, 16, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setPen(QColor(150, 150, 150));
    painter.drawRect(0, 0, 15, 15);
    painter.drawLine(3, 12, 12, 3);
    return image;
  }();
  return placeholder;
}

// data:[<type>][;base64],<payload>: the bytes are in the text already, only their size is capped.
QImage imageFromDataUrl(const QUrl& url) {
  const QString spec = url.path(QUrl::FullyDecoded);
  const qsizetype comma = spec.indexOf(',');
  if (comma < 0 || spec.size() - comma > NotebookResourceDocument::kMaxImageBytes * 4 / 3 + 4) return {};
  const QString header = spec.left(comma);
  const QByteArray payload = spec.mid(comma + 1).toUtf8();
  return decodeImage(header.endsWith(QLatin1String(";base64"), Qt::CaseInsensitive) ? QByteArray::fromBase64(payload)
                                                                                       : payload);
}
}  // namespace

NotebookResourceDocument::NotebookResourceDocument(QObject* parent) : QTextDocument(parent) {}

QImage NotebookResourceDocument::placeholder() { return placeholderImage(); }

void NotebookResourceDocument::setNotebookFolder(const QString& folder) {
  if (folder == folder_) return;
  folder_ = folder;
  images_.clear();
  pending_.clear();
  ++generation_;
}

QVariant NotebookResourceDocument::loadResource(int type, const QUrl& name) {
  // The base class is never asked: it would read the file itself, here, on the UI thread.
  if (type != QTextDocument::ImageResource) return {};
  if (name.scheme() == QLatin1String("data")) {
    const QImage image = imageFromDataUrl(name);
    return image.isNull() ? placeholderImage() : image;
  }
  if (!name.isLocalFile() || folder_.isEmpty()) return placeholderImage();
  if (const auto known = images_.constFind(name); known != images_.cend())
    return known->isNull() ? placeholderImage() : *known;
  if (!pending_.contains(name)) startLoading(name);
  return placeholderImage();  // until it arrives
}

void NotebookResourceDocument::startLoading(const QUrl& url) {
  pending_.insert(url);
  QtConcurrent::run(readImageInFolder, folder_, url.toLocalFile())
      .then(this, [this, url, generation = generation_](const QImage& image) {
        // A read that finished before this continuation was attached runs it at once, inside the
        // layout that asked: laying out again from there crashes. Always apply from the event loop.
        QMetaObject::invokeMethod(
            this, [this, url, generation, image] { imageArrived(url, generation, image); }, Qt::QueuedConnection);
      });
}

void NotebookResourceDocument::imageArrived(const QUrl& url, quint64 generation, const QImage& image) {
  if (generation != generation_) return;
  pending_.remove(url);
  images_.insert(url, image);
  if (image.isNull()) return;
  markContentsDirty(0, characterCount());
  emit imageLoaded();
}

}  // namespace tilescope::ui
