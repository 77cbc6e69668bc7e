#pragma once
// What one client-to-worker message asks for (docs/PROTOCOL.md, "Messages"). Every field's type and
// value is checked here, so a malformed message becomes an error reply naming the field and what it
// should be - never an exception inside the worker. Unknown extra fields are ignored, as Jupyter does.
#include <nlohmann/json.hpp>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/CellExecutor.h"

namespace tilescope::host {

struct ExecuteRequest {
  std::string id;
  std::string cellId;
  std::string code;
  Backend backend = Backend::Auto;
  bool stopOnOutOfBounds = true;  // "out_of_bounds": "stop" (the default) or "warn"
  bool gpuOnly = false;           // "gpu_only": the cell is tagged gpu-only (skipped unless kernels run on a GPU)
  bool inspect = false;           // "inspect": report each kernel launch with its trace (the inspector)
  // "trace_pids": programs ([x, y, z]) to trace in each launch traced for the inspector, besides the
  // trace policy's sample (the inspector's "Trace on the next run").
  std::vector<std::array<int64_t, 3>> tracePids;
  bool programTiming = false;  // "program_timing": GPU launches record per-program timing, sent as program_timing messages
};

// At most this many programs may be asked for in "trace_pids".
constexpr size_t kMaxTracePids = 256;

struct WorkerRequest {
  enum class Kind { Execute, Interrupt, Shutdown, DeviceReport, Invalid };  // DeviceReport: device_request
  Kind kind = Kind::Invalid;
  ExecuteRequest execute;  // Kind::Execute
  std::string error;       // Kind::Invalid: what is wrong and how to fix it
  // Kind::Invalid: the id and cell id of a malformed execute_request when they could be read, so the
  // worker can end exactly that request with an error (the client is waiting for its reply).
  std::optional<std::string> rejectedId;
  std::string rejectedCellId;
};

WorkerRequest decodeWorkerRequest(const nlohmann::json& message);

}  // namespace tilescope::host
