#pragma once
// A namespace of variables: the globals of a session (shared by all notebook cells), or the locals of
// one function call. Function scopes chain to the scope their def ran in, which gives closures.
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "core/host/Value.h"

namespace tilescope::host {

class Scope {
public:
  explicit Scope(std::shared_ptr<Scope> parent = nullptr) : parent_(std::move(parent)) {}

  bool isGlobal() const { return parent_ == nullptr; }
  const std::shared_ptr<Scope>& parent() const { return parent_; }
  Scope& globals() { return parent_ ? parent_->globals() : *this; }

  // Local names only.
  Value* findLocal(const std::string& name);
  // Local, then enclosing scopes up to the globals.
  Value* find(const std::string& name);
  // Python's rules: `global` names go to the globals, `nonlocal` ones to the enclosing scope that has
  // them, everything else is local.
  void assign(const std::string& name, Value value);
  bool erase(const std::string& name);

  void declareGlobal(const std::string& name) { globalNames_.insert(name); }
  void declareNonlocal(const std::string& name) { nonlocalNames_.insert(name); }

  const std::unordered_map<std::string, Value>& variables() const { return vars_; }
  // Drops every variable (the interpreter's teardown, to break closure reference cycles).
  void clearVariables() {
    auto dropped = std::move(vars_);
    vars_.clear();
  }

private:
  std::shared_ptr<Scope> parent_;
  std::unordered_map<std::string, Value> vars_;
  std::unordered_set<std::string> globalNames_;
  std::unordered_set<std::string> nonlocalNames_;
};

}  // namespace tilescope::host
