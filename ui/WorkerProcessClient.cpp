#include "ui/WorkerProcessClient.h"

#include <QCoreApplication>
#include <QDebug>
#include <QFileInfo>
#include <cstring>
#include <utility>

#include "core/base/FrameCodec.h"
#include "core/base/SshTarget.h"
#include "core/base/WorkerExitCodes.h"
#include "core/base/WorkerProtocol.h"

namespace tilescope::ui {
using nlohmann::json;

namespace {
QString str(const json& message, const char* key) {
  const auto it = message.find(key);
  return it != message.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

int integer(const json& message, const char* key) {
  const auto it = message.find(key);
  return it != message.end() && it->is_number_integer() ? it->get<int>() : 0;
}

ExecutionError parseError(const json& message) {
  ExecutionError error{str(message, "ename"), str(message, "evalue"), {}};
  for (const json& frame : message.value("traceback", json::array()))
    if (frame.is_object())
      error.traceback.append({str(frame, "file"), integer(frame, "line"), integer(frame, "col"), str(frame, "text"),
                              str(frame, "severity"), str(frame, "message")});
  return error;
}

util::SshTarget sshTarget(const RunOnTarget& t) {
  return {t.host.toStdString(), t.port, t.identityFile.toStdString(), t.remoteCommand.toStdString()};
}

QString describeExit(int exitCode, QProcess::ExitStatus status) {
  if (status == QProcess::CrashExit) {
    // QProcess reports the terminating signal as the exit code of a crashed process.
    if (exitCode > 0 && exitCode < 64)
      return QStringLiteral("crashed (signal %1, %2)").arg(exitCode).arg(QString::fromLocal8Bit(strsignal(exitCode)));
    return QStringLiteral("crashed");
  }
  return QStringLiteral("exited unexpectedly with code %1").arg(exitCode);
}
}  // namespace

WorkerProcessClient::WorkerProcessClient(QString program, QObject* parent)
    : ExecutionClient(parent), program_(std::move(program)), decoder_(std::make_unique<util::FrameDecoder>()) {
  interruptTimer_.setSingleShot(true);
  connect(&interruptTimer_, &QTimer::timeout, this, &WorkerProcessClient::killForUnansweredInterrupt);
}

WorkerProcessClient::~WorkerProcessClient() {
  if (!process_) return;
  process_->disconnect(this);
  if (process_->state() != QProcess::NotRunning) {
    // End of input makes the worker cancel its cell and exit; kill it if it does not.
    process_->closeWriteChannel();
    if (!process_->waitForFinished(1000)) {
      process_->kill();
      process_->waitForFinished(1000);
    }
  }
}

QString WorkerProcessClient::defaultWorkerProgram() {
  const QString besideUs = QCoreApplication::applicationDirPath() + QStringLiteral("/tilescope-cli");
  if (QFileInfo(besideUs).isExecutable()) return besideUs;
#ifdef TILESCOPE_CLI_BUILD_PATH
  // In a build tree tilescope and tilescope-cli live in different folders.
  if (QFileInfo(QStringLiteral(TILESCOPE_CLI_BUILD_PATH)).isExecutable()) return QStringLiteral(TILESCOPE_CLI_BUILD_PATH);
#endif
  return besideUs;
}

qint64 WorkerProcessClient::workerPid() const { return process_ ? process_->processId() : 0; }

void WorkerProcessClient::setState(State state) {
  if (state_ == state) return;
  state_ = state;
  emit stateChanged(state);
}

QStringList WorkerProcessClient::workerArguments() const {
  QStringList arguments{QStringLiteral("worker")};
  if (torch_ != QLatin1String("builtin")) arguments << QStringLiteral("--torch") << torch_;
  return arguments;
}

void WorkerProcessClient::start() {
  if (process_ && process_->state() != QProcess::NotRunning) return;
  launchProcess();
}

void WorkerProcessClient::setRunOn(const RunOnTarget& target) {
  if (target == runOn_) return;
  runOn_ = target;
  crashesBeforeHello_ = 0;
  const bool wasBusy = isBusy();
  stopProcess();
  if (running_) finishRunning(CellRunStatus::Aborted);
  abortQueue();
  // Started by the next run, not now: opening a notebook that names a host must not connect to it
  // before the user runs a cell.
  setState(State::NotStarted);
  if (wasBusy) emit busyChanged(false);
}

QString WorkerProcessClient::where() const {
  return runOn_.isRemote() ? tr(" on %1").arg(runOn_.displayName()) : QString();
}

void WorkerProcessClient::launchProcess() {
  stopProcess();
  decoder_ = std::make_unique<util::FrameDecoder>();
  messageAwaitingBlobs_.reset();
  blobsSoFar_.clear();
  executorName_.clear();
  startupStderr_.clear();
  if (runOn_.isRemote()) {
    if (const QString problem = runOn_.validate(); !problem.isEmpty()) {
      connectionFailed(problem);
      return;
    }
  }
  process_ = new QProcess(this);
  if (runOn_.isRemote()) {
    // ssh's arguments are a list (QProcess execs it without a shell); the host was validated above.
    process_->setProgram(QString::fromStdString(util::sshProgram()));
    QStringList arguments;
    std::vector<std::string> remoteArguments;
    for (const QString& a : workerArguments()) remoteArguments.push_back(a.toStdString());
    for (const std::string& a : util::sshArguments(sshTarget(runOn_), remoteArguments)) arguments << QString::fromStdString(a);
    process_->setArguments(arguments);
  } else {
    process_->setProgram(program_);
    process_->setArguments(workerArguments());
  }
  connect(process_, &QProcess::readyReadStandardOutput, this, &WorkerProcessClient::readMessages);
  connect(process_, &QProcess::readyReadStandardError, this, [this] {
    const QByteArray bytes = process_->readAllStandardError();
    if (runOn_.isRemote() && state_ == State::Starting) {
      startupStderr_ += bytes;  // ssh's own messages: they say why a connection fails
      return;
    }
    const QString text = QString::fromUtf8(bytes);
    // Anything the worker or user code writes to stderr belongs to the running cell.
    if (running_) emit streamOutput(running_->cellId, QStringLiteral("stderr"), text);
    else qInfo().noquote() << "tilescope-cli worker:" << text.trimmed();
  });
  connect(process_, &QProcess::finished, this, &WorkerProcessClient::handleFinished);
  connect(process_, &QProcess::errorOccurred, this, &WorkerProcessClient::handleProcessError);
  setState(State::Starting);
  process_->start();
}

void WorkerProcessClient::stopProcess() {
  interruptTimer_.stop();
  if (!process_) return;
  QProcess* old = process_;
  process_ = nullptr;
  old->disconnect(this);
  if (old->state() == QProcess::NotRunning) {
    old->deleteLater();
    return;
  }
  // Its state is being thrown away anyway, so there is nothing to wait for.
  connect(old, &QProcess::finished, old, &QObject::deleteLater);
  old->kill();
}

void WorkerProcessClient::runCell(const QString& cellId, const QString& code, Backend backend) {
  const bool wasBusy = isBusy();
  queue_.push_back(
      {QStringLiteral("r%1").arg(nextRequestNumber_++), cellId, code, backend, warnOnOutOfBounds(), expectErrors(), gpuOnly(), inspectLaunches(),
       inspectLaunches() ? requestedTracePrograms(cellId) : std::vector<std::array<int64_t, 3>>{}});
  if (!wasBusy) emit busyChanged(true);
  if (!process_ || state_ == State::Dead || state_ == State::NotStarted) launchProcess();
  sendNextRequest();
}

void WorkerProcessClient::sendNextRequest() {
  if (running_ || queue_.empty() || state_ != State::Idle) return;
  running_ = std::move(queue_.front());
  queue_.pop_front();
  json request = {{"type", "execute_request"},
                  {"id", running_->requestId.toStdString()},
                  {"cell_id", running_->cellId.toStdString()},
                  {"code", running_->code.toStdString()},
                  {"backend", backendName(running_->backend).toStdString()},
                  {"out_of_bounds", running_->warnOnOutOfBounds ? "warn" : "stop"},
                  {"gpu_only", running_->gpuOnly},
                  {"inspect", running_->inspect}};
  if (!running_->tracePids.empty()) request["trace_pids"] = running_->tracePids;
  // The inspector shows a GPU launch by its program timing (SM and times of each program), as the SM
  // timeline does; it arrives as a program_timing message just before the launch's own message.
  if (running_->inspect) request["program_timing"] = true;
  pendingProgramTiming_.clear();
  sendMessage(request);
  setState(State::Busy);
}

void WorkerProcessClient::sendMessage(const json& message) {
  if (!process_) return;
  const std::string frame = util::encodeFrame(util::FrameKind::Json, message.dump());
  process_->write(frame.data(), static_cast<qint64>(frame.size()));
}

void WorkerProcessClient::interrupt() {
  abortQueue();
  if (!running_) {
    if (!isBusy()) emit busyChanged(false);
    return;
  }
  sendMessage({{"type", "interrupt_request"}});
  if (!interruptTimer_.isActive()) interruptTimer_.start(interruptGraceMs_);
}

void WorkerProcessClient::killForUnansweredInterrupt() {
  if (!running_) return;
  workerLost(tr("The cell did not stop within %1 s of Interrupt, so its worker was stopped and a fresh one "
                "started. Variables from earlier cells are gone: run those cells again.")
                 .arg(interruptGraceMs_ / 1000.0));
}

void WorkerProcessClient::restart() {
  const bool wasBusy = isBusy();
  stopProcess();
  if (running_) finishRunning(CellRunStatus::Aborted);
  abortQueue();
  crashesBeforeHello_ = 0;
  launchProcess();
  if (wasBusy) emit busyChanged(false);
}

void WorkerProcessClient::abortQueue() {
  // Swap first: receivers of cellFinished may queue new runs.
  std::deque<PendingRun> dropped;
  dropped.swap(queue_);
  for (const PendingRun& run : dropped) emit cellFinished(run.cellId, CellRunStatus::Aborted);
}

void WorkerProcessClient::finishRunning(CellRunStatus status) {
  interruptTimer_.stop();
  const QString cellId = running_->cellId;
  running_.reset();
  emit cellFinished(cellId, status);
}

void WorkerProcessClient::readMessages() {
  QProcess* const reading = process_;
  if (!reading) return;
  const QByteArray bytes = reading->readAllStandardOutput();
  decoder_->feed(bytes.constData(), static_cast<size_t>(bytes.size()));
  // handleMessage() may replace the process (restart after a fatal message): stop reading then.
  while (process_ == reading) {
    std::optional<util::Frame> frame = decoder_->next();
    if (!frame) {
      if (decoder_->failed()) {
        if (runOn_.isRemote() && state_ == State::Starting)
          connectionFailed(QString::fromStdString(util::describeRemoteGarbage(sshTarget(runOn_), bytes.left(200).toStdString())));
        else
          workerLost(tr("The worker sent data tilescope cannot read (%1), so it was restarted.")
                         .arg(QString::fromStdString(decoder_->error())));
      }
      return;
    }
    if (frame->kind == util::FrameKind::Blob) {
      if (!messageAwaitingBlobs_) {
        workerLost(tr("The worker sent a blob nobody announced, so it was restarted."));
        return;
      }
      blobsSoFar_.append({QString(), QByteArray(frame->payload.data(), static_cast<qsizetype>(frame->payload.size()))});
    } else {
      json message = json::parse(frame->payload, nullptr, /*allow_exceptions=*/false);
      if (!message.is_object()) {
        workerLost(tr("The worker sent a message that is not JSON, so it was restarted."));
        return;
      }
      messageAwaitingBlobs_ = std::move(message);
      blobsSoFar_.clear();
    }
    const json announced = messageAwaitingBlobs_->value("blobs", json::array());
    const qsizetype expected = announced.is_array() ? static_cast<qsizetype>(announced.size()) : 0;
    if (blobsSoFar_.size() < expected) continue;
    for (qsizetype i = 0; i < expected; ++i)
      blobsSoFar_[i].mimeType = QString::fromStdString(announced[static_cast<size_t>(i)].value("mime", ""));
    json complete = std::move(*messageAwaitingBlobs_);
    messageAwaitingBlobs_.reset();
    handleMessage(complete, std::exchange(blobsSoFar_, {}));
  }
}

void WorkerProcessClient::handleMessage(const json& message, QList<BinaryBlob> blobs) {
  const QString type = str(message, "type");
  if (type == QLatin1String("hello")) {
    if (!checkHello(message)) return;
    executorName_ = str(message, "executor");
    crashesBeforeHello_ = 0;
    if (runOn_.isRemote()) {
      // What was said while connecting (a banner, a warning) is no cell's output.
      if (!startupStderr_.trimmed().isEmpty()) qInfo().noquote() << "ssh:" << QString::fromUtf8(startupStderr_).trimmed();
      startupStderr_.clear();
      sendMessage({{"type", "device_request"}});
    }
    setState(running_ ? State::Busy : State::Idle);
    emit workerStarted(tr("tilescope-cli worker %1%2 (pid %3), executor: %4")
                           .arg(str(message, "version"), where())
                           .arg(integer(message, "pid"))
                           .arg(executorName_));
    sendNextRequest();
    return;
  }
  if (type == QLatin1String("device_report")) {
    const auto gpu = message.find("gpu_available");
    emit remoteDeviceReported(gpu != message.end() && gpu->is_boolean() && gpu->get<bool>(), str(message, "status_line"),
                              str(message, "details"));
    return;
  }
  if (type == QLatin1String("protocol_error")) {
    qWarning().noquote() << "worker protocol error:" << str(message, "message");
    return;
  }
  // Everything else is about one request: ignore leftovers of a request we no longer track.
  if (!running_ || str(message, "id") != running_->requestId) return;
  const QString cellId = running_->cellId;
  if (type == QLatin1String("execute_input")) {
    emit executionStarted(cellId, integer(message, "execution_count"));
  } else if (type == QLatin1String("stream")) {
    emit streamOutput(cellId, str(message, "name"), str(message, "text"));
  } else if (type == QLatin1String("display_data") || type == QLatin1String("execute_result")) {
    RichOutput output;
    output.isExecuteResult = type == QLatin1String("execute_result");
    output.executionCount = integer(message, "execution_count");
    output.data = message.value("data", json::object());
    output.metadata = message.value("metadata", json::object());
    output.blobs = std::move(blobs);
    emit richOutput(cellId, output);
  } else if (type == QLatin1String("launch")) {
    KernelLaunch launch;
    launch.kernel = str(message, "kernel");
    const json grid = message.value("grid", json::array());
    for (size_t i = 0; i < 3 && i < grid.size(); ++i) launch.grid[i] = grid[i].is_number_integer() ? grid[i].get<qint64>() : 1;
    launch.backend = str(message, "backend");
    launch.tracedPrograms = integer(message, "traced_programs");
    launch.untracedReason = str(message, "untraced_reason");
    for (const BinaryBlob& blob : blobs)
      if (blob.mimeType == QLatin1String("application/vnd.tilescope.trace")) launch.trace = blob.bytes;
    if (launch.backend == QLatin1String("gpu")) launch.programTiming = std::exchange(pendingProgramTiming_, {});
    emit kernelLaunched(cellId, launch);
  } else if (type == QLatin1String("program_timing")) {
    for (const BinaryBlob& blob : blobs)
      if (blob.mimeType == QLatin1String(util::kProgramTimingMime)) pendingProgramTiming_ = blob.bytes;
  } else if (type == QLatin1String("error")) {
    emit errorOutput(cellId, parseError(message));
  } else if (type == QLatin1String("execute_reply")) {
    const QString status = str(message, "status");
    const CellRunStatus result = status == QLatin1String("ok")      ? CellRunStatus::Ok
                                 : status == QLatin1String("error") ? CellRunStatus::Error
                                                                    : CellRunStatus::Aborted;
    const bool errorExpected = running_ && running_->expectErrors && result == CellRunStatus::Error;
    finishRunning(result);
    // Like Jupyter: Run all stops at the first failure, unless the cell is meant to fail.
    if (result != CellRunStatus::Ok && !errorExpected) abortQueue();
    setState(State::Idle);
    sendNextRequest();
    if (!isBusy()) emit busyChanged(false);
  }
}

bool WorkerProcessClient::checkHello(const json& hello) {
  const auto protocol = hello.find("protocol");
  const int number = protocol != hello.end() && protocol->is_number_integer() ? protocol->get<int>() : -1;
  if (number == util::kWorkerProtocolVersion) return true;
  // Another release's worker: messages would be misread, so nothing is sent to it.
  connectionFailed(QString::fromStdString(
      util::describeProtocolMismatch(where().trimmed().toStdString(), number, str(hello, "version").toStdString())));
  return false;
}

void WorkerProcessClient::connectionFailed(const QString& reason) {
  // Not retried: a refused key, an unknown host or a missing tilescope-cli fail the same way again.
  // The next Run tries anew (the user may have fixed it meanwhile).
  const bool wasBusy = isBusy();
  stopProcess();
  if (running_) finishRunning(CellRunStatus::Aborted);
  abortQueue();
  setState(State::Dead);
  emit workerDied(reason);
  if (wasBusy) emit busyChanged(false);
}

void WorkerProcessClient::handleFinished(int exitCode, QProcess::ExitStatus status) {
  readMessages();  // whatever the worker wrote before it died is still worth showing
  if (!process_ || sender() != process_) return;
  if (runOn_.isRemote() && state_ == State::Starting) {
    startupStderr_ += process_->readAllStandardError();
    connectionFailed(QString::fromStdString(util::describeSshFailure(
        sshTarget(runOn_), status == QProcess::NormalExit ? exitCode : 255, startupStderr_.toStdString())));
    return;
  }
  if (runOn_.isRemote() && status == QProcess::NormalExit && exitCode == 255) {
    // ssh's own failure status: the connection dropped, or the remote worker died of a signal.
    workerLost(running_ ? tr("The connection to %1 ended while a cell ran (the remote worker crashed, or the network "
                             "dropped); a fresh worker was started there. Variables from earlier cells are gone: run "
                             "those cells again.").arg(runOn_.displayName())
                        : tr("The connection to %1 ended (the remote worker crashed, or the network dropped); a fresh "
                             "worker was started there.").arg(runOn_.displayName()));
    return;
  }
  if (status == QProcess::NormalExit && exitCode == util::kWorkerExitAfterGpuFault) {
    workerLost(tr("The GPU faulted in the last cell and CUDA cannot recover inside that process, so a fresh worker "
                  "was started. Variables from earlier cells are gone: run those cells again."));
    return;
  }
  const QString what = describeExit(exitCode, status);
  workerLost(running_ ? tr("The worker%1 %2 while running a cell; a fresh worker was started. Variables from earlier "
                           "cells are gone: run those cells again.").arg(where(), what)
                      : tr("The worker%1 %2; a fresh worker was started.").arg(where(), what));
}

void WorkerProcessClient::handleProcessError(QProcess::ProcessError error) {
  if (error != QProcess::FailedToStart || !process_) return;
  const QString reason = runOn_.isRemote()
                             ? tr("Cannot start the SSH client `%1`: %2. Install OpenSSH's client (openssh-client) to run "
                                  "cells on %3.").arg(process_->program(), process_->errorString(), runOn_.displayName())
                             : tr("Cannot start the worker `%1 worker`: %2. Cells cannot run until it starts.")
                                   .arg(program_, process_->errorString());
  process_->deleteLater();
  process_ = nullptr;
  if (running_) finishRunning(CellRunStatus::Aborted);
  abortQueue();
  setState(State::Dead);
  emit workerDied(reason);
  emit busyChanged(false);
}

void WorkerProcessClient::workerLost(const QString& reason) {
  const bool wasBusy = isBusy();
  const bool diedStarting = state_ == State::Starting;
  stopProcess();
  if (running_) finishRunning(CellRunStatus::Aborted);
  abortQueue();
  setState(State::Dead);
  if (diedStarting && ++crashesBeforeHello_ >= 2) {
    // A worker that cannot even start would be restarted forever: stop and say what to check.
    emit workerDied(tr("The worker failed twice while starting, so it was not restarted (%1). Check that `%2 worker "
                       "--help` works.").arg(reason, program_));
  } else {
    emit workerDied(reason);
    launchProcess();
  }
  if (wasBusy) emit busyChanged(false);
}

}  // namespace tilescope::ui
