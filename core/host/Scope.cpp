#include "core/host/Scope.h"

namespace tilescope::host {

Value* Scope::findLocal(const std::string& name) {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : &it->second;
}

Value* Scope::find(const std::string& name) {
  if (globalNames_.count(name)) return globals().findLocal(name);
  for (Scope* s = this; s; s = s->parent_.get()) {
    if (Value* v = s->findLocal(name)) return v;
  }
  return nullptr;
}

void Scope::assign(const std::string& name, Value value) {
  if (globalNames_.count(name)) {
    globals().vars_[name] = std::move(value);
    return;
  }
  if (nonlocalNames_.count(name)) {
    for (Scope* s = parent_.get(); s && !s->isGlobal(); s = s->parent_.get()) {
      if (Value* v = s->findLocal(name)) {
        *v = std::move(value);
        return;
      }
    }
  }
  vars_[name] = std::move(value);
}

bool Scope::erase(const std::string& name) {
  if (globalNames_.count(name)) return globals().vars_.erase(name) > 0;
  return vars_.erase(name) > 0;
}

}  // namespace tilescope::host
