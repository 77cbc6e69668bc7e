#include "core/kernel/Scope.h"

namespace tilescope::lang {

const Binding* Scope::find(const std::string& name) const {
  auto it = map_.find(name);
  return it == map_.end() ? nullptr : &it->second;
}

void Scope::bind(const std::string& name, Value value, SourceRange range, bool isConstexpr) {
  map_[name] = Binding{std::move(value), range, isConstexpr};
}

std::vector<std::string> Scope::names() const {
  std::vector<std::string> out;
  out.reserve(map_.size());
  for (const auto& [name, binding] : map_) out.push_back(name);
  return out;
}

}  // namespace tilescope::lang
