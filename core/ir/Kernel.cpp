#include "core/ir/Kernel.h"

#include "core/ir/IRPrinter.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::ir {

namespace {

class VarNames : public IRVisitor {
public:
  std::map<int, std::string>& names;
  explicit VarNames(std::map<int, std::string>& n) : names(n) {}

protected:
  void visitLet(const Let& n) override {
    names[n.var->id] = n.var->name;
    IRVisitor::visitLet(n);
  }
  void visitFor(const For& n) override {
    names[n.iv->id] = n.iv->name;
    IRVisitor::visitFor(n);
  }
};

void collectVarNames(const Stmt& body, std::map<int, std::string>& names) {
  VarNames v(names);
  v.visitStmt(body);
}

}  // namespace

std::vector<const KernelParam*> Kernel::runtimeParams() const {
  std::vector<const KernelParam*> out;
  for (const KernelParam& p : params)
    if (!p.isConstexpr) out.push_back(&p);
  return out;
}

std::string Kernel::specializationKey() const {
  std::string key = name + "[";
  for (size_t i = 0; i < params.size(); ++i) {
    const KernelParam& p = params[i];
    if (i) key += ",";
    if (p.isConstexpr) {
      key += p.name + "=" + p.value.repr();
    } else {
      key += p.type.isPointer() ? "*" + std::string(dtypeName(p.type.dtype())) : std::string(dtypeName(p.type.dtype()));
      if (p.divisibleBy16) key += ":16";
    }
  }
  return key + "]";
}

std::string Kernel::dump(bool withLocations) const {
  IRPrinter::Options options;
  options.locations = withLocations;
  std::string text = IRPrinter(options).print(*this);
  if (layouts.empty() && dotPlan.empty()) return text;
  // The GPU passes' decisions, after the body (vars by name and id).
  std::map<int, std::string> names;
  collectVarNames(body, names);
  if (!layouts.empty()) {
    text += "layouts {\n";
    for (int iv : registerLoops) text += "  loop " + names[iv] + " (#" + std::to_string(iv) + "): in registers\n";
    for (const auto& [id, l] : layouts) text += "  " + names[id] + " (#" + std::to_string(id) + "): " + l.str() + "\n";
    text += "}\n";
  }
  if (!dotPlan.empty()) text += dotPlan.str(names);
  return text;
}

}  // namespace tilescope::ir
