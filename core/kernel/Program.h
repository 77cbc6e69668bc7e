#pragma once
// The parsed Python a kernel comes from: one module (a .py file) or several sharing one namespace
// (the cells of a notebook, in execution order). The Program evaluates what a kernel can see at
// module level - imports, function definitions, constexpr globals - the way Python would after
// running every top-level statement, without running any host code.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/syntax/Ast.h"
#include "core/kernel/Value.h"

namespace tilescope::lang {

// One triton.Config of an @triton.autotune decorator.
struct AutotuneConfig {
  std::vector<std::pair<std::string, ConstValue>> values;  // the meta-parameters, in source order
  ir::KernelOptions options;
};

struct JitFunctionInfo {
  std::string name;
  const FunctionDef* def = nullptr;
  const Module* module = nullptr;
  bool shadowed = false;  // a later definition with the same name replaced it
  std::vector<AutotuneConfig> autotuneConfigs;  // empty without @triton.autotune
  std::vector<std::string> autotuneKey;         // key=[...]
  std::vector<std::string> heuristicNames;      // names @triton.heuristics computes
};

class Program {
public:
  Program() = default;
  explicit Program(std::vector<std::shared_ptr<const Module>> modules);

  // Appends a module (cell) and runs its top-level statements.
  void addModule(std::shared_ptr<const Module> module);

  const std::vector<std::shared_ptr<const Module>>& modules() const { return modules_; }
  // Every @triton.jit definition in source order, including ones a later definition shadows.
  const std::vector<JitFunctionInfo>& jitFunctions() const { return jit_; }
  // The current (last) definition of a jit function, or nullptr.
  const JitFunctionInfo* findJitFunction(const std::string& name) const;
  const JitFunctionInfo* infoFor(const FunctionDef* def) const;

  // Sets a module-level name from outside the source (embedded CPython resolves a kernel's globals
  // through the function's __globals__ instead of reading module statements).
  void defineGlobal(const std::string& name, Value value) { globals_[name] = std::move(value); }

  // A module-level name, or nullptr.
  const Value* lookupGlobal(const std::string& name) const;
  std::vector<std::string> globalNames() const;
  const Module* moduleOf(const FunctionDef* def) const;

private:
  void runStatement(const Stmt& stmt, const Module& module);
  void defineFunction(const FunctionDef& def, const Module& module);
  bool isJitDecorator(const Expr& decorator) const;
  // Evaluates a module-level expression to a constant or namespace value; nullopt when it is host
  // code tilescope does not evaluate (a tensor, a call into torch, ...).
  std::optional<Value> evalGlobal(const Expr& e) const;
  void readAutotune(const Call& call, JitFunctionInfo& info) const;

  std::vector<std::shared_ptr<const Module>> modules_;
  std::map<std::string, Value> globals_;
  std::vector<JitFunctionInfo> jit_;
  std::map<const FunctionDef*, const Module*> defModules_;
};

}  // namespace tilescope::lang
