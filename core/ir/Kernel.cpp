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

// An expression on one line: IRPrinter's temporaries joined by "; ", then the value.
std::string inlineExpr(const Expr& e) {
  const std::string printed = IRPrinter().print(e);
  std::string out;
  size_t at = 0;
  while (at < printed.size()) {
    size_t end = printed.find('\n', at);
    if (end == std::string::npos) end = printed.size();
    std::string line = printed.substr(at, end - at);
    line.erase(0, line.find_first_not_of(' '));
    if (line.rfind("result = ", 0) == 0) line = line.substr(9, line.rfind(" : ") == std::string::npos ? std::string::npos : line.rfind(" : ") - 9);
    if (!line.empty()) out += (out.empty() ? "" : "; ") + line;
    at = end + 1;
  }
  return out;
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
  if (layouts.empty() && blockedVectorWidths.empty() && axes.empty()) return text;
  // The passes' tables, after the body (vars by name and id).
  std::map<int, std::string> names;
  collectVarNames(body, names);
  if (!layouts.empty() || !blockedVectorWidths.empty()) {
    text += "layouts {\n";
    for (const auto& [numel, vec] : blockedVectorWidths)
      text += "  tiles of " + std::to_string(numel) + " elements: blocked, vec=" + std::to_string(vec) + "\n";
    for (int iv : registerLoops) text += "  loop " + names[iv] + " (#" + std::to_string(iv) + "): in registers\n";
    for (const auto& [id, l] : layouts) text += "  " + names[id] + " (#" + std::to_string(id) + "): " + l.str() + "\n";
    text += "}\n";
  }
  if (!axes.empty()) {
    text += "axes {\n";
    for (const auto& [id, a] : axes) {
      text += "  " + names[id] + " (#" + std::to_string(id) + "): " + a.info.str();
      for (int p : a.unitParams)
        text += ", if %" + (p >= 0 && p < static_cast<int>(params.size()) ? params[static_cast<size_t>(p)].name : "?") + " == 1";
      if (a.inductionStep.defined()) text += ", induction step " + inlineExpr(a.inductionStep);
      text += "\n";
    }
    text += "}\n";
  }
  return text;
}

}  // namespace tilescope::ir
