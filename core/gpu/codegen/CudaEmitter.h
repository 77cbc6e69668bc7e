#pragma once
// The state of one CUDA code generation (private to core/gpu): the output text, temporaries, the
// shared-memory high-water mark. Statements and elementwise expressions are in CudaCodegen.cpp,
// the ops that move data between threads (broadcast, permute, reduce, scan, dot) in CudaTileOps.cpp.
//
// expr() returns a C++ expression. For a tile it is valid inside an element loop over that tile's
// numel (openLoop), where ts_j is the slot and ts_i the element index; for a scalar it is valid
// anywhere in the current statement. Ops that need other threads' elements emit their code (at
// statement level, before the consumer's loop) and return a temporary.
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <set>
#include <string>
#include <unordered_map>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/AxisAnalysis.h"
#include "core/gpu/passes/VarCensus.h"
#include "core/ir/Kernel.h"

namespace tilescope::gpu {

using ir::AxisInfo;
using passes::AxisAnalysis;
using passes::VarCensus;

// Per-thread arrays up to this many slots are fully unrolled (registers); larger ones are not.
inline constexpr int kMaxUnrolledSlots = 64;
// On sm_90a twice as many: a wgmma tile of 128 x 256 over two warpgroups leaves 128 fp32 result
// slots per thread, which in local memory cost the tutorial's grouped GEMM half its speed.
inline constexpr int kMaxUnrolledSlotsWgmma = 128;

class CudaEmitter {
public:
  CudaEmitter(const ir::Kernel& kernel, const CudaCodegenOptions& options);
  CudaKernelSource run();

  // --- output
  void line(const std::string& text);
  void open(const std::string& head);  // "head {" and indent
  void close(const std::string& tail = "}");
  void lineDirective(const lang::SourceRange& r);
  // holdsArrays=false: the body touches no per-thread arrays (a staging copy), so long loops may
  // unroll partially to keep several loads in flight; with partial, loops of any length do.
  void openLoop(int64_t numel, bool holdsArrays = true, bool partial = false);
  void closeLoop(int64_t numel);
  // A barrier also orders every global store before it (scalar conditions are uniform, so one is
  // never inside a branch only some threads take).
  void sync() {
    line("__syncthreads();");
    storesBefore_ = PendingStores::None;
  }
  BlockedLayout layout(int64_t numel) const;
  int slots(int64_t numel) const { return layout(numel).slots(numel); }
  int maxUnrolledSlots() const {
    return options_.archSpecific && options_.smArch == 90 ? kMaxUnrolledSlotsWgmma : kMaxUnrolledSlots;
  }
  // Whether element loops over numel need the `ts_i < numel` guard.
  bool guarded(int64_t numel) const { return numel % (static_cast<int64_t>(threads_) * layout(numel).vec) != 0; }
  void useShared(size_t bytes);
  // Declares "T tN[slots];" (tile) or "T tN;" (scalar) and returns tN.
  std::string declareTemp(const ir::Type& t);
  static std::string element(const std::string& name, const ir::Type& t) { return t.isTile() ? name + "[ts_j]" : name; }
  [[noreturn]] static void unsupported(const lang::SourceRange& r, const std::string& what);

  // --- statements
  void stmt(const ir::Stmt& s);
  void bindVar(const ir::VarPtr& var, const ir::Expr& value, bool declare);
  void memoryLet(const ir::VarPtr& var, const ir::Expr& value, bool declare);
  void store(const ir::Store& n);
  // Contiguity, constancy and divisibility of the kernel's tiles: the analyse-axes pass's table
  // (core/gpu/passes/AxisAnalysis.h).
  const AxisAnalysis& axisAnalysis() const { return axes_; }
  // Whether a vector load of t keeps its elements packed in 32-bit words (fp16, bf16).
  bool packs(const ir::Type& t) const;
  // The mask of element k of a group (inside the group loop): `mask`, or a once-per-group value
  // where the mask is constant over each group.
  std::string maskOfGroup(const ir::Expr& maskExpr, const std::string& mask, int vec);
  // What the group's ts_vp[ts_k] is set to: ts_p0 + ts_k when the pointers are known contiguous over
  // the group (ts_p0 declared here), else the pointer tile's expression.
  std::string pointerOfGroup(const ir::Expr& ptrExpr, const std::string& ptr, int vec, const std::string& memType);
  // The memory bits of a stored value (valid inside the store's element loop).
  std::string storedValue(const ir::Expr& value, ir::DType dt);
  // Tile load/store through vector accesses where the run-time checks allow (CudaMemoryOps.cpp).
  // packedVar: the id of an immutable var that may stay packed (16-bit floats), else -1.
  void vectorLoad(const ir::Load& n, const std::string& name, const ir::Type& t, int packedVar = -1);
  void vectorStore(const ir::Store& n);
  void openGroups(int64_t numel);  // loop over the vec-groups of a tile: ts_g, ts_i0
  void closeGroups(int64_t numel);
  void forLoop(const ir::For& n);
  void emitForLoop(const ir::For& n);
  void print(const ir::Print& n);
  void assertion(const ir::Assert& n);
  void memoryBarrierIfNeeded();

  // --- expressions
  std::string expr(const ir::Expr& e);
  std::string compute(const ir::Expr& e);
  std::string cast(const ir::Cast& n);
  std::string unary(const ir::Unary& n);
  std::string binary(const ir::Binary& n);
  // tl.where; a tile condition constant over each vector group is evaluated at the group's first element.
  std::string select(const ir::Select& n);
  std::string math(const ir::MathCall& n);
  std::string random(const ir::Rand& n);
  std::string varName(const ir::VarPtr& v) const;

  // --- data movement between threads (CudaTileOps.cpp)
  std::string broadcast(const ir::Broadcast& n);
  std::string permute(const ir::Permute& n);
  // A 2-D tl.trans of fp16/bf16 in 8-element groups: staged as 16-bit chunks, swizzled (CudaTranspose16.cpp).
  bool canTranspose16(const ir::Permute& n) const;
  std::string transpose16(const ir::Permute& n);
  std::string reduce(const ir::Reduce& n);
  // Power-of-two shapes and thread counts: the tree in registers, warp shuffles and one shared-memory step.
  bool canReduceFast(const ir::Reduce& n) const;
  std::string reduceFast(const ir::Reduce& n);
  // Many slots per thread along the axis: the thread's levels in registers, then the partial values
  // regrouped through shared memory so each output's are in consecutive lanes (CudaRegroupedReduce.cpp).
  bool canReduceRegrouped(const ir::Reduce& n) const;
  std::string reduceRegrouped(const ir::Reduce& n);
  // After a reduction wrote its outputs to ts_so: a barrier, `res` read back (a tile, or ts_so[0]),
  // a barrier, and the scope the reduction opened closed; returns res's element expression.
  std::string readReductionFromShared(const std::string& res, const ir::Type& out);
  std::string scan(const ir::Scan& n);
  // tl.reduce / tl.associative_scan with a general combine function: the inputs staged in shared
  // memory, one thread per line of the axis folding it in the simulator's order (sequentially), the
  // combine's results emitted as scalar code over locals named like its params.
  std::string combineFold(const ir::Combine& n);
  // tl.inline_asm_elementwise (CudaInlineAsm.cpp): each thread runs the asm on groups of `pack`
  // consecutive elements staged in shared memory.
  std::string inlineAsm(const ir::InlineAsm& n);
  std::string dot(const ir::Dot& n);
  // tl.dot of fp16 tiles into fp32 on tensor cores (PTX wmma): operands staged as fp16 in shared
  // memory, warps computing blocks of 16x16 tiles, the result read back through shared memory into
  // the element layout. The sum's order differs from the simulator's sequential FMAs (within
  // rounding); other dtypes and shapes take the exact path.
  // The dot's shape on the tensor cores, as select-dot-lowering recorded it (core/ir/DotPlan.h).
  using TensorCoreLayout = ir::TensorCoreShape;
  // Hopper warpgroup MMA (wgmma.mma_async, sm_90a) for a pipelined resident dot: each warpgroup of 4
  // warps owns rowsPerGroup rows of the result, as `tiles` m64nN accumulators in registers, and reads
  // both operands straight from the swizzled stages (CudaWarpgroupMma.cpp); with `transposed`, tf32
  // (CudaTf32Wgmma.cpp): the loop computes B^T A^T, B^T fed from registers, A K-major through descriptors.
  using WarpgroupMma = ir::WarpgroupShape;
  // The register element type staged in shared memory, and the conversion into it, of l's element.
  static std::string stagedType(const TensorCoreLayout& l) {
    return l.elem == "tf32" ? "float" : l.elem == "s8" ? "ts_i8" : "ts_u16";
  }
  static std::string toStaged(const TensorCoreLayout& l) {
    return l.elem == "tf32" ? "ts_tf32" : l.elem == "bf16" ? "ts_f2b" : l.elem == "s8" ? "(ts_i8)" : "ts_f2h";
  }
  // The accumulator fragments' element: int for int8 dots (s32), float otherwise.
  static std::string fragmentType(const TensorCoreLayout& l) { return l.elem == "s8" ? "int" : "float"; }
  // The plan select-dot-lowering recorded for the dot (nullptr: none, the exact path).
  const ir::DotLowering* loweringOf(const ir::Dot& n) const;
  void dotOnTensorCores(const ir::Dot& n, const std::string& av, const std::string& bv, const std::string& accv,
                        const std::string& res);
  std::string declareFragments(const TensorCoreLayout& l, const std::string& name);
  void forEachWarpTile(const TensorCoreLayout& l, const std::function<void()>& body);
  void stageDotOperands(const TensorCoreLayout& l, const std::string& av, const std::string& bv);
  // Multiplies the operands staged at `base` (A at base, B at base + offB) into the fragments; the
  // trailing barrier lets the next staging overwrite them (a pipelined loop has its own). With
  // colMajorLdb, B is staged K-major at offB (N rows of colMajorLdb) and read by col-major fragments.
  void multiplyStaged(const TensorCoreLayout& l, const std::string& frags, const std::string& base = "ts_smem",
                      bool trailingSync = true, int64_t colMajorLdb = 0);
  // The wmma helpers for a col-major B (load and row.col mma), added to the CUDA on first use.
  std::string colMajorBHelper(const std::string& elem, bool load);
  void moveFragments(const TensorCoreLayout& l, const std::string& frags, bool toShared);
  std::string sharedResultElement(const TensorCoreLayout& l) const;
  // Between var (the blocked layout's registers) and the fp32 result tile in shared memory.
  void copyResultTile(const TensorCoreLayout& l, const ir::VarPtr& var, bool toShared);
  // A loop `acc = acc + tl.dot(a, b)` (or tl.dot(a, b, acc)) that keep-accumulators-resident keeps
  // in tensor-core fragments for the whole loop: loaded before, stored after.
  struct ResidentAccumulator {
    ir::VarPtr acc;     // the loop-carried var
    ir::VarPtr result;  // the Let of acc + dot in the body, assigned back to acc
    const ir::Dot* dot = nullptr;
    TensorCoreLayout layout;
    std::optional<WarpgroupMma> warpgroup;  // the dot's wgmma shape, should its loop be pipelined
    std::map<int, const ir::Load*> deferredLoads;  // operand loads read straight into the dot's staging
    std::string frags;
  };
  // The plan of the loop, if it has one (core/ir/DotPlan.h).
  std::optional<ResidentAccumulator> residentAccumulator(const ir::For& n) const;
  // A resident dot whose operand loads pipeline-dot-loops runs ahead of it: the operands of
  // iteration i + stages - 1 are copied into a ring of shared-memory stages (cp.async 16-byte chunks,
  // element-wise where a chunk is not whole; or TMA) while iteration i multiplies.
  struct OperandStream {
    const ir::Load* load = nullptr;
    int64_t rows = 0, cols = 0, ld = 0;  // the staged tile and its padded row length, in elements
    size_t offset = 0;                   // within a stage
    // wgmma's swizzle instead of padded rows: panels of swizzleBytes (128, 64 or 32) of columns,
    // each rows x swizzleBytes, 16-byte chunk c of row r at chunk c ^ (r % 8) (128B), c ^ ((r / 2) % 4)
    // (64B) or c ^ ((r / 4) % 2) (32B) (CudaWarpgroupMma.cpp)
    bool swizzled = false;
    int64_t swizzleBytes = 128;
    // Every chunk is whole and 16-byte aligned, as the axis analysis proves (no mask, no stride
    // assumed to be 1, aligned starts): cp.async alone, no run-time check and no element-wise copy.
    bool provenWhole = false;
    // The mask is not constant over a chunk but an interval on it (AxisAnalysis::intervalOverRuns):
    // a chunk is whole when the mask holds at its first and last elements.
    bool maskAtEnds = false;
    // B staged K-major from a K x N load contiguous along axis 0 (N rows of K): stage element j is
    // the load's element (j % cols, j / cols); read by col-major wmma fragments or K-major wgmma.
    bool kMajor = false;
    std::string map = "";  // with Pipeline::tma: the C name of the descriptor's tensor map (global scratch)
  };
  // --- tf32 on wgmma (CudaTf32Wgmma.cpp)
  // The prelude's wrapper of m64nNk8 tf32 with A from registers.
  std::string tf32WarpgroupInstruction(int64_t n);
  void tf32WarpgroupStep(const ResidentAccumulator& r);
  // Between the transposed accumulators and the fp32 result tile in shared memory.
  void moveTransposedAccumulator(const TensorCoreLayout& l, const WarpgroupMma& g, const std::string& acc, bool toShared);
  // Rounds to tf32, in place, the 16-byte chunks of a swizzled stage that this thread copied.
  void roundOwnChunks(const OperandStream& s, const std::string& base);
  // The PTX atom instruction for a read-modify-write the hardware does natively, or "" (CudaMemoryOps.cpp).
  std::string nativeAtomic(const ir::AtomicRMW& n, const std::string& ptr, const std::string& val) const;
  // The name of the prelude's wrapper of the m64nNk16 wgmma for elem, added to the kernel's prelude
  // at its first use.
  std::string warpgroupInstruction(int64_t n, const std::string& elem, bool bKMajor = false);
  // The descriptor helper of a swizzle (128: the prelude's ts_wgmma_desc; 64, 32: added to the kernel).
  std::string warpgroupDescriptor(int64_t swizzleBytes);
  void declareWarpgroupAccumulator(const WarpgroupMma& g, const std::string& name);
  void moveWarpgroupAccumulator(const TensorCoreLayout& l, const WarpgroupMma& g, const std::string& acc, bool toShared);
  // One iteration's dot on wgmma: wait for its stage, start the multiplies, wait for the previous
  // iteration's, start the copies of a later stage into its slot while this one's run.
  void warpgroupStep(const ResidentAccumulator& r);
  // Pins the accumulator registers at a wgmma wait (no access moves across it).
  void holdWarpgroupAccumulator(const WarpgroupMma& g, const std::string& frags);
  // A loop the layout pass keeps in tensor-core registers (CudaRegisterLoop.cpp).
  bool isRegisterLoop(const ir::For& n) const;
  // `entry` and `exit` are the layout pass's conversions around it (ConvertLayout Lets/Assigns, or
  // a carried value's constant rematerialised in its layout), printed at the loop's ends.
  void registerLoop(const ir::For& n, const std::vector<ir::Stmt>& entry, const std::vector<ir::Stmt>& exit);
  // In a Seq: where a register loop's group (its entry conversions, the loop, its exit conversions)
  // starts, mapped to the loop's index and the group's end.
  std::map<size_t, std::pair<size_t, size_t>> registerLoopGroups(const std::vector<ir::Stmt>& stmts) const;
  // The register layout assign-layouts gave the var, or nullptr for the blocked layout.
  const ir::TileLayout* layoutOf(int varId) const;
  // An element loop over the thread's slots of an #mma tile or #slice row vector, with ts_i the
  // element's index in the tile (so index-pure values evaluate as in the blocked layout).
  void openRegisterSlots(const ir::Type& t);
  static int64_t registerSlots(const ir::Type& t);
  // Inside the loop: the register reading of a value in a layout, or nullopt for the usual path.
  std::optional<std::string> registerExpr(const ir::Expr& e);
  std::string registerReduce(const ir::Reduce& n);
  std::string registerDot(const ir::Dot& n);
  // cp.async copies of the B operands of the iteration whose induction value is in scope into `slot`.
  void stageRegisterOperands(const std::string& slot);
  // A register loop's dot as wgmma (layouts marked `warpgroup`): A fragments in registers (or, with
  // aShared, a swizzled tile in shared memory), B from its swizzled stage, both through descriptors;
  // waited for before the result is read.
  void registerWarpgroupDot(const ir::Dot& n, const std::string& c, const std::string& frags, const std::string& stage,
                            const std::string& aShared = "");
  struct RegisterStage {
    const ir::Load* load = nullptr;
    int64_t rows = 0, cols = 0, ld = 0;
    size_t offset = 0;
    bool transposed = false;
    bool wholeChunks = false;  // 16-byte cp.async chunks (proven whole and aligned), else element copies
    bool bf16 = false;
    bool swizzled = false;     // wgmma's 128-byte swizzle (panels of 64 columns), unpadded
  };
  struct Pipeline {
    const ir::For* loop = nullptr;
    int stages = 0;
    size_t stageBytes = 0;
    OperandStream a, b;
    std::optional<WarpgroupMma> wgmma;
    // B is tl.trans of a loaded N x K tile (K contiguous, `a @ b.T`): staged as loaded and read by
    // wgmma K-major (wgmma only).
    bool bTransposed = false;
    // Both operands are descriptor boxes (ir::TensorBox) copied by TMA with wgmma's swizzle,
    // completing on one mbarrier per stage (CudaTma.cpp); else cp.async chunks.
    bool tma = false;
    std::string bars, phase;  // with tma: the stages' mbarriers and their phase bits
    std::string ring = "ts_smem";  // where stage 0 starts (1024-byte aligned for wgmma's swizzle)
    std::set<int> unitParams;               // integer parameters the fast path needs to be 1
    std::map<int, ir::Expr> bodyValues;     // the loop body's immutable Lets the loads read, by var id
    std::map<int, ir::Expr> inductionSteps;  // induction tiles the loads read -> their step
    std::map<int, std::pair<ir::VarPtr, ir::Expr>> scalarSteps;  // scalar induction vars the loads read, with their step
    std::string start, step, end, counter, slot, unitOk;  // C names, set by emitForLoop
  };
  // pipeline-dot-loops' plan of the loop, if it has one.
  std::optional<Pipeline> pipelineFor(const ir::For& n, const ResidentAccumulator& r) const;
  void pipelinePrologue();
  // One iteration's dot: wait for its stage, start the copies of a later one, multiply.
  void pipelinedStep(const ResidentAccumulator& r);
  // After the loop: every copy landed and every warp is done with the ring.
  void pipelineDrain();
  // In an iteration: start the copies of iteration i + stages - 1 (if there is one); move to the next slot.
  void stageNextIteration();
  void advanceSlot();
  // Stages both operands of the iteration `ahead` iterations after the one at `counter` into stage `slot`.
  void stageAhead(const std::string& slot, const std::string& counter, const std::string& ahead);
  void stageOperand(const OperandStream& s, const std::string& base);
  std::string inRange(const std::string& counter, const std::string& ahead) const;
  // --- TMA for descriptor boxes (CudaTma.cpp)
  // Before the loop: builds (or keeps) the operands' tensor maps; declares the stage barriers at the top.
  void tmaPrologue();
  // Thread 0 announces the stage's bytes on its barrier and starts the boxes' copies into it.
  void tmaStage(const std::string& slot, const std::string& base);
  // Every thread waits for the current slot's copies.
  void tmaWait();
  // Stages `value` (string valid in a loop over t's numel) into shared memory as ts_s[i].
  void stageToShared(const std::string& value, const ir::Type& t, const std::string& ptrName, size_t byteOffset);
  std::string reduceThroughShared(const ir::Reduce& n, const std::string& value, const std::string& res);
  // tl.argmax / tl.argmin of few outputs, the operand staged as ts_s: up to a warp of threads per output,
  // each folding a run of the axis, runs combined by shuffles (CudaArgReduce.cpp). False: not emitted.
  bool argReduceInGroups(const ir::Reduce& n, int64_t outer, int64_t len, int64_t inner, const std::string& res);

  // --- element-index expressions
  // Tile expressions are evaluated at element `index_` ("ts_i" inside an element loop). A broadcast
  // or permute of an index-pure value (aranges, splats, params, immutable vars defined by such
  // values) is evaluated at the remapped source index instead of going through shared memory; what
  // cannot be (a materialized tile, a reduction's tile result, ...) throws NotIndexable and the op
  // falls back to staging.
  struct NotIndexable {};
  std::string withIndex(const std::string& index, const ir::Expr& e);
  // Whether the value is index-pure (passes::indexPure): it could be recomputed, cheaply, where it is
  // used. Which Lets are recomputed is the mark-recomputed-values pass's table.
  static bool inlinable(const ir::Expr& e);
  // Induction tiles: a mutable pointer or integer tile declared from an index-pure value and only
  // ever advanced by a scalar (`a_ptrs += BLOCK_K * stride_ak`) is that value plus one scalar offset
  // register, instead of a per-thread array updated element by element.
  struct InductionTile {
    ir::Expr init;
    std::string offset;  // the scalar register (elements)
  };
  struct InductionStep {
    int tile = 0;  // the induction var's id
    ir::Expr step;  // the scalar added
  };
  void findInductionTiles();  // from the find-induction-tiles pass's table (Kernel::inductionTiles)

private:
  const ir::Kernel& kernel_;
  CudaCodegenOptions options_;
  int threads_ = 128;
  std::ostringstream out_;
  bool assumeThreadRange_ = false;  // tell the compiler 0 <= ts_tid < threads (pipelined copies' arithmetic)
  int indent_ = 1;
  int tempCounter_ = 0;
  size_t sharedBytes_ = 0;
  std::unordered_map<const ir::ExprNode*, std::string> memo_;  // per statement
  // Global stores since the last barrier, which the next load or store must be ordered after: a
  // scalar store is done by thread 0 alone, so one scalar store after another needs no barrier.
  enum class PendingStores { None, ByThreadZero, ByAnyThread };
  PendingStores storesBefore_ = PendingStores::None;
  std::string index_ = "ts_i";
  std::map<int, ir::Expr> inlined_;  // immutable tile vars recomputed at each use, by var id
  // Tile vars that hold one constant in every element at this point of the emission (tl.zeros,
  // tl.full), by var id -> the scalar: a resident accumulator that starts from one is filled in
  // registers instead of going through shared memory.
  std::map<int, ir::Expr> constantTiles_;
  std::optional<ir::Expr> constantSplat(const ir::Expr& value) const;
  // Before a loop body: what it assigns is no longer known at its top (the second iteration).
  void forgetAssignedIn(const ir::Stmt& body);
  std::map<int, InductionTile> induction_;  // by var id
  std::map<int, InductionStep> inductionSteps_;  // by the id of the Let `tile + splat(step)`
  // Loads whose only use is a resident dot's operand: read straight into the staging buffer.
  std::map<int, const ir::Load*> deferredLoads_;
  // Immutable 16-bit float tiles kept as loaded, two per 32-bit word, converted where read: half
  // the registers of an fp32 array. Var id -> the words array.
  std::map<int, std::string> packedLoads_;
  AxisAnalysis axes_;  // reads kernel_.axes
  std::optional<Pipeline> pipeline_;
  // While staging ahead: the loop's iv and the induction offsets at the future iteration (by var id).
  std::map<int, std::string> prefetchScalars_, prefetchOffsets_;
  bool tensorCores_ = false;         // a tl.dot uses the tensor-core helpers
  std::map<std::string, std::string> colMajorBHelpers_;  // col-major B wmma helpers the kernel uses, by name
  std::map<std::string, std::string> warpgroupInstructions_;  // wgmma wrappers the kernel uses, by name
  std::vector<const ir::Dot*> dots_;        // the kernel's dots in ir::dotsInOrder: dots_[i] is dotPlan key i
  std::map<const ir::Dot*, int> dotIndex_;  // each dot's key in the kernel's dotPlan
  std::map<int, ResidentAccumulator> residentByResult_;  // by the id of the body's Let of acc + dot
  std::map<int, int> residentAssigns_;                   // acc var id -> result var id: that assign is skipped
  CudaKernelSource result_;
  // The register loop being emitted: its values' C arrays by var id, A fragments converted on
  // entry by var id, the B stages.
  bool inRegisterLoop_ = false;
  bool registerLoopUsed_ = false;
  std::map<int, std::string> registerNames_;
  std::map<int, std::string> operandFrags_;
  std::map<int, size_t> operandSharedA_;  // wgmma register loops: A tiles staged once, byte offset in the ring's region
  std::map<int, RegisterStage> registerStages_;
  size_t registerStageBytes_ = 0;
  int registerStageCount_ = 2;
  std::string registerRing_ = "ts_smem";
  std::string tmaTop_;  // declarations at the kernel's top: TMA barriers, map keys
  int tmaMaps_ = 0;     // tensor maps in each program's global scratch (128 bytes each)
};

// The helpers of register loops (mma.sync, ldmatrix, packing), added to a kernel that has one.
std::string registerLoopPrelude();

// The simulator's combine of a reduction (not arg) on dtype t, as an expression of x and y (CudaTileOps.cpp).
std::string reduceCombine(ir::ReduceOp op, ir::DType t, const std::string& x, const std::string& y);

// The operand list ("%0, %1, ...") and read-write constraints ("+f"(d[i])) of a wgmma's `regs` fp32
// accumulator registers, as its inline-PTX wrappers take them (CudaWarpgroupMma.cpp).
void wgmmaAccumulatorOperands(int64_t regs, std::string& list, std::string& outs);

// Simple per-statement helpers shared by the generator's files.
bool containsStore(const ir::Stmt& s);
inline std::string n2s(int64_t v) { return std::to_string(v); }
inline bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }
// The smallest r with 2^r >= x (x >= 1): log2 of a power of two.
inline int log2i(int64_t x) {
  int r = 0;
  while ((int64_t{1} << r) < x) ++r;
  return r;
}
// The element of a broadcast's (permute's) source that element `index` of the result is
// (CudaIndexing.cpp).
std::string broadcastSourceIndex(const ir::Shape& src, const ir::Shape& dst, const std::string& index);
std::string permuteSourceIndex(const ir::Shape& src, const ir::Shape& dst, const std::vector<int>& order,
                               const std::string& index);

}  // namespace tilescope::gpu
