#pragma once
// What a traced launch recorded, program by program, in execution order: every memory access
// (where in the source, which kernel argument/tensor, the element offsets tile, the mask tile and
// optionally the values), every value bound to a named variable (for the variable inspector) and
// every printed line; and each tl.dot and reduction a program computed (its operand and result
// tiles, for the inspector's Dot and Reduce views). TraceWriter/TraceReader move it to and from the compact binary format of
// docs/TRACE_FORMAT.md; TraceJson exports it for tools.
//
// Size policy (decided by the simulator, stated in `policy`): small grids are traced completely;
// above LaunchOptions::maxTracedPrograms only the first N programs in program order, plus programs
// selected explicitly (pid filter, extra list), are traced; when the recorded data reaches the byte
// cap, recording stops and the programs after that point are counted as dropped.
#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/ir/DType.h"
#include "core/ir/Type.h"
#include "core/sim/Tile.h"

namespace tilescope::sim {

struct TraceLocation {
  std::string file;
  int line = 0;  // 1-based; 0 when unknown
  int column = 0;
  int endLine = 0;
  int endColumn = 0;
  std::string str() const;  // "file:line:col"
  friend bool operator==(const TraceLocation&, const TraceLocation&) = default;
};

enum class MemOpKind : uint8_t { Load = 1, Store = 2, AtomicRMW = 3, AtomicCAS = 4 };
const char* memOpKindName(MemOpKind k);  // "load", "store", "atomic_rmw", "atomic_cas"

struct MemAccessEvent {
  MemOpKind kind = MemOpKind::Load;
  uint32_t location = 0;  // index into LaunchTrace::locations
  int32_t argIndex = -1;  // index into LaunchTrace::args of the argument holding the tensor; -1: none
  int32_t tensorId = 0;   // 0: the pointers point into no tensor
  ir::Shape shape;        // shape of the access (of the pointer tile; [] for a scalar pointer)
  std::vector<int64_t> offsets;  // element offsets from the tensor's first element, row-major
  std::vector<uint8_t> mask;     // one 0/1 per lane; empty means every lane is active
  TileRef values;                // loaded / stored / operand values, when values are recorded
  std::string detail;            // atomics: the op ("add", "cas", ...)

  bool laneActive(size_t i) const { return mask.empty() || mask[i] != 0; }
};

// A value bound to a named variable by a Let/Assign (also loop variables).
struct BindEvent {
  uint32_t location = 0;
  std::string name;
  int32_t varId = 0;
  TileRef value;
};

struct PrintEvent {
  uint32_t location = 0;
  std::string text;  // the line as printed, without the trailing newline
};

using TraceEvent = std::variant<MemAccessEvent, BindEvent, PrintEvent>;

// Compute events are kept apart from `events` (in their own trace section, which older readers
// skip) and count against their own share of the byte cap (kComputeShareOfCap), so recording them
// never shortens the memory-op trace by more than that share. Operand tiles of more than
// kMaxComputeTileElements elements are not stored (their shapes are); nor is anything once the
// share is used up (LaunchTrace::computeDropped counts those events).
inline constexpr int64_t kMaxComputeTileElements = 16384;  // a 128x128 tile
inline constexpr size_t kComputeShareOfCap = 4;             // at most 1/4 of maxTraceBytes

// One execution of tl.dot. `step` counts the executions of this dot (same location) in the program
// before it: in a K loop, the K step.
struct DotEvent {
  uint32_t location = 0;
  uint32_t eventIndex = 0;  // events.size() when it ran: the memory/bind events before it
  int64_t step = 0;
  ir::Shape aShape, bShape, resultShape;
  bool hasAcc = false;            // an accumulator was added (acc= or acc += tl.dot)
  // Null when larger than kMaxComputeTileElements; acc also without one, and when it is the result
  // of the program's previous compute event, a dot (a K loop's running sum, recorded once).
  TileRef a, b, acc, result;
};

enum class ReduceKind : uint8_t { Sum = 0, Max = 1, Min = 2, ArgMax = 3, ArgMin = 4, XorSum = 5 };
const char* reduceKindName(ReduceKind k);  // "sum", "max", "min", "argmax", "argmin", "xor_sum"

// One reduction (tl.sum/max/min/argmax/argmin/xor_sum, and tl.reduce, recorded as the operation its
// combine function computes).
struct ReduceEvent {
  uint32_t location = 0;
  uint32_t eventIndex = 0;
  int64_t step = 0;          // executions of this reduction in the program before it
  ReduceKind kind = ReduceKind::Sum;
  int32_t axis = -1;         // -1: over all elements
  bool keepDims = false;
  ir::Shape inputShape, resultShape;
  TileRef input, result;     // null when larger than kMaxComputeTileElements
};

using ComputeEvent = std::variant<DotEvent, ReduceEvent>;

struct ProgramTrace {
  std::array<int64_t, 3> pid{0, 0, 0};
  int64_t linearId = 0;
  std::vector<TraceEvent> events;
  std::vector<ComputeEvent> compute;  // dots and reductions, in execution order
  bool truncated = false;  // the byte cap was reached while this program ran
};

struct TraceArg {
  std::string name;       // the kernel parameter
  int32_t tensorId = 0;   // pointer arguments: the tensor; 0 for scalars
  ir::DType dtype = ir::DType::I32;
  std::string valueText;  // scalars: the value as text
};

struct TraceTensor {
  int32_t id = 0;
  std::string name;
  ir::DType dtype = ir::DType::FP32;
  std::vector<int64_t> shape;
};

struct LaunchTrace {
  std::string kernelName;
  std::array<int64_t, 3> grid{1, 1, 1};
  int64_t totalPrograms = 0;
  int64_t droppedPrograms = 0;  // programs that ran but were not traced
  std::string policy;           // what was kept and what was dropped, in words
  std::string pidFilter;        // the filter's canonical text ("" for all)
  bool valuesRecorded = false;
  int64_t computeDropped = 0;  // dot/reduce events not recorded: their share of the byte cap was used up
  std::vector<TraceTensor> tensors;
  std::vector<TraceArg> args;
  std::vector<TraceLocation> locations;
  std::vector<ProgramTrace> programs;  // in execution order (program linear id order)

  const ProgramTrace* findProgram(const std::array<int64_t, 3>& pid) const;
  const TraceTensor* findTensor(int32_t id) const;
};

// Rough in-memory size of an event, for the byte cap.
size_t approximateBytes(const TraceEvent& e);
size_t approximateBytes(const ComputeEvent& e);

}  // namespace tilescope::sim
