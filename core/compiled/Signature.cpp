#include "core/compiled/Signature.h"

#include <charconv>
#include <sstream>

#include "core/kernel/LaunchSites.h"
#include "core/syntax/Ast.h"

namespace tilescope::compiled {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// A constexpr literal: ints, floats, True/False/None, dtype names, anything else as a string.
lang::ConstValue constexprOf(const std::string& text) {
  if (text == "True" || text == "true") return lang::ConstValue::boolean(true);
  if (text == "False" || text == "false") return lang::ConstValue::boolean(false);
  if (text == "None") return lang::ConstValue::none();
  int64_t i = 0;
  const char* end = text.data() + text.size();
  if (auto r = std::from_chars(text.data(), end, i); r.ec == std::errc() && r.ptr == end) return lang::ConstValue::integer(i);
  double d = 0;
  if (auto r = std::from_chars(text.data(), end, d); r.ec == std::errc() && r.ptr == end && !text.empty())
    return lang::ConstValue::floating(d);
  if (auto dtype = ir::parseDType(text)) return lang::ConstValue::dtype(*dtype);
  std::string s = text;
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
  return lang::ConstValue::string(s);
}

std::string constexprText(const lang::ConstValue& v) {
  if (v.isString()) return "'" + v.asString() + "'";
  return v.str();
}

}  // namespace

std::optional<lang::Specialization> parseSignature(const std::string& text, std::string* error) {
  lang::Specialization spec;
  std::stringstream ss(text);
  std::string item;
  int index = 0;
  while (std::getline(ss, item, ',')) {
    ++index;
    std::string entry = trim(item);
    if (entry.empty()) {
      if (error) *error = "entry " + std::to_string(index) + " of the signature is empty: write '*fp32' for a pointer, 'i32' for a scalar or a constexpr's value";
      return std::nullopt;
    }
    const bool multipleOf16 = entry.size() > 3 && entry.compare(entry.size() - 3, 3, ":16") == 0;
    if (multipleOf16) entry.resize(entry.size() - 3);
    if (auto t = ir::parseSignatureType(entry); t && (t->isPointer || entry == ir::dtypeName(t->dtype)))
      spec.args.push_back(t->isPointer ? lang::ArgSpec::pointer(t->dtype) : lang::ArgSpec::scalar(t->dtype, multipleOf16));
    else if (entry[0] == '*') {
      if (error) *error = "entry " + std::to_string(index) + " '" + entry + "' is not a pointer type: write '*fp32', '*fp16', '*i32', ...";
      return std::nullopt;
    } else
      spec.args.push_back(lang::ArgSpec::constexprValue(constexprOf(entry)));
  }
  if (spec.args.empty() && text.find_first_not_of(" \t") != std::string::npos) {
    if (error) *error = "the signature lists no arguments";
    return std::nullopt;
  }
  return spec;
}

std::string formatSignature(const lang::Specialization& spec) {
  std::string out;
  for (const lang::ArgSpec& a : spec.args) {
    if (!out.empty()) out += ",";
    switch (a.kind) {
      case lang::ArgSpec::Kind::Pointer: out += "*" + std::string(ir::dtypeName(a.dtype)); break;
      case lang::ArgSpec::Kind::Scalar: out += std::string(ir::dtypeName(a.dtype)) + (a.divisibleBy16 ? ":16" : ""); break;
      case lang::ArgSpec::Kind::Constexpr: out += constexprText(a.value); break;
    }
  }
  return out;
}

std::optional<std::string> suggestSignature(const lang::Program& program, const std::string& kernel, ir::KernelOptions* options) {
  const lang::JitFunctionInfo* fn = program.findJitFunction(kernel);
  if (!fn || !fn->def) return std::nullopt;
  const lang::LaunchSite* launch = nullptr;
  const std::vector<lang::LaunchSite> sites = lang::findLaunchSites(program);
  for (const lang::LaunchSite& s : sites)
    if (s.kernel == kernel) {
      launch = &s;
      break;
    }
  if (launch && options)
    for (const auto& [name, arg] : launch->kwargs) {
      if (!arg.value || !arg.value->isInt()) continue;
      if (name == "num_warps") options->numWarps = static_cast<int>(arg.value->asInt());
      if (name == "num_stages") options->numStages = static_cast<int>(arg.value->asInt());
    }
  std::vector<std::string> entries;
  size_t lastNeeded = 0;  // trailing parameters with defaults the launch does not pass are left out
  size_t position = 0;
  for (const lang::Param& p : fn->def->params.params) {
    if (p.kind == lang::ParamKind::VarPositional || p.kind == lang::ParamKind::VarKeyword) continue;
    const lang::LaunchArg* passed = nullptr;
    if (launch) {
      if (position < launch->args.size()) passed = &launch->args[position];
      for (const auto& [name, arg] : launch->kwargs)
        if (name == p.name) passed = &arg;
    }
    ++position;
    std::string entry;
    using K = lang::LaunchArg::Kind;
    if (lang::isConstexprParam(p)) {
      if (passed && passed->value) entry = constexprText(*passed->value);
      else if (!p.defaultValue) entry = "16";
    } else if (passed && passed->kind != lang::LaunchArg::Kind::Unknown) {
      switch (passed->kind) {
        case K::Tensor: entry = "*" + std::string(ir::dtypeName(passed->dtype.value_or(ir::DType::FP32))); break;
        case K::Float: entry = "fp32"; break;
        case K::Bool: entry = "i1"; break;
        case K::Int:
          entry = passed->value && passed->value->toInt() % 16 == 0 && passed->value->toInt() != 0 ? "i32:16" : "i32";
          break;
        case K::Constant: entry = passed->value ? constexprText(*passed->value) : "i32"; break;
        default: entry = "i32"; break;
      }
    } else if (passed || !p.defaultValue) {
      // No launch shows its type: a name ending in _ptr (or ptr) is a pointer, by the tutorials' convention.
      const bool pointerName = p.name.size() >= 3 && p.name.compare(p.name.size() - 3, 3, "ptr") == 0;
      entry = pointerName ? "*fp32" : "i32";
    }
    if (!entry.empty()) lastNeeded = entries.size() + 1;
    entries.push_back(entry);
  }
  std::string out;
  for (size_t i = 0; i < lastNeeded; ++i) {
    if (i) out += ",";
    out += entries[i].empty() ? "None" : entries[i];
  }
  return out;
}

}  // namespace tilescope::compiled
