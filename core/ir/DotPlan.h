#pragma once
// The GPU pipeline's plan for tl.dot and the K loops around it, recorded on the Kernel by passes in
// core/gpu/passes and printed by the CUDA emitter as it says (the emitter decides none of it):
//   - select-dot-lowering: how each dot runs (the exact FMA path, wmma tensor cores and their
//     shape, a register loop's mma.sync / wgmma, Hopper's wgmma, tf32 wgmma);
//   - keep-accumulators-resident: which loop keeps its dot's accumulator in tensor-core registers,
//     and which operand loads go straight into the dot's staging;
//   - pipeline-dot-loops: which such loop copies its operands stages - 1 iterations ahead, and how
//     (cp.async or TMA, swizzled or padded stages, what the axis analysis proved), or why not.
// Dots are keyed by their position in a pre-order walk of the kernel body (dotsInOrder), loops by
// their induction var id, loads by the id of the Let that binds them.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/ir/Stmt.h"

namespace tilescope::ir {

enum class DotEngine : uint8_t {
  Exact,        // operands staged in shared memory, one sequential K loop per output (the simulator's rounding)
  Wmma,         // wmma fragments (m16n16k16; tf32 m16n16k8), blocks of 16 x 16 tiles split among the warps
  RegisterMma,  // a dot of a loop assign-layouts keeps in registers: its layouts say how (mma.sync or wgmma)
  Wgmma,        // Hopper's warpgroup MMA (sm_90a) in a pipelined loop, both operands from swizzled stages
  Tf32Wgmma,    // tf32 on wgmma (sm_90a) in a pipelined loop, as the transposed product B^T A^T
};

// A dot on tensor cores: the operands' element ("f16", "bf16", "tf32", "s8"), the wmma step, the padded
// shared-memory staging (A at 0, B at offB, the fp32 result at offC) and how the warps split the
// M x N result: each computes blocks of fm x fn 16 x 16 tiles, assigned round-robin.
struct TensorCoreShape {
  std::string elem = "f16";
  int64_t kStep = 16;    // K of one wmma (m16n16k16; tf32: m16n16k8)
  int64_t fragRegs = 8;  // registers of an A or B fragment
  int64_t elemBytes = 2;
  bool fp8 = false;  // fp8 operands, staged as fp16
  int64_t m = 0, n = 0, k = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;     // padded row lengths in elements
  size_t offB = 0, offC = 0, total = 0;  // byte offsets of B and the result, bytes in all
  int64_t warps = 1, fm = 1, fn = 1;
  int64_t blocksN = 1, blocks = 1, blocksPerWarp = 1;
};

// Hopper's warpgroup MMA for a dot: each warpgroup of 4 warps owns rowsPerGroup rows of the result
// as `tiles` m64nN accumulators; with `transposed` (tf32) rows of B^T, i.e. columns of the result.
struct WarpgroupShape {
  int64_t groups = 1, rowsPerGroup = 64, tiles = 1, n = 0;
  std::string elem;
  bool transposed = false;
};

struct DotLowering {
  int var = -1;  // the Let or Assign whose value holds the dot (-1: elsewhere, e.g. a store's value)
  DotEngine engine = DotEngine::Exact;
  TensorCoreShape tensorCores;              // with Wmma, Wgmma, Tf32Wgmma
  std::optional<WarpgroupShape> warpgroup;  // the wgmma shape the dot takes should its loop be pipelined
};

// A loop `acc = acc + tl.dot(a, b)` (or tl.dot(a, b, acc)) whose acc is read nowhere else: acc stays
// in tensor-core fragments (or wgmma accumulators) from before the loop to after it.
struct ResidentAccumulatorPlan {
  int acc = -1;     // the loop-carried var
  int result = -1;  // the body's Let of acc + dot, assigned back to acc
  int dot = -1;     // the dot (DotPlan::dots key)
  std::set<int> deferredLoads;  // Lets of operand loads read only by the dot: loaded inside its staging
};

// One operand of a pipelined loop, copied into each stage of the ring.
struct OperandStreamPlan {
  int load = -1;                       // the Let of the operand's load
  int64_t rows = 0, cols = 0, ld = 0;  // the staged tile and its padded row length, in elements
  size_t offset = 0;                   // bytes within a stage
  // wgmma's swizzle instead of padded rows: panels of swizzleBytes of columns (128: 64 16-bit or 32
  // fp32 columns; 64 or 32 for 16-bit rows of 32 or 16 elements, BLOCK_K = 32 or 16), each panel
  // `rows` rows of swizzleBytes, the 16-byte chunk c of row r at c ^ ((r / (128 / swizzleBytes)) %
  // (swizzleBytes / 16)) (the PTX ISA's canonical 128B / 64B / 32B swizzled layouts).
  bool swizzled = false;
  // Every 16-byte chunk whole and aligned (the axis analysis proves it): cp.async with no check.
  bool provenWhole = false;
  // The mask is an interval on each chunk: a chunk is whole when both its ends are in.
  bool maskAtEnds = false;
  // B's K x N pointer tile is contiguous along axis 0 (`x @ W^T` with W stored N x K): staged
  // K-major, as N rows of K (rows = N, cols = K), each 16-byte chunk a run along K; the tensor
  // cores read it so (wmma col-major fragments; wgmma K-major, with PipelinePlan::bTransposed).
  bool kMajor = false;
  int64_t swizzleBytes = 0;  // with swizzled: 128, 64 or 32 (last, so that brace initialisers stay as they were)
};

// A resident loop whose operand loads run stages - 1 iterations ahead into a ring of stages.
struct PipelinePlan {
  int stages = 0;
  size_t stageBytes = 0;
  OperandStreamPlan a, b;
  bool bTransposed = false;  // B is read K-major by wgmma: tl.trans of a loaded N x K tile, or a K-major stream
  bool tma = false;          // both operands descriptor boxes copied by TMA, else cp.async chunks
  std::set<int> unitParams;        // integer parameters whole chunks need to be 1 (checked once per program)
  std::set<int> bodyValues;        // the body's immutable Lets the loads read, recomputed for a later iteration
  std::set<int> inductionTiles;    // induction tiles the loads read (advanced after the dot)
  std::set<int> scalarInductions;  // scalar `v = v + step` vars the loads read (advanced after the dot)
};

struct DotPlan {
  std::map<int, DotLowering> dots;                  // by position in dotsInOrder(body)
  std::map<int, ResidentAccumulatorPlan> resident;  // by loop induction var id
  std::map<int, PipelinePlan> pipelines;            // by loop induction var id (a subset of resident)
  std::map<int, std::string> notPipelined;          // resident loops left unpipelined, by iv id: why

  bool empty() const { return dots.empty() && resident.empty() && pipelines.empty() && notPipelined.empty(); }
  // The `dots { ... }` block of the IR dump (vars by name and id).
  std::string str(const std::map<int, std::string>& names) const;
};

// Every tl.dot of a statement tree, in pre-order (a dot before the dots in its operands): position
// i is the key of dot i's DotPlan entries.
std::vector<const Dot*> dotsInOrder(const Stmt& body);
// The engine's name in dumps ("wmma", "wgmma", ...).
const char* dotEngineName(DotEngine e);

}  // namespace tilescope::ir
