#include "core/base/ArgumentBinding.h"

#include <algorithm>

namespace tilescope::util {

namespace {

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(' ');
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

// CPython's format_missing: 'a'; 'a' and 'b'; 'a', 'b', and 'c'.
std::string quotedList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[i] + "'";
  }
  return out;
}

bool takesPositional(ParameterKind k) { return k == ParameterKind::PositionalOnly || k == ParameterKind::Normal; }
bool takesKeyword(ParameterKind k) { return k == ParameterKind::Normal || k == ParameterKind::KeywordOnly; }

}  // namespace

std::vector<ParameterInfo> parseParameterList(std::string_view spec) {
  std::vector<ParameterInfo> params;
  bool keywordOnly = false;
  size_t start = 0;
  while (start < spec.size()) {
    size_t end = start;
    char quote = 0;
    for (; end < spec.size() && (quote || spec[end] != ','); ++end) {
      if (spec[end] == '\'' || spec[end] == '"') quote = quote == spec[end] ? 0 : (quote ? quote : spec[end]);
    }
    const std::string_view item = trim(spec.substr(start, end - start));
    start = end + 1;
    if (item.empty()) continue;
    if (item == "/") {
      for (ParameterInfo& p : params) p.kind = ParameterKind::PositionalOnly;
      continue;
    }
    if (item == "*") {
      keywordOnly = true;
      continue;
    }
    ParameterInfo p;
    if (item.substr(0, 2) == "**") {
      p.kind = ParameterKind::VarKeyword;
      p.name = std::string(trim(item.substr(2)));
    } else if (item[0] == '*') {
      p.kind = ParameterKind::VarPositional;
      p.name = std::string(trim(item.substr(1)));
      keywordOnly = true;
    } else {
      p.kind = keywordOnly ? ParameterKind::KeywordOnly : ParameterKind::Normal;
      const size_t eq = item.find('=');
      p.name = std::string(trim(item.substr(0, eq)));
      if (eq != std::string_view::npos) {
        p.hasDefault = true;
        p.defaultText = std::string(trim(item.substr(eq + 1)));
      }
    }
    params.push_back(std::move(p));
  }
  return params;
}

ArgumentBinding ArgumentBinding::bind(std::string_view functionName, const std::vector<ParameterInfo>& params,
                                      size_t positionalCount, const std::vector<std::string_view>& keywords) {
  ArgumentBinding b;
  const std::string fname = std::string(functionName) + "()";
  auto fail = [&](std::string message, BindingError::At at, size_t index) {
    BindingError e;
    e.message = std::move(message);
    e.at = at;
    e.index = index;
    b.error_ = std::move(e);
    return b;
  };
  b.sources_.assign(params.size(), ArgumentSource{});
  std::vector<bool> filled(params.size(), false);
  std::vector<size_t> positionalParams;
  std::optional<size_t> varPositional, varKeyword;
  for (size_t i = 0; i < params.size(); ++i) {
    if (takesPositional(params[i].kind)) positionalParams.push_back(i);
    if (params[i].kind == ParameterKind::VarPositional) varPositional = i;
    if (params[i].kind == ParameterKind::VarKeyword) varKeyword = i;
  }

  // Positional arguments fill the positional parameters in order; *args takes the rest. Too many
  // without *args is reported after the keywords, as CPython does.
  const size_t direct = std::min(positionalCount, positionalParams.size());
  for (size_t j = 0; j < direct; ++j) {
    b.sources_[positionalParams[j]] = {ArgumentSource::From::Positional, j};
    filled[positionalParams[j]] = true;
  }
  if (varPositional) {
    for (size_t j = direct; j < positionalCount; ++j) b.packedPositional_.push_back(j);
    b.sources_[*varPositional] = {ArgumentSource::From::Packed, 0};
  }

  for (size_t k = 0; k < keywords.size(); ++k) {
    const std::string_view key = keywords[k];
    size_t idx = params.size();
    for (size_t i = 0; i < params.size() && idx == params.size(); ++i)
      if (takesKeyword(params[i].kind) && params[i].name == key) idx = i;
    if (idx == params.size()) {
      if (varKeyword) {
        b.packedKeywords_.push_back(k);
        continue;
      }
      std::vector<std::string> positionalOnly;
      for (std::string_view other : keywords)
        for (const ParameterInfo& p : params)
          if (p.kind == ParameterKind::PositionalOnly && p.name == other) positionalOnly.emplace_back(other);
      if (!positionalOnly.empty()) {
        std::string names;
        for (const std::string& n : positionalOnly) names += (names.empty() ? "" : ", ") + n;
        return fail(fname + " got some positional-only arguments passed as keyword arguments: '" + names + "'",
                    BindingError::At::Keyword, k);
      }
      fail(fname + " got an unexpected keyword argument '" + std::string(key) + "'", BindingError::At::Keyword, k);
      b.error_->keyword = std::string(key);
      for (const ParameterInfo& p : params)
        if (takesKeyword(p.kind)) b.error_->acceptedKeywords.push_back(p.name);
      return b;
    }
    if (filled[idx]) return fail(fname + " got multiple values for argument '" + std::string(key) + "'", BindingError::At::Keyword, k);
    b.sources_[idx] = {ArgumentSource::From::Keyword, k};
    filled[idx] = true;
  }
  if (varKeyword) b.sources_[*varKeyword] = {ArgumentSource::From::Packed, 0};

  if (positionalCount > positionalParams.size() && !varPositional) {
    // CPython's too_many_positional.
    const size_t slots = positionalParams.size();
    size_t defaults = 0, keywordOnlyGiven = 0;
    for (size_t i : positionalParams) defaults += params[i].hasDefault ? 1 : 0;
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].kind == ParameterKind::KeywordOnly && filled[i]) ++keywordOnlyGiven;
    const std::string takes = defaults ? "from " + std::to_string(slots - defaults) + " to " + std::to_string(slots)
                                       : std::to_string(slots);
    const bool pluralTakes = defaults || slots != 1;
    std::string given = std::to_string(positionalCount);
    if (keywordOnlyGiven) {
      given += std::string(" positional argument") + (positionalCount != 1 ? "s" : "") + " (and " +
               plural(keywordOnlyGiven, "keyword-only argument") + ")";
    }
    return fail(fname + " takes " + takes + " positional argument" + (pluralTakes ? "s" : "") + " but " + given +
                    (positionalCount == 1 && !keywordOnlyGiven ? " was" : " were") + " given",
                BindingError::At::Positional, slots);
  }

  std::vector<std::string> missingPositional, missingKeywordOnly;
  for (size_t i = 0; i < params.size(); ++i) {
    if (filled[i] || params[i].hasDefault) continue;
    if (takesPositional(params[i].kind)) missingPositional.push_back(params[i].name);
    if (params[i].kind == ParameterKind::KeywordOnly) missingKeywordOnly.push_back(params[i].name);
  }
  for (const auto& [missing, kind] : {std::pair{&missingPositional, "positional"}, std::pair{&missingKeywordOnly, "keyword-only"}}) {
    if (missing->empty()) continue;
    return fail(fname + " missing " + std::to_string(missing->size()) + " required " + kind + " argument" +
                    (missing->size() == 1 ? "" : "s") + ": " + quotedList(*missing),
                BindingError::At::Call, 0);
  }
  return b;
}

}  // namespace tilescope::util
