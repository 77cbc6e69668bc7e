#include "core/base/WorkerProtocol.h"

namespace tilescope::util {

std::string describeProtocolMismatch(const std::string& where, const int workerProtocol, const std::string& workerVersion) {
  const std::string worker = "tilescope-cli " + (workerVersion.empty() ? std::string("(version unknown)") : workerVersion);
  return "The worker" + (where.empty() ? std::string() : " " + where) + " is " + worker + " (protocol " +
         std::to_string(workerProtocol) + "), but this app is tilescope " + TILESCOPE_VERSION + " (protocol " +
         std::to_string(kWorkerProtocolVersion) + "): they cannot talk to each other. Install tilescope " + TILESCOPE_VERSION +
         (where.empty() ? std::string(" again") : " " + where) + ", or an app of the worker's version.";
}

}  // namespace tilescope::util
