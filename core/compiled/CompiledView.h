#pragma once
// What one kernel and specialization became, stage by stage, for the Compiled view and
// `tilescope-cli compile --emit map`: the kernel's source, the typed tile IR after the checker and
// after each pass of the GPU pipeline, the CUDA C++, the PTX (NVRTC: no GPU needed), the SASS when
// the toolkit's disassembler is installed, the line map linking them (core/compiled/LineInfo.h), the
// resources ptxas reports (and the driver's, for the loaded kernel, when asked and a GPU is there),
// the occupancy they allow and the tensor-core instructions in the PTX.
//
// The PTX is NVRTC's output for the CUDA text with its `#line` directives blanked (LineInfo.h says
// why); it is the same code the launch path builds, with `.loc` naming CUDA lines. NVRTC's outputs
// are cached by that text (in memory and beside the PTX cache on disk), so opening the view again,
// or in a later session, compiles nothing.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/compiled/Occupancy.h"
#include "core/compiled/SassDisassembler.h"
#include "core/compiled/SourceLineMap.h"
#include "core/kernel/Checker.h"
#include "core/kernel/Program.h"

namespace tilescope::compiled {

struct CompileRequest {
  std::shared_ptr<const lang::Program> program;
  std::string kernel;
  lang::Specialization spec;
  std::string arch;              // "sm_90", "sm_90a"; empty: the first GPU's, else sm_90
  bool driverResources = false;  // also load the kernel on the GPU, when there is one, and ask the driver
  // Disassemble the SASS too. A disassembler is a process start (most of a second for a matmul): the
  // GUI shows the other panes first and asks for the SASS afterwards (disassembleInto).
  bool disassemble = true;
};

// The IR after one stage: "checker" (before any pass), then each pass of lowerForGpu.
struct IrStage {
  std::string name;
  std::string text;
  std::vector<SourceLine> lines;  // the source line of each text line
};

// Resources of the compiled kernel per program, as one tool reports them.
struct ResourceFigures {
  std::string from;  // "ptxas" (NVRTC's assembler, -v) or "driver" (cuFuncGetAttribute)
  int registers = 0;
  int spillStoreBytes = -1;  // -1: this tool does not say
  int spillLoadBytes = -1;
  int localBytes = 0;        // per thread: stack frame (ptxas) or local memory (driver)
  int staticSharedBytes = 0;
  int dynamicSharedBytes = 0;
  Occupancy occupancy;
};

struct CompiledView {
  std::string kernel;
  std::string arch;
  std::string signature;  // formatSignature of the request
  int numWarps = 4, numStages = 3;
  int threads = 128;

  // The kernel's definition: its file's name, first line and text (whole lines).
  std::string sourceFile;
  int sourceFirstLine = 1;
  std::string source;

  std::vector<IrStage> ir;
  std::string cuda;
  std::string ptx;            // empty when NVRTC is missing: see ptxMissing
  std::string ptxMissing;
  std::optional<SassListing> sass;
  std::string sassMissing;    // why there is no SASS
  SourceLineMap map;          // the Cuda and Ptx panes, and Sass when it has line information
  std::vector<ResourceFigures> resources;  // ptxas's, then the driver's when asked for and possible
  std::string driverMissing;               // why there are no driver figures, when asked for
  std::map<std::string, int> tensorCoreInstructions;  // PTX opcode -> count (wmma, mma, wgmma, ldmatrix)
  std::vector<std::string> warnings;
  std::string cacheHit;       // "", "memory" or "disk": where NVRTC's outputs came from
  std::string cacheKey;       // NVRTC's outputs in NvrtcViewCache
  std::string cubin;          // the device binary, for the SASS

  // {"kernel", "arch", "signature", "num_warps", "num_stages", "sources": [...]} (SourceLineMap::toJson).
  std::string mapJson() const;
};

struct CompileOutcome {
  std::shared_ptr<const CompiledView> view;  // null when the kernel cannot be compiled
  std::string error;                         // then: the checker's diagnostics or why not
};

// Progress for a progress bar: the step now starting and how many of `total` are done.
using CompileProgress = std::function<void(const std::string& step, int done, int total)>;

// Runs every stage. Safe off the UI thread; concurrent calls share the caches.
CompileOutcome compileView(const CompileRequest& request, const CompileProgress& progress = {});

// Adds the SASS (and its lines in the map) to a view compiled without it; sets sassMissing when
// there is no disassembler or no device binary.
void disassembleInto(CompiledView& view);

// The PTX opcodes that run on tensor cores or feed them, counted.
std::map<std::string, int> tensorCoreInstructions(const std::string& ptx);

// Forgets the in-memory cache of NVRTC outputs (benchmarks of a cold start).
void clearCompiledViewMemoryCache();

}  // namespace tilescope::compiled
