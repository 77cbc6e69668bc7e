#pragma once
// Helpers shared by the widget tests: temporary files, waiting on the event loop, and a recording
// ExecutionClient for tests that only check what would be run.
#include <QApplication>
#include <QFile>
#include <QString>
#include <QTest>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "ui/ExecutionClient.h"

namespace tilescope::testing {

inline QByteArray readBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline void writeBytes(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  if (f.open(QIODevice::WriteOnly | QIODevice::Truncate)) f.write(bytes);
}

// Spins the event loop until the condition holds; false after timeoutMs.
inline bool waitUntil(const std::function<bool()>& condition, int timeoutMs = 10000) {
  return QTest::qWaitFor(condition, timeoutMs);
}

// For tests of code that must never open a FIFO in blocking mode on the UI thread: if something
// does, it would wait forever. After 10 s this keeps opening the pipe for writing, which frees every
// such open, and rescued() says it had to. Call finish() as soon as the code under test returned.
class PipeRescue {
public:
  explicit PipeRescue(QByteArray fifoPath)
      : path_(std::move(fifoPath)), writer_([this] {
          std::unique_lock lock(mutex_);
          if (finished_.wait_for(lock, std::chrono::seconds(10), [this] { return done_; })) return;
          while (!finished_.wait_for(lock, std::chrono::milliseconds(50), [this] { return done_; })) {
            const int fd = ::open(path_.constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) {
              rescued_ = true;
              ::close(fd);
            }
          }
        }) {}
  ~PipeRescue() { finish(); }
  bool rescued() const { return rescued_; }
  void finish() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    finished_.notify_all();
    if (writer_.joinable()) writer_.join();
  }

private:
  QByteArray path_;
  std::mutex mutex_;
  std::condition_variable finished_;
  bool done_ = false;
  std::atomic<bool> rescued_ = false;
  std::thread writer_;
};

// Remembers every request instead of running anything.
class RecordingClient : public ui::ExecutionClient {
public:
  struct Run {
    QString cellId;
    QString code;
    ui::Backend backend;
  };
  std::vector<Run> runs;
  int interrupts = 0;
  int restarts = 0;

  void runCell(const QString& cellId, const QString& code, ui::Backend backend) override {
    runs.push_back({cellId, code, backend});
  }
  void interrupt() override { ++interrupts; }
  void restart() override { ++restarts; }
  bool isBusy() const override { return false; }
  // Finishes every recorded run as if the worker had answered.
  void finishAll() {
    for (const Run& run : std::exchange(runs, {})) emit cellFinished(run.cellId, ui::CellRunStatus::Ok);
  }
};

}  // namespace tilescope::testing
