#pragma once
// The local names of one function body while it is checked: Python name -> Value. Python has no
// block scope, so one Scope serves a whole body; the checker copies it to check the two branches
// of a runtime `if` (or a loop body) and merges the copies afterwards.
#include <map>
#include <string>
#include <vector>

#include "core/base/SourceFile.h"
#include "core/kernel/Value.h"

namespace tilescope::lang {

struct Binding {
  Value value;
  SourceRange range;       // where the name was (last) bound
  bool isConstexpr = false;  // a tl.constexpr parameter or `x: tl.constexpr = ...`: not reassignable
};

class Scope {
public:
  const Binding* find(const std::string& name) const;
  // Binds or rebinds `name`. The constexpr flag is the new binding's own.
  void bind(const std::string& name, Value value, SourceRange range, bool isConstexpr = false);
  void erase(const std::string& name) { map_.erase(name); }
  std::vector<std::string> names() const;
  // Ordered by name, so merges (and the vars they create) are deterministic.
  const std::map<std::string, Binding>& bindings() const { return map_; }

private:
  std::map<std::string, Binding> map_;
};

}  // namespace tilescope::lang
