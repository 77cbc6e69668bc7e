#pragma once
// The state of one CUDA code generation (private to core/gpu): the output text, temporaries, the
// shared-memory high-water mark. Statements and elementwise expressions are in CudaCodegen.cpp,
// the ops that move data between threads (broadcast, permute, reduce, scan, dot) in CudaTileOps.cpp.
//
// expr() returns a C++ expression. For a tile it is valid inside an element loop over that tile's
// numel (openLoop), where ts_j is the slot and ts_i the element index; for a scalar it is valid
// anywhere in the current statement. Ops that need other threads' elements emit their code (at
// statement level, before the consumer's loop) and return a temporary.
#include <sstream>
#include <string>
#include <map>
#include <unordered_map>

#include "core/gpu/CudaCodegen.h"
#include "core/ir/Kernel.h"

namespace tilescope::gpu {

class CudaEmitter {
public:
  explicit CudaEmitter(const ir::Kernel& kernel);
  CudaKernelSource run();

  // --- output
  void line(const std::string& text);
  void open(const std::string& head);  // "head {" and indent
  void close(const std::string& tail = "}");
  void lineDirective(const lang::SourceRange& r);
  void openLoop(int64_t numel);
  void closeLoop(int64_t numel);
  void sync() { line("__syncthreads();"); }
  BlockedLayout layout(int64_t numel) const;
  int slots(int64_t numel) const { return layout(numel).slots(numel); }
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
  // Tile load/store through vector accesses where the run-time checks allow (CudaCodegen.cpp).
  void vectorLoad(const ir::Load& n, const std::string& name, const ir::Type& t);
  void vectorStore(const ir::Store& n);
  void openGroups(int64_t numel);  // loop over the vec-groups of a tile: ts_g, ts_i0
  void closeGroups(int64_t numel);
  void forLoop(const ir::For& n);
  void print(const ir::Print& n);
  void assertion(const ir::Assert& n);
  void memoryBarrierIfNeeded();

  // --- expressions
  std::string expr(const ir::Expr& e);
  std::string compute(const ir::Expr& e);
  std::string cast(const ir::Cast& n);
  std::string unary(const ir::Unary& n);
  std::string binary(const ir::Binary& n);
  std::string math(const ir::MathCall& n);
  std::string random(const ir::Rand& n);
  std::string varName(const ir::VarPtr& v) const;

  // --- data movement between threads (CudaTileOps.cpp)
  std::string broadcast(const ir::Broadcast& n);
  std::string permute(const ir::Permute& n);
  std::string reduce(const ir::Reduce& n);
  // Power-of-two shapes and thread counts: the tree in registers, warp shuffles and one shared-memory step.
  bool canReduceFast(const ir::Reduce& n) const;
  std::string reduceFast(const ir::Reduce& n);
  std::string scan(const ir::Scan& n);
  std::string dot(const ir::Dot& n);
  // Stages `value` (string valid in a loop over t's numel) into shared memory as ts_s[i].
  void stageToShared(const std::string& value, const ir::Type& t, const std::string& ptrName, size_t byteOffset);

private:
  const ir::Kernel& kernel_;
  int threads_ = 128;
  std::map<int64_t, int> vecByNumel_;  // vector width per tile numel (chooseVectorWidth)
  std::ostringstream out_;
  int indent_ = 1;
  int tempCounter_ = 0;
  size_t sharedBytes_ = 0;
  std::unordered_map<const ir::ExprNode*, std::string> memo_;  // per statement
  bool storesBefore_ = false;  // a store may precede the next load: order them with a barrier
  CudaKernelSource result_;
};

// Simple per-statement helpers shared by both files.
bool containsStore(const ir::Stmt& s);

}  // namespace tilescope::gpu
