#pragma once
// The launch API's values: arguments, options and the result of Simulator::launch.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/Constant.h"
#include "core/ir/Stmt.h"
#include "core/base/Diagnostic.h"
#include "core/sim/CancelToken.h"
#include "core/sim/Coverage.h"
#include "core/sim/Grid.h"
#include "core/sim/PidFilter.h"
#include "core/sim/Tile.h"
#include "core/sim/Trace.h"

namespace tilescope::sim {

// One runtime argument, matching Kernel::runtimeParams() in order.
struct LaunchArg {
  enum class Kind : uint8_t { Tensor, Int, Float };
  Kind kind = Kind::Int;
  int tensorId = 0;           // Tensor: the Memory tensor
  int64_t elementOffset = 0;  // Tensor: where the pointer starts (a view into the tensor)
  int64_t intValue = 0;       // Int (also bools)
  double floatValue = 0;      // Float

  static LaunchArg tensor(int id, int64_t elementOffset = 0) { return {Kind::Tensor, id, elementOffset, 0, 0}; }
  static LaunchArg integer(int64_t v) { return {Kind::Int, 0, 0, v, 0}; }
  static LaunchArg real(double v) { return {Kind::Float, 0, 0, 0, v}; }
};

// A HostCall argument after evaluation (see ir::HostArg).
struct HostCallValue {
  ir::HostArg::Kind kind = ir::HostArg::Kind::Constant;
  TileRef value;             // Kind::Value
  ir::Constant constant;     // Kind::Constant
  struct Part {
    std::string literal;
    TileRef value;           // null for a trailing literal
    char conversion = 0;
    std::string formatSpec;
  };
  std::vector<Part> parts;   // Kind::Format
  // Kind::Format rendered the way the Triton interpreter's f-strings read (tiles like NumPy,
  // scalars as 1-element arrays: "pid = [0] | offs = [0 1]"); format specs are not applied.
  std::string text;
};

struct HostCallEvent {
  std::string callee;
  std::vector<HostCallValue> args;
  std::vector<std::pair<std::string, HostCallValue>> kwargs;
  std::array<int64_t, 3> pid{};
  lang::SourceRange range;
};

// Returns "" to continue, or an error message that stops the launch (reported at the call).
using HostCallback = std::function<std::string(const HostCallEvent&)>;
// Receives each printed line (without newline) in program order.
using OutputCallback = std::function<void(std::string_view line)>;

// A device address range (the GPU backend's data_ptr() of a host tensor) and the simulated address
// it stands for: integers turned into pointers inside the range are translated, so a table of
// addresses taken for the GPU also works when a launch runs on the simulator.
struct AddressWindow {
  uint64_t begin = 0;
  uint64_t bytes = 0;
  int64_t simulatedBase = 0;
};

struct LaunchOptions {
  bool trace = false;
  bool recordValues = false;     // trace: also keep loaded/stored values
  bool recordVariables = true;   // trace: keep every value bound to a named variable
  bool recordCompute = true;     // trace: keep each tl.dot and reduction's operands and result
  PidFilter pidFilter;           // only matching programs print and are traced (all run)
  CancelToken cancel;
  int64_t maxTracedPrograms = 256;  // larger grids: the first N (matching) programs are traced...
  std::vector<std::array<int64_t, 3>> extraTracedPrograms;  // ...plus these
  size_t maxTraceBytes = size_t{256} << 20;  // recording stops when the trace reaches this size
  int numThreads = 0;            // 0: WorkerPool::defaultThreadCount() (TILESCOPE_SIM_THREADS, else every CPU)
  bool checkCoverage = true;     // per-element write tracking and the coverage report
  // An unmasked access outside its tensor stops the launch (the default), or - when false - is a
  // warning: the stray lanes read as 0 and their stores are dropped (code written for a GPU, where
  // such reads return whatever lies there, runs on).
  bool stopOnOutOfBounds = true;
  OutputCallback output;         // print lines; they are also collected in LaunchResult::output
  HostCallback hostCall;         // HostCall statements; without it they are skipped with a warning
  std::vector<AddressWindow> addressWindows;  // integer-to-pointer casts translate these
};

enum class LaunchStatus : uint8_t { Ok, Error, Interrupted };

struct LaunchResult {
  LaunchStatus status = LaunchStatus::Ok;
  lang::DiagnosticList diagnostics;   // the error (if any) and warnings
  std::shared_ptr<LaunchTrace> trace; // when LaunchOptions::trace
  CoverageReport coverage;
  std::string output;                 // all printed lines, '\n'-terminated, in program order
  int64_t programsRun = 0;            // programs that ran to completion
  double seconds = 0;
  // Keeps the files the diagnostics' ranges point into alive.
  std::vector<lang::SourceFilePtr> sources;

  bool ok() const { return status == LaunchStatus::Ok; }
};

}  // namespace tilescope::sim
