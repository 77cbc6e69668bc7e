#include "core/sim/PidFilter.h"

#include <cctype>
#include <charconv>

namespace tilescope::sim {

namespace {

const char* opText(PidFilter::Op op) {
  switch (op) {
    case PidFilter::Op::Lt: return "<";
    case PidFilter::Op::Gt: return ">";
    case PidFilter::Op::Le: return "<=";
    case PidFilter::Op::Ge: return ">=";
    case PidFilter::Op::Eq: return "==";
    case PidFilter::Op::Ne: return "!=";
  }
  return "?";
}

constexpr const char* kOpsHelp = "use one of < > <= >= = == !=";

// A cursor over one comma-separated part; columns are reported 1-based in the whole text.
class PartParser {
public:
  PartParser(std::string_view text, size_t begin, size_t end) : text_(text), pos_(begin), end_(end) {}

  void skipSpace() {
    while (pos_ < end_ && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool atEnd() {
    skipSpace();
    return pos_ >= end_;
  }
  int column() const { return static_cast<int>(pos_) + 1; }
  bool startsWithOp() {
    skipSpace();
    return pos_ < end_ && std::string_view("<>=!").find(text_[pos_]) != std::string_view::npos;
  }

  // "pid_0" | "pid" -> axis; nullopt with error when something else is there.
  std::optional<int> axis(std::string& error, int& col) {
    skipSpace();
    col = column();
    size_t p = pos_;
    while (p < end_ && (std::isalnum(static_cast<unsigned char>(text_[p])) || text_[p] == '_')) ++p;
    const std::string_view word = text_.substr(pos_, p - pos_);
    if (word == "pid") {
      pos_ = p;
      return 0;
    }
    if (word.size() == 5 && word.substr(0, 4) == "pid_" && word[4] >= '0' && word[4] <= '2') {
      pos_ = p;
      return word[4] - '0';
    }
    if (word.substr(0, 4) == "pid_")
      error = "unknown program axis '" + std::string(word) + "': programs have axes pid_0, pid_1 and pid_2";
    else
      error = word.empty() ? "expected a condition such as 'pid_0 > 1' or '>1'"
                           : "unknown name '" + std::string(word) + "': write pid_0, pid_1 or pid_2";
    return std::nullopt;
  }

  std::optional<PidFilter::Op> op(std::string& error, int& col) {
    skipSpace();
    col = column();
    size_t p = pos_;
    while (p < end_ && std::string_view("<>=!").find(text_[p]) != std::string_view::npos) ++p;
    const std::string_view s = text_.substr(pos_, p - pos_);
    std::optional<PidFilter::Op> out;
    if (s == "<") out = PidFilter::Op::Lt;
    else if (s == ">") out = PidFilter::Op::Gt;
    else if (s == "<=") out = PidFilter::Op::Le;
    else if (s == ">=") out = PidFilter::Op::Ge;
    else if (s == "=" || s == "==") out = PidFilter::Op::Eq;
    else if (s == "!=") out = PidFilter::Op::Ne;
    if (!out) {
      error = s.empty() ? std::string("expected a comparison operator: ") + kOpsHelp
                        : "unknown operator '" + std::string(s) + "': " + kOpsHelp;
      return std::nullopt;
    }
    pos_ = p;
    return out;
  }

  std::optional<int64_t> number(std::string& error, int& col) {
    skipSpace();
    col = column();
    size_t p = pos_;
    if (p < end_ && (text_[p] == '-' || text_[p] == '+')) ++p;
    while (p < end_ && std::isdigit(static_cast<unsigned char>(text_[p]))) ++p;
    int64_t v = 0;
    const char* first = text_.data() + pos_ + (pos_ < end_ && text_[pos_] == '+' ? 1 : 0);
    const auto [ptr, ec] = std::from_chars(first, text_.data() + p, v);
    if (ec != std::errc() || ptr != text_.data() + p || p == pos_) {
      size_t q = pos_;
      while (q < end_ && !std::isspace(static_cast<unsigned char>(text_[q]))) ++q;
      const std::string_view bad = text_.substr(pos_, q - pos_);
      error = bad.empty() ? "expected a number after the operator"
                          : "expected a whole number, found '" + std::string(bad) + "'";
      return std::nullopt;
    }
    pos_ = p;
    return v;
  }

  // Remaining text of this part (for "unexpected ..." errors).
  std::string_view rest() {
    skipSpace();
    return text_.substr(pos_, end_ - pos_);
  }

private:
  std::string_view text_;
  size_t pos_;
  size_t end_;
};

// Splits on commas and on the word "and" (outside identifiers).
std::vector<std::pair<size_t, size_t>> splitParts(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ',') {
      parts.emplace_back(start, i);
      start = i + 1;
      continue;
    }
    const bool wordStart = i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_');
    if (wordStart && text.substr(i, 3) == "and" &&
        (i + 3 == text.size() || !(std::isalnum(static_cast<unsigned char>(text[i + 3])) || text[i + 3] == '_'))) {
      parts.emplace_back(start, i);
      start = i + 3;
      i += 2;
    }
  }
  return parts;
}

}  // namespace

PidFilterParseResult PidFilter::parse(std::string_view text) {
  PidFilter f;
  PidFilterParseResult result;
  const auto parts = splitParts(text);
  // One empty part means the empty filter; positional parts count from pid_0.
  int position = -1;
  for (const auto& [begin, end] : parts) {
    ++position;
    PartParser p(text, begin, end);
    if (p.atEnd()) continue;
    Condition c;
    std::string error;
    int col = 0;
    if (p.startsWithOp()) {
      if (position > 2) {
        result.error = "a positional condition constrains pid_" + std::to_string(position) +
                       ", but programs only have pid_0, pid_1 and pid_2";
        result.column = p.column();
        return result;
      }
      c.axis = position;
    } else {
      auto axis = p.axis(error, col);
      if (!axis) {
        result.error = error;
        result.column = col;
        return result;
      }
      c.axis = *axis;
    }
    auto op = p.op(error, col);
    if (!op) {
      result.error = error;
      result.column = col;
      return result;
    }
    c.op = *op;
    auto value = p.number(error, col);
    if (!value) {
      result.error = error;
      result.column = col;
      return result;
    }
    c.value = *value;
    if (!p.atEnd()) {
      result.column = p.column();
      result.error = "unexpected '" + std::string(p.rest()) + "' after the condition; separate conditions with ','";
      return result;
    }
    f.conditions_.push_back(c);
  }
  result.filter = std::move(f);
  return result;
}

bool PidFilter::matches(const std::array<int64_t, 3>& pid) const {
  for (const Condition& c : conditions_) {
    const int64_t v = pid[c.axis];
    bool ok = false;
    switch (c.op) {
      case Op::Lt: ok = v < c.value; break;
      case Op::Gt: ok = v > c.value; break;
      case Op::Le: ok = v <= c.value; break;
      case Op::Ge: ok = v >= c.value; break;
      case Op::Eq: ok = v == c.value; break;
      case Op::Ne: ok = v != c.value; break;
    }
    if (!ok) return false;
  }
  return true;
}

std::string PidFilter::str() const {
  std::string out;
  for (const Condition& c : conditions_) {
    if (!out.empty()) out += ", ";
    out += "pid_" + std::to_string(c.axis) + " " + opText(c.op) + " " + std::to_string(c.value);
  }
  return out;
}

}  // namespace tilescope::sim
