#pragma once
// Conditions on program ids that pick which programs print and are traced. Two spellings, which
// may be mixed; conditions are separated by commas and all must hold:
//   named       "pid_0 > 1, pid_1 == 0"      (pid_0 / pid_1 / pid_2, or plain "pid" for pid_0;
//                                             "and" also separates conditions)
//   positional  ">0"  "=0,=1"  ",>1"         (the seed tutorial's print_if/breakpoint_if syntax: the
//                                             n-th comma-separated part constrains pid_n; an
//                                             empty part constrains nothing)
// Operators: < > <= >= = == != (a single "=" means equality). Numbers are decimal, may be negative.
// The empty string matches every program.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::sim {

struct PidFilterParseResult;

class PidFilter {
public:
  enum class Op : uint8_t { Lt, Gt, Le, Ge, Eq, Ne };
  struct Condition {
    int axis = 0;
    Op op = Op::Eq;
    int64_t value = 0;
  };
  PidFilter() = default;  // matches everything
  static PidFilterParseResult parse(std::string_view text);

  bool matches(const std::array<int64_t, 3>& pid) const;
  bool matchesAll() const { return conditions_.empty(); }
  const std::vector<Condition>& conditions() const { return conditions_; }
  // Canonical text: "pid_0 > 1, pid_1 == 0" ("" for match-all).
  std::string str() const;

private:
  std::vector<Condition> conditions_;
};

struct PidFilterParseResult {
  std::optional<PidFilter> filter;
  std::string error;  // empty on success; says what is wrong and what would be accepted
  int column = 0;     // 1-based position of the problem in the text
};

}  // namespace tilescope::sim
