#include "core/ir/Kernel.h"

#include "core/ir/IRPrinter.h"

namespace tilescope::ir {

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
  return IRPrinter(options).print(*this);
}

}  // namespace tilescope::ir
