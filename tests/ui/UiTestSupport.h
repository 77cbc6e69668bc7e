#pragma once
// Helpers shared by the widget tests: temporary files, waiting on the event loop, and a recording
// ExecutionClient for tests that only check what would be run.
#include <QApplication>
#include <QFile>
#include <QString>
#include <QTest>
#include <functional>
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
