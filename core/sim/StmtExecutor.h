#pragma once
// Runs the statements of one program: bindings, stores, structured control flow, prints, asserts
// and host calls. Loops poll for cancellation at every back-edge. Traced programs record every
// binding of a named variable and every printed line.
#include "core/ir/Stmt.h"
#include "core/sim/ExprEvaluator.h"
#include "core/sim/LaunchContext.h"

namespace tilescope::sim {

class StmtExecutor {
public:
  StmtExecutor(LaunchContext& launch, ProgramState& program)
      : launch_(launch), program_(program), eval_(launch, program) {}

  // Runs the kernel body for the program described by `program`.
  void run();

private:
  enum class Flow { Normal, Return };

  Flow exec(const ir::Stmt& s);
  Flow execFor(const ir::For& n);
  Flow execWhile(const ir::While& n);
  void bind(const ir::VarPtr& var, TileRef value, const lang::SourceRange& range);
  void print(const ir::Print& n);
  void assertion(const ir::Assert& n);
  void hostCall(const ir::HostCall& n);

  LaunchContext& launch_;
  ProgramState& program_;
  ExprEvaluator eval_;
};

}  // namespace tilescope::sim
