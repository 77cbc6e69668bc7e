#include "core/host/Signature.h"

#include <cstdlib>

#include "core/host/Containers.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"

namespace tilescope::host {

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

Value parseDefault(const std::string& text) {
  if (text == "None") return Value();
  if (text == "True") return Value::boolean(true);
  if (text == "False") return Value::boolean(false);
  if (!text.empty() && (text[0] == '\'' || text[0] == '"')) return makeStr(text.substr(1, text.size() - 2));
  if (text.find_first_of(".e") != std::string::npos && text != "-1") return Value::real(std::strtod(text.c_str(), nullptr));
  return Value::integer(std::strtoll(text.c_str(), nullptr, 10));
}

std::string quotedList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[i] + "'";
  }
  return out;
}

}  // namespace

Signature Signature::parse(std::string functionName, const std::string& spec) {
  std::vector<ParamSpec> params;
  bool keywordOnly = false;
  size_t start = 0;
  while (start <= spec.size()) {
    // Split on commas outside quotes.
    size_t end = start;
    bool quoted = false;
    while (end < spec.size() && (quoted || spec[end] != ',')) {
      if (spec[end] == '\'') quoted = !quoted;
      ++end;
    }
    const std::string item = trim(spec.substr(start, end - start));
    start = end + 1;
    if (item.empty()) {
      if (end >= spec.size()) break;
      continue;
    }
    ParamSpec p;
    if (item == "*") {
      keywordOnly = true;
      continue;
    }
    if (item.rfind("**", 0) == 0) {
      p.kind = ParamSpec::Kind::VarKeyword;
      p.name = item.substr(2);
    } else if (item[0] == '*') {
      p.kind = ParamSpec::Kind::VarPositional;
      p.name = item.substr(1);
      keywordOnly = true;
    } else {
      p.kind = keywordOnly ? ParamSpec::Kind::KeywordOnly : ParamSpec::Kind::Normal;
      const size_t eq = item.find('=');
      p.name = trim(item.substr(0, eq));
      if (eq != std::string::npos) p.defaultValue = parseDefault(trim(item.substr(eq + 1)));
    }
    params.push_back(std::move(p));
    if (end >= spec.size()) break;
  }
  return Signature(std::move(functionName), std::move(params));
}

int Signature::indexOf(const std::string& param) const {
  for (size_t i = 0; i < params_.size(); ++i)
    if (params_[i].name == param) return static_cast<int>(i);
  return -1;
}

ValueList Signature::bind(Interpreter& in, const CallArgs& args) const {
  ValueList out(params_.size());
  std::vector<bool> filled(params_.size(), false);
  int varPos = -1, varKw = -1;
  size_t positionalSlots = 0;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (params_[i].kind == ParamSpec::Kind::Normal) ++positionalSlots;
    if (params_[i].kind == ParamSpec::Kind::VarPositional) varPos = static_cast<int>(i);
    if (params_[i].kind == ParamSpec::Kind::VarKeyword) varKw = static_cast<int>(i);
  }
  const std::string fname = name_ + "()";
  // Positional arguments fill the Normal parameters in order, the rest go to *args.
  ValueList extra;
  size_t next = 0;
  for (const Value& v : args.positional) {
    while (next < params_.size() && params_[next].kind != ParamSpec::Kind::Normal) ++next;
    if (next < params_.size()) {
      out[next] = v;
      filled[next] = true;
      ++next;
    } else {
      extra.push_back(v);
    }
  }
  if (!extra.empty() && varPos < 0) {
    size_t required = 0;
    for (const ParamSpec& p : params_)
      if (p.kind == ParamSpec::Kind::Normal && !p.defaultValue) ++required;
    const size_t given = args.positional.size();
    std::string takes = required == positionalSlots ? std::to_string(positionalSlots)
                                                    : "from " + std::to_string(required) + " to " + std::to_string(positionalSlots);
    throwTypeError(fname + " takes " + takes + " positional argument" + (positionalSlots == 1 && required == positionalSlots ? "" : "s") +
                   " but " + std::to_string(given) + (given == 1 ? " was" : " were") + " given");
  }
  if (varPos >= 0) {
    out[static_cast<size_t>(varPos)] = makeTuple(std::move(extra));
    filled[static_cast<size_t>(varPos)] = true;
  }
  std::shared_ptr<DictObject> kwDict;
  if (varKw >= 0) kwDict = std::make_shared<DictObject>();
  for (const auto& [name, value] : args.keywords) {
    const int idx = indexOf(name);
    if (idx >= 0 && (params_[static_cast<size_t>(idx)].kind == ParamSpec::Kind::Normal ||
                     params_[static_cast<size_t>(idx)].kind == ParamSpec::Kind::KeywordOnly)) {
      if (filled[static_cast<size_t>(idx)]) throwTypeError(fname + " got multiple values for argument '" + name + "'");
      out[static_cast<size_t>(idx)] = value;
      filled[static_cast<size_t>(idx)] = true;
    } else if (kwDict) {
      kwDict->set(in, makeStr(name), value);
    } else {
      throwTypeError(fname + " got an unexpected keyword argument '" + name + "'");
    }
  }
  if (kwDict) {
    out[static_cast<size_t>(varKw)] = Value(kwDict);
    filled[static_cast<size_t>(varKw)] = true;
  }
  std::vector<std::string> missingPos, missingKw;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (filled[i]) continue;
    if (params_[i].defaultValue) {
      out[i] = *params_[i].defaultValue;
      continue;
    }
    (params_[i].kind == ParamSpec::Kind::KeywordOnly ? missingKw : missingPos).push_back(params_[i].name);
  }
  if (!missingPos.empty()) {
    throwTypeError(fname + " missing " + std::to_string(missingPos.size()) + " required positional argument" +
                   (missingPos.size() == 1 ? "" : "s") + ": " + quotedList(missingPos));
  }
  if (!missingKw.empty()) {
    throwTypeError(fname + " missing " + std::to_string(missingKw.size()) + " required keyword-only argument" +
                   (missingKw.size() == 1 ? "" : "s") + ": " + quotedList(missingKw));
  }
  return out;
}

}  // namespace tilescope::host
