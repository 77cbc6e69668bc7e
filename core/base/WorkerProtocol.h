#pragma once
// The worker protocol's version handshake (docs/PROTOCOL.md): the number both sides must agree on,
// and the sentence for a worker that speaks another one (an app and a remote tilescope-cli of
// different releases).
#include <string>

namespace tilescope::util {

// Sent in the worker's `hello`; a client refuses a worker whose number differs. Raise it whenever a
// message changes in a way the other side cannot ignore.
inline constexpr int kWorkerProtocolVersion = 1;

// The blob of a `program_timing` message: one launch's --program-timing JSON line
// (core/gpu/runtime/ProgramTiming). An optional message: older clients ignore it.
inline constexpr const char* kProgramTimingMime = "application/vnd.tilescope.program-timing+json";

// `where`: "on gpu-box" or "" for a local worker. Names both versions and says what to install.
std::string describeProtocolMismatch(const std::string& where, int workerProtocol, const std::string& workerVersion);

}  // namespace tilescope::util
