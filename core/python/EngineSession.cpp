#include "core/python/EngineSession.h"

#include <atomic>
#include <cstdio>

namespace tilescope::python {

namespace {
EngineSession* activeSession = nullptr;  // only the thread holding the GIL runs code
std::atomic<bool> interruptRequested{false};
}  // namespace

void EngineSession::requestInterrupt() { interruptRequested = true; }
bool EngineSession::takeInterrupt() { return interruptRequested.exchange(false); }

EngineSession::EngineSession() : context_(std::make_unique<host::LaunchContext>()) {}
EngineSession::~EngineSession() = default;

EngineSession* EngineSession::active() { return activeSession; }

void EngineSession::write(const std::string& streamName, const std::string& text) {
  if (activeSession) {
    if (streamName == "stderr") activeSession->context_->writeStderr(text);
    else activeSession->context_->writeStdout(text);
    return;
  }
  std::FILE* f = streamName == "stderr" ? stderr : stdout;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fflush(f);
}

EngineSession::Activation::Activation(EngineSession& session, const host::ExecutionCallbacks& callbacks,
                                      const host::CancelToken* cancel)
    : session_(session), previous_(activeSession) {
  session_.context_->setCallbacks(&callbacks);
  session_.context_->setCancelToken(cancel);
  activeSession = &session_;
}

EngineSession::Activation::~Activation() {
  session_.context_->setCallbacks(nullptr);
  session_.context_->setCancelToken(nullptr);
  activeSession = previous_;
}

}  // namespace tilescope::python
