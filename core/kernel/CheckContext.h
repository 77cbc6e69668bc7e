#pragma once
// State shared by everything that checks one kernel specialization: the program, the IR being
// built, the helper call chain (for "in helper ... called from here" notes) and error reporting.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/base/Diagnostic.h"
#include "core/kernel/Emitter.h"
#include "core/kernel/Program.h"

namespace tilescope::lang {

struct CallFrame {
  std::string callee;
  SourceRange callRange;
  const FunctionDef* def = nullptr;
};

class CheckContext {
public:
  CheckContext(const Program& program, DiagnosticList& diagnostics) : program(program), diagnostics(diagnostics) {}

  const Program& program;
  DiagnosticList& diagnostics;
  Emitter emitter;
  std::vector<ir::KernelParam> params;
  std::vector<CallFrame> callStack;
  std::vector<SourceFilePtr> sources;  // files of the kernel and of every inlined helper

  // Set when an error asked for a pointer where a kernel parameter (this index) gave a scalar;
  // checkAllKernels uses it to guess which parameters are pointers.
  std::optional<int> pointerDemand;
  // The value each immutable Let bound (to trace a pointer back to its parameter).
  std::unordered_map<const ir::Var*, ir::Expr> letValues;

  // Records the error (with the helper call chain as notes) and abandons the check.
  [[noreturn]] void error(SourceRange range, std::string message);
  void warning(SourceRange range, std::string message);
  void note(SourceRange range, std::string message);

  // Attaches the current call chain to a diagnostic.
  void addCallChain(Diagnostic& d) const;
  void addSource(const SourceFile* file);
};

}  // namespace tilescope::lang
