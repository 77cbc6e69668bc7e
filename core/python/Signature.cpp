#include "core/python/Signature.h"

#include "core/python/Containers.h"
#include "core/python/LaunchContext.h"
#include "core/python/PyError.h"

namespace tilescope::host {

Signature::Signature(std::string functionName, std::vector<ParamSpec> params)
    : name_(std::move(functionName)), params_(std::move(params)) {
  for (const ParamSpec& p : params_) shape_.push_back({p.name, p.kind, p.defaultValue.has_value(), {}});
}

int Signature::indexOf(const std::string& param) const {
  for (size_t i = 0; i < params_.size(); ++i)
    if (params_[i].name == param) return static_cast<int>(i);
  return -1;
}

ValueList Signature::bind(LaunchContext& in, const CallArgs& args) const {
  std::vector<std::string_view> keywords;
  keywords.reserve(args.keywords.size());
  for (const auto& kw : args.keywords) keywords.emplace_back(kw.first);
  const util::ArgumentBinding binding = util::ArgumentBinding::bind(name_, shape_, args.positional.size(), keywords);
  if (!binding.ok()) throwTypeError(binding.error().message);
  ValueList out(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    const util::ArgumentSource& source = binding.sources()[i];
    switch (source.from) {
      case util::ArgumentSource::From::Positional: out[i] = args.positional[source.index]; break;
      case util::ArgumentSource::From::Keyword: out[i] = args.keywords[source.index].second; break;
      case util::ArgumentSource::From::Default: out[i] = *params_[i].defaultValue; break;
      case util::ArgumentSource::From::Packed:
        if (params_[i].kind == ParamSpec::Kind::VarPositional) {
          ValueList extra;
          for (size_t j : binding.packedPositional()) extra.push_back(args.positional[j]);
          out[i] = makeTuple(std::move(extra));
        } else {
          auto dict = std::make_shared<DictObject>();
          for (size_t k : binding.packedKeywords()) dict->set(in, makeStr(args.keywords[k].first), args.keywords[k].second);
          out[i] = Value(dict);
        }
        break;
    }
  }
  return out;
}

}  // namespace tilescope::host
