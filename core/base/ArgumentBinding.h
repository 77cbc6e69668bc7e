#pragma once
// Python's rule for binding a call's arguments to a function's parameters, written once: positional
// and keyword arguments, defaults, positional-only and keyword-only parameters, *args and **kwargs,
// with CPython's error messages ("f() missing 1 required positional argument: 'x'"). It works on the
// call's shape only (how many positional arguments, which keyword names), so launches from
// Python (values), the kernel checker (typed values with source ranges) and kernel launches all use it and
// map the result back onto their own arguments.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::util {

enum class ParameterKind : uint8_t {
  PositionalOnly,  // before `/`
  Normal,          // positional or keyword
  VarPositional,   // `*args`
  KeywordOnly,     // after `*` or `*args`
  VarKeyword,      // `**kwargs`
};

struct ParameterInfo {
  std::string name;
  ParameterKind kind = ParameterKind::Normal;
  bool hasDefault = false;
  std::string defaultText;  // as written after '=' by parseParameterList; empty otherwise
};

// A parameter list written like a def's: "input, dim=None, /, *args, keepdim=False, **kw" (a bare
// "*" starts keyword-only parameters, "/" ends positional-only ones). Defaults are kept as text, so
// each caller turns them into its own values; commas inside quotes do not split.
std::vector<ParameterInfo> parseParameterList(std::string_view spec);

struct BindingError {
  enum class At : uint8_t { Call, Positional, Keyword };
  std::string message;  // CPython's words: "f() got an unexpected keyword argument 'x'"
  At at = At::Call;     // the argument at fault, for pointing at it in the source
  size_t index = 0;     // its index among the positional or the keyword arguments
  // For an unexpected keyword: the keyword, and the names it could have been (for a suggestion).
  std::string keyword;
  std::vector<std::string> acceptedKeywords;
};

// Where one parameter's value comes from.
struct ArgumentSource {
  enum class From : uint8_t { Positional, Keyword, Default, Packed };
  From from = From::Default;
  size_t index = 0;  // the positional or keyword argument's index
};

class ArgumentBinding {
public:
  // Binds a call with `positionalCount` positional arguments and keyword arguments named `keywords`
  // (in call order) to `params`, checking what CPython checks, in its order. `functionName` is what
  // messages name: "add" gives "add() takes 2 positional arguments but 3 were given".
  static ArgumentBinding bind(std::string_view functionName, const std::vector<ParameterInfo>& params,
                              size_t positionalCount, const std::vector<std::string_view>& keywords);

  bool ok() const { return !error_; }
  const BindingError& error() const { return *error_; }

  // One source per parameter. *args and **kwargs are Packed: their arguments are listed by
  // packedPositional() and packedKeywords(). Parameters left to their default are Default.
  const std::vector<ArgumentSource>& sources() const { return sources_; }
  const std::vector<size_t>& packedPositional() const { return packedPositional_; }
  const std::vector<size_t>& packedKeywords() const { return packedKeywords_; }

private:
  std::vector<ArgumentSource> sources_;
  std::vector<size_t> packedPositional_;
  std::vector<size_t> packedKeywords_;
  std::optional<BindingError> error_;
};

}  // namespace tilescope::util
