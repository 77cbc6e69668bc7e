#include "core/sim/ArgumentBinder.h"

#include "core/ir/TypeRules.h"
#include "core/sim/DeviceAddress.h"

namespace tilescope::sim {

std::optional<lang::Diagnostic> bindArguments(LaunchContext& L, const std::vector<LaunchArg>& args,
                                              lang::DiagnosticList& warnings) {
  const ir::Kernel& k = L.kernel;
  const std::vector<const ir::KernelParam*> params = k.runtimeParams();
  const std::string kernelName = "kernel '" + k.name + "'";
  if (args.size() != params.size()) {
    std::string names;
    for (const ir::KernelParam* p : params) names += (names.empty() ? "" : ", ") + p->name;
    return lang::Diagnostic::error({}, kernelName + " takes " + std::to_string(params.size()) + " runtime argument" +
                                           (params.size() == 1 ? "" : "s") + " (" + names + ") but the launch passed " +
                                           std::to_string(args.size()));
  }
  L.params.assign(k.params.size(), nullptr);
  for (size_t i = 0; i < params.size(); ++i) {
    const ir::KernelParam& p = *params[i];
    const LaunchArg& a = args[i];
    const int index = static_cast<int>(&p - k.params.data());
    const ir::DType t = p.type.dtype();
    const std::string what = "argument '" + p.name + "' of " + kernelName;
    if (p.type.isPointer()) {
      if (a.kind != LaunchArg::Kind::Tensor)
        return lang::Diagnostic::error(p.range, what + " is a pointer (*" + std::string(ir::dtypeName(t)) +
                                                    "): pass a tensor, not a number");
      const Tensor* tensor = L.memory.find(a.tensorId);
      if (!tensor)
        return lang::Diagnostic::error(p.range, what + " refers to tensor " + std::to_string(a.tensorId) +
                                                    ", which does not exist (was it freed?)");
      if (tensor->dtype() != t)
        return lang::Diagnostic::error(p.range, what + " was specialized for *" + std::string(ir::dtypeName(t)) +
                                                    " but tensor '" + tensor->name() + "' holds " +
                                                    std::string(ir::dtypeName(tensor->dtype())));
      if (a.elementOffset < 0 || a.elementOffset > tensor->storageElements())
        return lang::Diagnostic::error(p.range, what + " starts at element " + std::to_string(a.elementOffset) +
                                                    ", outside tensor '" + tensor->name() + "'");
      const int64_t byteOffset = a.elementOffset * tensor->elementSize();
      if (p.divisibleBy16 && byteOffset % 16 != 0)
        warnings.add(lang::Diagnostic::warning(p.range, what + " was specialized as 16-byte aligned but starts at byte " +
                                                            std::to_string(byteOffset) + " of its tensor"));
      L.params[index] = makeTileRef(Tile::scalarPointer(t, DeviceAddress::make(tensor->id(), byteOffset)));
      L.paramOfTensor.emplace(tensor->id(), index);
      L.argOfTensor.emplace(tensor->id(), static_cast<int>(i));
      continue;
    }
    if (a.kind == LaunchArg::Kind::Tensor)
      return lang::Diagnostic::error(p.range, what + " is a scalar (" + std::string(ir::dtypeName(t)) +
                                                  "): pass a number, not a tensor");
    if (ir::isFloat(t)) {
      const double v = a.kind == LaunchArg::Kind::Float ? a.floatValue : static_cast<double>(a.intValue);
      L.params[index] = makeTileRef(Tile::scalarFloat(t, v));
      continue;
    }
    if (a.kind == LaunchArg::Kind::Float)
      return lang::Diagnostic::error(p.range, what + " is an integer (" + std::string(ir::dtypeName(t)) +
                                                  ") but the launch passed a float");
    if (!ir::fitsInDType(t, a.intValue))
      return lang::Diagnostic::error(p.range, what + " is " + std::string(ir::dtypeName(t)) + " but the value " +
                                                  std::to_string(a.intValue) + " does not fit");
    if (p.divisibleBy16 && a.intValue % 16 != 0)
      warnings.add(lang::Diagnostic::warning(p.range, what + " was specialized as a multiple of 16 but is " +
                                                          std::to_string(a.intValue)));
    L.params[index] = makeTileRef(Tile::scalarInt(t, a.intValue));
  }
  return std::nullopt;
}

}  // namespace tilescope::sim
