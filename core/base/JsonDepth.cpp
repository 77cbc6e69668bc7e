#include "core/base/JsonDepth.h"

#include <nlohmann/json.hpp>
#include <string>

namespace tilescope::util {
namespace {
using nlohmann::json;

// Counts nesting only; returning false from start_* stops the parse at once.
class DepthCounter {
public:
  explicit DepthCounter(std::size_t maxDepth) : maxDepth_(maxDepth) {}
  bool tooDeep() const { return tooDeep_; }

  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) { return true; }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool key(json::string_t&) { return true; }
  bool start_object(std::size_t) { return enter(); }
  bool start_array(std::size_t) { return enter(); }
  bool end_object() { return leave(); }
  bool end_array() { return leave(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

private:
  bool enter() {
    if (++depth_ > maxDepth_) tooDeep_ = true;
    return !tooDeep_;
  }
  bool leave() {
    --depth_;
    return true;
  }

  std::size_t maxDepth_;
  std::size_t depth_ = 0;
  bool tooDeep_ = false;
};
}  // namespace

bool jsonNestsDeeperThan(std::string_view text, std::size_t maxDepth) {
  DepthCounter counter(maxDepth);
  json::sax_parse(text, &counter, json::input_format_t::json, /*strict=*/true, /*ignore_comments=*/false);
  return counter.tooDeep();
}

}  // namespace tilescope::util
