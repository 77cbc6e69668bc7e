#pragma once
// ExecutionClient that runs cells in a `tilescope-cli worker` child process (docs/PROTOCOL.md), so an
// endless loop or a crash in user code never freezes or kills the window. Everything happens on the
// UI thread through QProcess signals; nothing here blocks. The worker may run on another machine: then
// the process is the system ssh client (docs/PROTOCOL.md, "Remote workers"), started with an argument
// list, and a connection that fails before the worker's hello is reported with what to do, not retried.
#include <QElapsedTimer>
#include <QPointer>
#include <QProcess>
#include <QTimer>
#include <deque>
#include <memory>
#include <optional>

#include "ui/ExecutionClient.h"
#include "ui/RunOnTarget.h"

namespace tilescope::util {
class FrameDecoder;
}

namespace tilescope::ui {

class WorkerProcessClient : public ExecutionClient {
  Q_OBJECT
public:
  enum class State { NotStarted, Starting, Idle, Busy, Dead };

  explicit WorkerProcessClient(QString program = defaultWorkerProgram(), QObject* parent = nullptr);
  ~WorkerProcessClient() override;

  // tilescope-cli next to the running executable (installed layout), else the one of this build tree.
  static QString defaultWorkerProgram();

  void start();  // starts the worker if none runs; runCell() also does this
  // Where cells run from now on. A change ends the current worker (its running and queued cells are
  // aborted); the next runCell() or start() starts one there.
  void setRunOn(const RunOnTarget& target);
  const RunOnTarget& runOn() const { return runOn_; }
  void runCell(const QString& cellId, const QString& code, Backend backend) override;
  void interrupt() override;
  void restart() override;
  bool isBusy() const override { return running_.has_value() || !queue_.empty(); }

  State state() const { return state_; }
  qint64 workerPid() const;
  QString executorName() const { return executorName_; }
  // How long an interrupted cell may take to stop before the worker is killed and restarted.
  void setInterruptGracePeriod(int milliseconds) { interruptGraceMs_ = milliseconds; }
  // The torch the worker's cells import ("builtin" or "system", the preference); from the next
  // start or restart of the worker on.
  void setTorch(const QString& torch) { torch_ = torch; }
  const QString& torch() const { return torch_; }
  // What the worker process is started with.
  QStringList workerArguments() const;

signals:
  void stateChanged(tilescope::ui::WorkerProcessClient::State state);
  // A remote worker's answer to device_request: what its kernels run on.
  void remoteDeviceReported(bool gpuAvailable, const QString& statusLine, const QString& details);

private:
  struct PendingRun {
    QString requestId;
    QString cellId;
    QString code;
    Backend backend;
    bool warnOnOutOfBounds = false;
    bool expectErrors = false;
    bool gpuOnly = false;
    bool inspect = false;
    std::vector<std::array<int64_t, 3>> tracePids;
  };

  void launchProcess();
  void stopProcess();
  void setState(State state);
  void sendNextRequest();
  void sendMessage(const nlohmann::json& message);
  void readMessages();
  void handleMessage(const nlohmann::json& message, QList<BinaryBlob> blobs);
  void handleFinished(int exitCode, QProcess::ExitStatus status);
  void handleProcessError(QProcess::ProcessError error);
  void workerLost(const QString& reason);
  void abortQueue();
  void finishRunning(CellRunStatus status);
  void killForUnansweredInterrupt();
  bool checkHello(const nlohmann::json& hello);
  void connectionFailed(const QString& reason);
  QString where() const;  // " on gpu-box" for a remote worker, else empty

  QString program_;
  RunOnTarget runOn_;
  QByteArray startupStderr_;  // a remote worker's stderr before its hello: ssh's reason when it fails
  QString torch_ = QStringLiteral("builtin");
  QProcess* process_ = nullptr;
  std::unique_ptr<util::FrameDecoder> decoder_;
  std::optional<nlohmann::json> messageAwaitingBlobs_;  // a message whose announced blobs are still coming
  QList<BinaryBlob> blobsSoFar_;
  State state_ = State::NotStarted;
  QString executorName_;
  std::deque<PendingRun> queue_;
  std::optional<PendingRun> running_;
  QByteArray pendingProgramTiming_;  // the running cell's last program_timing line, for its next GPU launch
  int nextRequestNumber_ = 1;
  QTimer interruptTimer_;
  int interruptGraceMs_ = 1000;
  int crashesBeforeHello_ = 0;  // a worker that dies on start-up is not restarted in a loop
  bool stopping_ = false;       // we are ending the process ourselves: its exit is not a death
};

}  // namespace tilescope::ui
