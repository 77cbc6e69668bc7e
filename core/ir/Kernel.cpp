#include "core/ir/Kernel.h"

#include <cctype>

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

// An expression on one line: IRPrinter's temporaries joined by "; ", then the value; vars as
// "name (#id)" (printed on its own, IRPrinter writes a var it has not seen declared as name?id).
std::string inlineExpr(const Expr& e) {
  std::string printed;
  const std::string raw = IRPrinter().print(e);
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '?' && i + 1 < raw.size() && std::isdigit(static_cast<unsigned char>(raw[i + 1]))) {
      size_t end = i + 1;
      while (end < raw.size() && std::isdigit(static_cast<unsigned char>(raw[end]))) ++end;
      printed += " (#" + raw.substr(i + 1, end - i - 1) + ")";
      i = end - 1;
      continue;
    }
    printed += raw[i];
  }
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
  if (layouts.empty() && blockedVectorWidths.empty() && recomputedAtUse.empty() && inductionTiles.empty() && axes.empty() &&
      dotPlan.empty())
    return text;
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
  if (!dotPlan.empty()) text += dotPlan.str(names);
  if (!recomputedAtUse.empty()) {
    text += "recomputed at use {\n";
    for (int id : recomputedAtUse) text += "  " + names[id] + " (#" + std::to_string(id) + ")\n";
    text += "}\n";
  }
  if (!inductionTiles.empty()) {
    text += "induction tiles {\n";
    for (const auto& [id, tile] : inductionTiles) {
      text += "  " + names[id] + " (#" + std::to_string(id) + "): its initial value + a scalar offset, advanced by";
      for (const auto& [let, step] : tile.steps)
        text += (let == tile.steps.begin()->first ? " " : ", ") + names[let] + " (#" + std::to_string(let) + "): " + inlineExpr(step);
      text += "\n";
    }
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
