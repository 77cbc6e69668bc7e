#include "app/cli/ConstexprArg.h"

#include <charconv>

namespace tilescope::cli {

lang::ConstValue parseConstexprArg(const std::string& text) {
  if (text == "True" || text == "true") return lang::ConstValue::boolean(true);
  if (text == "False" || text == "false") return lang::ConstValue::boolean(false);
  if (text == "None") return lang::ConstValue::none();
  int64_t i = 0;
  const char* end = text.data() + text.size();
  if (auto r = std::from_chars(text.data(), end, i); r.ec == std::errc() && r.ptr == end)
    return lang::ConstValue::integer(i);
  double d = 0;
  if (auto r = std::from_chars(text.data(), end, d); r.ec == std::errc() && r.ptr == end && !text.empty())
    return lang::ConstValue::floating(d);
  if (auto dtype = ir::parseDType(text)) return lang::ConstValue::dtype(*dtype);
  std::string s = text;
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
  return lang::ConstValue::string(s);
}

}  // namespace tilescope::cli
