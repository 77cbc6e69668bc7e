#include "core/syntax/Lexer.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string_view>

namespace tilescope::lang {

namespace {

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
bool isHexDigit(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hexValue(char c) {
  if (isDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Valid Python string prefixes, compared case-insensitively.
bool isStringPrefix(std::string_view word) {
  if (word.empty() || word.size() > 2) return false;
  std::string w;
  for (char c : word) w += lower(c);
  return w == "r" || w == "u" || w == "b" || w == "f" || w == "br" || w == "rb" || w == "fr" || w == "rf";
}

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Length of the well-formed UTF-8 sequence at text[0], or 0 when it is not one.
size_t utf8SequenceLength(std::string_view text, uint32_t* codePoint) {
  const auto b0 = static_cast<unsigned char>(text[0]);
  size_t len = b0 >= 0xF0 && b0 <= 0xF4 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 ? 2 : 0;
  if (b0 >= 0xF5 || len == 0 || len > text.size()) return 0;
  uint32_t cp = b0 & (0x7F >> len);
  for (size_t i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  *codePoint = cp;
  return len;
}

std::string hexByte(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", b);
  return buf;
}

std::string stripUnderscores(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != '_') out += c;
  return out;
}

}  // namespace

Lexer::Lexer(const SourceFile& file, DiagnosticList& diagnostics, Mode mode)
    : Lexer(file, diagnostics, 0, static_cast<uint32_t>(file.text().size()), mode) {}

Lexer::Lexer(const SourceFile& file, DiagnosticList& diagnostics, uint32_t begin, uint32_t end, Mode mode)
    : file_(file),
      text_(file.text()),
      diagnostics_(diagnostics),
      mode_(mode),
      pos_(begin),
      end_(std::min<uint32_t>(end, static_cast<uint32_t>(file.text().size()))),
      atLineStart_(mode == Mode::Module) {}

Token Lexer::next() {
  while (pending_.empty()) {
    if (finished_) {
      Token eof;
      eof.kind = TokenKind::EndOfFile;
      eof.range = rangeOf(end_, end_);
      return eof;
    }
    advance();
  }
  Token token = std::move(pending_.front());
  pending_.pop_front();
  return token;
}

std::vector<Token> Lexer::tokenize() {
  std::vector<Token> tokens;
  for (;;) {
    tokens.push_back(next());
    const TokenKind k = tokens.back().kind;
    if (k == TokenKind::EndOfFile || k == TokenKind::Error) return tokens;
  }
}

void Lexer::push(TokenKind kind, uint32_t begin, uint32_t end) {
  Token t;
  t.kind = kind;
  t.range = rangeOf(begin, end);
  pending_.push_back(std::move(t));
}

void Lexer::push(Token token) { pending_.push_back(std::move(token)); }

void Lexer::fail(uint32_t begin, uint32_t end, std::string message) {
  if (finished_) return;  // report only the first problem
  const uint32_t clampedEnd = std::max(begin, std::min(end, end_));
  diagnostics_.add(Diagnostic::error(rangeOf(begin, clampedEnd), std::move(message)));
  pending_.clear();
  push(TokenKind::Error, begin, clampedEnd);
  finished_ = true;
}

// One step: handles the start of a line, skips blanks, then produces at least one token or
// consumes at least one byte, so the caller's loop always makes progress.
void Lexer::advance() {
  if (atLineStart_ && brackets_.empty()) {
    handleIndentation();
    return;
  }
  skipSpaceAndComments();
  if (finished_) return;
  if (pos_ >= end_) {
    atEndOfInput();
    return;
  }
  if (text_[pos_] == '\n') {
    const uint32_t start = pos_++;
    // Inside brackets or f-string fields newlines join lines; a line without tokens ends nothing.
    if (mode_ == Mode::Embedded || !brackets_.empty() || !lineHasTokens_) return;
    lineHasTokens_ = false;
    atLineStart_ = mode_ == Mode::Module;
    push(TokenKind::Newline, start, pos_);
    return;
  }
  lineHasTokens_ = true;
  lexToken();
}

void Lexer::handleIndentation() {
  const uint32_t lineStart = pos_;
  uint32_t p = pos_;
  int column = 0;
  int altColumn = 0;
  for (; p < end_; ++p) {
    const char c = text_[p];
    if (c == ' ') {
      ++column;
      ++altColumn;
    } else if (c == '\t') {
      column = (column / 8 + 1) * 8;
      ++altColumn;
    } else if (c == '\f') {
      column = altColumn = 0;
    } else if (c != '\r') {
      break;
    }
  }
  pos_ = p;
  if (p >= end_) {  // trailing whitespace at the end: nothing to indent
    atLineStart_ = false;
    return;
  }
  if (text_[p] == '#' || text_[p] == '\n') {
    // Blank and comment-only lines do not take part in indentation.
    while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
    if (pos_ < end_) ++pos_;
    return;
  }
  atLineStart_ = false;
  const auto tabError = [&] {
    fail(lineStart, p, "inconsistent use of tabs and spaces in indentation; indent with spaces only");
  };
  if (column > indents_.back()) {
    if (altColumn <= altIndents_.back()) return tabError();
    if (indents_.size() > kMaxIndentDepth) {
      return fail(lineStart, p, "too many levels of indentation (the limit is 100); move inner code into a function");
    }
    indents_.push_back(column);
    altIndents_.push_back(altColumn);
    push(TokenKind::Indent, lineStart, p);
    return;
  }
  while (column < indents_.back()) {
    indents_.pop_back();
    altIndents_.pop_back();
    push(TokenKind::Dedent, p, p);
  }
  if (column != indents_.back()) {
    return fail(p, p + 1,
                "unindent does not match any outer indentation level; line it up with an enclosing block");
  }
  if (altColumn != altIndents_.back()) return tabError();
}

void Lexer::skipSpaceAndComments() {
  while (pos_ < end_) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
    } else if (c == '\\') {
      if (peekChar(pos_ + 1) == '\n') {
        pos_ += 2;
      } else if (peekChar(pos_ + 1) == '\r' && peekChar(pos_ + 2) == '\n') {
        pos_ += 3;
      } else if (pos_ + 1 >= end_) {
        return fail(pos_, pos_ + 1, "unexpected end of file after line continuation character '\\'");
      } else {
        return fail(pos_, pos_ + 1,
                    "unexpected character after line continuation character '\\'; the backslash must end the line");
      }
    } else {
      return;
    }
  }
}

void Lexer::atEndOfInput() {
  if (!brackets_.empty()) {
    const Bracket& b = brackets_.back();
    return fail(b.offset, b.offset + 1,
                std::string("'") + b.open + "' was never closed; add the matching '" +
                    (b.open == '(' ? ')' : b.open == '[' ? ']' : '}') + "'");
  }
  if (mode_ != Mode::Embedded && lineHasTokens_) push(TokenKind::Newline, end_, end_);
  lineHasTokens_ = false;
  while (indents_.size() > 1) {
    indents_.pop_back();
    altIndents_.pop_back();
    push(TokenKind::Dedent, end_, end_);
  }
  push(TokenKind::EndOfFile, end_, end_);
  finished_ = true;
}

void Lexer::lexToken() {
  const char c = text_[pos_];
  if (isIdentStart(c)) return lexName();
  if (isDigit(c) || (c == '.' && isDigit(peekChar(pos_ + 1)))) return lexNumber();
  if (c == '"' || c == '\'') return lexString(pos_, {});
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x80) {
    uint32_t cp = 0;
    const size_t len = utf8SequenceLength(text_.substr(pos_, end_ - pos_), &cp);
    if (len > 0) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "U+%04X", cp);
      return fail(pos_, pos_ + static_cast<uint32_t>(len),
                  "invalid character '" + std::string(text_.substr(pos_, len)) + "' (" + buf +
                      "); only ASCII is allowed outside strings and comments");
    }
    return fail(pos_, pos_ + 1,
                "invalid byte " + hexByte(byte) + " (not ASCII); only ASCII is allowed outside strings and comments");
  }
  lexOperator();
}

void Lexer::lexName() {
  const uint32_t start = pos_;
  while (pos_ < end_ && isIdentChar(text_[pos_])) ++pos_;
  const std::string_view word = text_.substr(start, pos_ - start);
  if ((peekChar(pos_) == '"' || peekChar(pos_) == '\'') && isStringPrefix(word)) return lexString(start, word);
  Token t;
  t.range = rangeOf(start, pos_);
  if (auto kw = keywordKind(word)) {
    t.kind = *kw;
  } else {
    t.kind = TokenKind::Name;
    t.text = std::string(word);
  }
  push(std::move(t));
}

void Lexer::lexNumber() {
  const uint32_t start = pos_;
  // Scans digits allowed by `isValid`, with single underscores between digits.
  const auto scanDigits = [&](auto isValid) -> bool {
    bool any = false;
    while (pos_ < end_) {
      const char c = text_[pos_];
      if (isValid(c)) {
        any = true;
        ++pos_;
      } else if (c == '_' && any && isValid(peekChar(pos_ + 1))) {
        ++pos_;
      } else {
        break;
      }
    }
    return any;
  };
  const auto invalid = [&](std::string what) {
    while (pos_ < end_ && (isIdentChar(text_[pos_]) || text_[pos_] == '.')) ++pos_;
    fail(start, pos_, std::move(what));
  };

  Token t;
  const char second = lower(peekChar(pos_ + 1));
  if (text_[pos_] == '0' && (second == 'x' || second == 'o' || second == 'b')) {
    const int base = second == 'x' ? 16 : second == 'o' ? 8 : 2;
    const char* baseName = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    pos_ += 2;
    if (peekChar(pos_) == '_') ++pos_;  // `0x_FF` is allowed
    const auto valid = [base](char c) {
      return base == 16 ? isHexDigit(c) : base == 8 ? (c >= '0' && c <= '7') : (c == '0' || c == '1');
    };
    const uint32_t digitsStart = pos_;
    if (!scanDigits(valid) || isIdentChar(peekChar(pos_))) {
      return invalid(std::string("invalid ") + baseName + " literal");
    }
    uint64_t value = 0;
    bool overflow = false;
    for (uint32_t i = digitsStart; i < pos_; ++i) {
      if (text_[i] == '_') continue;
      const auto d = static_cast<uint64_t>(hexValue(text_[i]));
      if (value > (std::numeric_limits<uint64_t>::max() - d) / static_cast<uint64_t>(base)) overflow = true;
      value = value * static_cast<uint64_t>(base) + d;
    }
    t.kind = TokenKind::Int;
    if (!overflow && value <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      t.intValue = static_cast<int64_t>(value);
  } else {
    scanDigits(isDigit);
    bool isFloat = false;
    if (peekChar(pos_) == '.') {
      isFloat = true;
      ++pos_;
      scanDigits(isDigit);
    }
    if (lower(peekChar(pos_)) == 'e') {
      uint32_t p = pos_ + 1;
      if (peekChar(p) == '+' || peekChar(p) == '-') ++p;
      if (isDigit(peekChar(p))) {
        isFloat = true;
        pos_ = p;
        scanDigits(isDigit);
      } else {
        return invalid("invalid float literal: the exponent needs digits, e.g. 1e-5");
      }
    }
    if (lower(peekChar(pos_)) == 'j') return invalid("complex (imaginary) literals are not supported");
    if (isIdentChar(peekChar(pos_))) return invalid("invalid decimal literal");
    const std::string digits = stripUnderscores(text_.substr(start, pos_ - start));
    if (isFloat) {
      t.kind = TokenKind::Float;
      double value = 0.0;
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      (void)ptr;
      if (ec == std::errc::result_out_of_range) {
        // Python rounds to inf or 0; from_chars leaves the value alone.
        const auto e = digits.find_first_of("eE");
        const bool tiny = (e != std::string::npos && digits[e + 1] == '-') || digits.rfind("0.", 0) == 0 ||
                          digits[0] == '.';
        value = tiny ? 0.0 : std::numeric_limits<double>::infinity();
      }
      t.floatValue = value;
    } else {
      if (digits.size() > 1 && digits[0] == '0' && digits.find_first_not_of('0') != std::string::npos) {
        return fail(start, pos_,
                    "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
      }
      t.kind = TokenKind::Int;
      int64_t value = 0;
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      (void)ptr;
      if (ec == std::errc()) t.intValue = value;
    }
  }
  t.range = rangeOf(start, pos_);
  t.text = std::string(t.range.text());
  push(std::move(t));
}

bool Lexer::closesString(const StringContext& ctx) const {
  if (peekChar(pos_) != ctx.quote) return false;
  return !ctx.triple || (peekChar(pos_ + 1) == ctx.quote && peekChar(pos_ + 2) == ctx.quote);
}

void Lexer::failUnterminated(const StringContext& ctx) {
  if (ctx.triple) {
    const std::string q(3, ctx.quote);
    fail(ctx.start, ctx.start + ctx.openLength,
         "unterminated triple-quoted string literal (started here); close it with " + q);
  } else {
    fail(ctx.start, ctx.start + ctx.openLength,
         std::string("unterminated string literal (started here); close it with ") + ctx.quote +
             " on the same line, or use triple quotes for text over several lines");
  }
}

void Lexer::lexString(uint32_t start, std::string_view prefix) {
  Token t;
  t.kind = TokenKind::String;
  for (char c : prefix) {
    const char l = lower(c);
    t.isRaw |= l == 'r';
    t.isBytes |= l == 'b';
    t.isFString |= l == 'f';
  }
  StringContext ctx{};
  ctx.start = start;
  ctx.quote = text_[pos_];
  ctx.triple = peekChar(pos_ + 1) == ctx.quote && peekChar(pos_ + 2) == ctx.quote;
  ctx.raw = t.isRaw;
  ctx.bytes = t.isBytes;
  pos_ += ctx.triple ? 3 : 1;
  ctx.openLength = pos_ - start;

  if (t.isFString) {
    if (!scanFStringParts(t.segments, ctx, 0)) return;
  } else {
    for (;;) {
      if (pos_ >= end_) return failUnterminated(ctx);
      const char c = text_[pos_];
      if (c == ctx.quote && closesString(ctx)) {
        pos_ += ctx.triple ? 3 : 1;
        break;
      }
      if (c == '\n' && !ctx.triple) return failUnterminated(ctx);
      if (c == '\\') {
        if (!decodeEscape(t.text, ctx)) return;
        continue;
      }
      t.text += c;
      ++pos_;
    }
  }
  t.range = rangeOf(start, pos_);
  push(std::move(t));
}

// Decodes the escape sequence at pos_ (a backslash) into `out`. Raw strings keep it verbatim.
bool Lexer::decodeEscape(std::string& out, const StringContext& ctx) {
  const uint32_t start = pos_;
  if (pos_ + 1 >= end_) {
    failUnterminated(ctx);
    return false;
  }
  const char e = text_[pos_ + 1];
  if (ctx.raw) {
    // The backslash still stops the next character (a quote, a newline) from ending the string.
    out += '\\';
    out += e;
    pos_ += 2;
    return true;
  }
  pos_ += 2;
  switch (e) {
    case '\n': return true;  // backslash-newline continues the string on the next line
    case '\r':
      if (peekChar(pos_) == '\n') ++pos_;
      return true;
    case '\\': out += '\\'; return true;
    case '\'': out += '\''; return true;
    case '"': out += '"'; return true;
    case 'a': out += '\a'; return true;
    case 'b': out += '\b'; return true;
    case 'f': out += '\f'; return true;
    case 'n': out += '\n'; return true;
    case 'r': out += '\r'; return true;
    case 't': out += '\t'; return true;
    case 'v': out += '\v'; return true;
    default: break;
  }
  if (e >= '0' && e <= '7') {
    uint32_t value = static_cast<uint32_t>(e - '0');
    for (int i = 0; i < 2 && peekChar(pos_) >= '0' && peekChar(pos_) <= '7'; ++i)
      value = value * 8 + static_cast<uint32_t>(text_[pos_++] - '0');
    if (ctx.bytes) out += static_cast<char>(value & 0xFF);
    else appendUtf8(out, value);
    return true;
  }
  const auto hexEscape = [&](int digits, const char* example) -> bool {
    uint32_t value = 0;
    for (int i = 0; i < digits; ++i) {
      if (!isHexDigit(peekChar(pos_))) {
        fail(start, pos_, std::string("invalid \\") + e + " escape: it needs exactly " + std::to_string(digits) +
                              " hex digits, e.g. " + example);
        return false;
      }
      value = value * 16 + static_cast<uint32_t>(hexValue(text_[pos_++]));
    }
    if (e == 'x') {
      if (ctx.bytes) out += static_cast<char>(value);
      else appendUtf8(out, value);
    } else if (value > 0x10FFFF) {
      fail(start, pos_, "invalid \\U escape: the code point is above U+10FFFF");
      return false;
    } else {
      appendUtf8(out, value);
    }
    return true;
  };
  if (e == 'x') return hexEscape(2, "\\x41");
  if (!ctx.bytes && e == 'u') return hexEscape(4, "\\u00e9");
  if (!ctx.bytes && e == 'U') return hexEscape(8, "\\U0001F600");
  if (!ctx.bytes && e == 'N') {
    fail(start, pos_, "\\N{...} named Unicode escapes are not supported; write the character or use \\u with its code point");
    return false;
  }
  // Python keeps unknown escapes such as "\d" as they are.
  out += '\\';
  out += e;
  return true;
}

// Scans f-string text up to the closing quote (specDepth 0, which it consumes) or up to the '}'
// that ends a format spec (specDepth > 0, left for the caller).
bool Lexer::scanFStringParts(std::vector<FStringSegment>& out, const StringContext& ctx, int specDepth) {
  std::string literal;
  uint32_t literalBegin = pos_;
  const auto flush = [&] {
    if (!literal.empty()) {
      FStringSegment seg;
      seg.range = rangeOf(literalBegin, pos_);
      seg.text = std::move(literal);
      out.push_back(std::move(seg));
    }
    literal.clear();
  };
  for (;;) {
    if (pos_ >= end_) {
      failUnterminated(ctx);
      return false;
    }
    const char c = text_[pos_];
    if (c == ctx.quote && closesString(ctx)) {
      if (specDepth > 0) {
        fail(pos_, pos_ + 1, "f-string: expecting '}' to close the replacement field");
        return false;
      }
      flush();
      pos_ += ctx.triple ? 3 : 1;
      return true;
    }
    if (c == '\n' && !ctx.triple) {
      failUnterminated(ctx);
      return false;
    }
    if (c == '\\') {
      if (!decodeEscape(literal, ctx)) return false;
      continue;
    }
    if (c == '{') {
      if (specDepth == 0 && peekChar(pos_ + 1) == '{') {
        literal += '{';
        pos_ += 2;
        continue;
      }
      flush();
      if (!scanFStringField(out, ctx, specDepth)) return false;
      literalBegin = pos_;
      continue;
    }
    if (c == '}') {
      if (specDepth > 0) {
        flush();
        return true;
      }
      if (peekChar(pos_ + 1) == '}') {
        literal += '}';
        pos_ += 2;
        continue;
      }
      fail(pos_, pos_ + 1, "f-string: single '}' is not allowed; write '}}' for a literal brace");
      return false;
    }
    literal += c;
    ++pos_;
  }
}

// Scans one replacement field `{expr=!r:spec}` starting at its '{'.
bool Lexer::scanFStringField(std::vector<FStringSegment>& out, const StringContext& ctx, int specDepth) {
  const uint32_t fieldBegin = pos_++;
  if (specDepth >= 2) {
    fail(fieldBegin, pos_, "f-string: expressions nested too deeply");
    return false;
  }
  FStringSegment seg;
  seg.isField = true;
  const uint32_t exprBegin = pos_;
  size_t depth = 0;
  for (;;) {
    if (pos_ >= end_ || (text_[pos_] == '\n' && !ctx.triple)) {
      failUnterminated(ctx);
      return false;
    }
    const char c = text_[pos_];
    if (c == ctx.quote && closesString(ctx)) {
      fail(pos_, pos_ + 1, "f-string: expecting '}' to close the replacement field");
      return false;
    }
    if (c == '\\') {
      fail(pos_, pos_ + 1, "f-string expression part cannot include a backslash; compute the value in a variable first");
      return false;
    }
    if (c == '#') {
      fail(pos_, pos_ + 1, "f-string expression part cannot include '#'");
      return false;
    }
    if (c == '\'' || c == '"') {
      if (!skipNestedString()) return false;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      if (++depth > kMaxBracketDepth) {
        fail(pos_, pos_ + 1, "too many nested parentheses (the limit is 200)");
        return false;
      }
      ++pos_;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      if (depth > 0) {
        --depth;
        ++pos_;
        continue;
      }
      if (c == '}') break;
      fail(pos_, pos_ + 1, std::string("f-string: unmatched '") + c + "'");
      return false;
    }
    if (depth == 0) {
      const char next = peekChar(pos_ + 1);
      if ((c == '!' && next != '=') || c == ':') break;
      if (c == '=' && next != '=' && pos_ > exprBegin) {
        const char prev = text_[pos_ - 1];
        if (prev != '=' && prev != '!' && prev != '<' && prev != '>') break;
      }
    }
    ++pos_;
  }
  seg.expression = rangeOf(exprBegin, pos_);
  bool blank = true;
  for (char ch : seg.expression.text()) blank &= ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f';
  if (blank) {
    fail(fieldBegin, pos_ + 1,
         "f-string: empty expression not allowed; put an expression between the braces, or write '{{' for a literal brace");
    return false;
  }
  const auto expectClose = [&]() -> bool {
    if (pos_ >= end_) {
      failUnterminated(ctx);
      return false;
    }
    fail(pos_, pos_ + 1, "f-string: expecting '}' to close the replacement field");
    return false;
  };
  if (peekChar(pos_) == '=') {
    seg.selfDocumenting = true;
    ++pos_;
    while (peekChar(pos_) == ' ') ++pos_;
  }
  if (peekChar(pos_) == '!') {
    ++pos_;
    const char conv = peekChar(pos_);
    if (conv != 'r' && conv != 's' && conv != 'a') {
      if (pos_ >= end_) return expectClose();
      fail(pos_, pos_ + 1, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
      return false;
    }
    seg.conversion = conv;
    ++pos_;
  }
  if (peekChar(pos_) == ':') {
    seg.hasFormatSpec = true;
    ++pos_;
    if (!scanFStringParts(seg.formatSpec, ctx, specDepth + 1)) return false;
  }
  if (peekChar(pos_) != '}') return expectClose();
  ++pos_;
  seg.range = rangeOf(fieldBegin, pos_);
  out.push_back(std::move(seg));
  return true;
}

// Skips a string literal inside an f-string field (the Parser lexes it again later).
bool Lexer::skipNestedString() {
  const uint32_t start = pos_;
  const char quote = text_[pos_];
  const bool triple = peekChar(pos_ + 1) == quote && peekChar(pos_ + 2) == quote;
  pos_ += triple ? 3 : 1;
  for (;;) {
    if (pos_ >= end_ || (text_[pos_] == '\n' && !triple)) {
      fail(start, start + 1, "f-string: unterminated string in the replacement field");
      return false;
    }
    const char c = text_[pos_];
    if (c == '\\') {
      pos_ += 2;
      continue;
    }
    if (c == quote && (!triple || (peekChar(pos_ + 1) == quote && peekChar(pos_ + 2) == quote))) {
      pos_ += triple ? 3 : 1;
      return true;
    }
    ++pos_;
  }
}

void Lexer::lexOperator() {
  const uint32_t start = pos_;
  const char c = text_[pos_];
  const char c1 = peekChar(pos_ + 1);
  const char c2 = peekChar(pos_ + 2);
  const auto emit = [&](TokenKind kind, uint32_t length) {
    pos_ += length;
    push(kind, start, pos_);
  };
  const auto open = [&](TokenKind kind) {
    if (brackets_.size() >= kMaxBracketDepth) {
      return fail(start, start + 1, "too many nested parentheses (the limit is 200); split the expression");
    }
    brackets_.push_back({c, start});
    emit(kind, 1);
  };
  const auto close = [&](TokenKind kind, char expectedOpen) {
    if (brackets_.empty()) {
      return fail(start, start + 1, std::string("unmatched '") + c + "'; remove it or add the opening bracket");
    }
    const Bracket b = brackets_.back();
    if (b.open != expectedOpen) {
      const LineColumn lc = file_.lineColumn(b.offset);
      const bool sameLine = lc.line == file_.lineColumn(start).line;
      return fail(start, start + 1,
                  std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" + b.open + "'" +
                      (sameLine ? std::string() : " on line " + std::to_string(lc.line)));
    }
    brackets_.pop_back();
    emit(kind, 1);
  };
  switch (c) {
    case '(': return open(TokenKind::LParen);
    case '[': return open(TokenKind::LBracket);
    case '{': return open(TokenKind::LBrace);
    case ')': return close(TokenKind::RParen, '(');
    case ']': return close(TokenKind::RBracket, '[');
    case '}': return close(TokenKind::RBrace, '{');
    case ',': return emit(TokenKind::Comma, 1);
    case ';': return emit(TokenKind::Semicolon, 1);
    case '~': return emit(TokenKind::Tilde, 1);
    case ':': return c1 == '=' ? emit(TokenKind::ColonAssign, 2) : emit(TokenKind::Colon, 1);
    case '.': return c1 == '.' && c2 == '.' ? emit(TokenKind::Ellipsis, 3) : emit(TokenKind::Dot, 1);
    case '+': return c1 == '=' ? emit(TokenKind::PlusAssign, 2) : emit(TokenKind::Plus, 1);
    case '-':
      if (c1 == '>') return emit(TokenKind::Arrow, 2);
      return c1 == '=' ? emit(TokenKind::MinusAssign, 2) : emit(TokenKind::Minus, 1);
    case '*':
      if (c1 == '*') return c2 == '=' ? emit(TokenKind::DoubleStarAssign, 3) : emit(TokenKind::DoubleStar, 2);
      return c1 == '=' ? emit(TokenKind::StarAssign, 2) : emit(TokenKind::Star, 1);
    case '/':
      if (c1 == '/') return c2 == '=' ? emit(TokenKind::DoubleSlashAssign, 3) : emit(TokenKind::DoubleSlash, 2);
      return c1 == '=' ? emit(TokenKind::SlashAssign, 2) : emit(TokenKind::Slash, 1);
    case '%': return c1 == '=' ? emit(TokenKind::PercentAssign, 2) : emit(TokenKind::Percent, 1);
    case '&': return c1 == '=' ? emit(TokenKind::AmpAssign, 2) : emit(TokenKind::Amp, 1);
    case '|': return c1 == '=' ? emit(TokenKind::PipeAssign, 2) : emit(TokenKind::Pipe, 1);
    case '^': return c1 == '=' ? emit(TokenKind::CaretAssign, 2) : emit(TokenKind::Caret, 1);
    case '@': return c1 == '=' ? emit(TokenKind::AtAssign, 2) : emit(TokenKind::At, 1);
    case '=': return c1 == '=' ? emit(TokenKind::Equal, 2) : emit(TokenKind::Assign, 1);
    case '!':
      if (c1 == '=') return emit(TokenKind::NotEqual, 2);
      return fail(start, start + 1, "invalid syntax: '!' is not an operator; use 'not' for negation or '!=' to compare");
    case '<':
      if (c1 == '<') return c2 == '=' ? emit(TokenKind::LeftShiftAssign, 3) : emit(TokenKind::LeftShift, 2);
      if (c1 == '>') return fail(start, start + 2, "invalid syntax: '<>' is not an operator; use '!='");
      return c1 == '=' ? emit(TokenKind::LessEqual, 2) : emit(TokenKind::Less, 1);
    case '>':
      if (c1 == '>') return c2 == '=' ? emit(TokenKind::RightShiftAssign, 3) : emit(TokenKind::RightShift, 2);
      return c1 == '=' ? emit(TokenKind::GreaterEqual, 2) : emit(TokenKind::Greater, 1);
    default: break;
  }
  if (c == '\0') return fail(start, start + 1, "source code cannot contain null bytes");
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte == 0x7F) {
    return fail(start, start + 1, "invalid control character " + hexByte(byte) + " in the source");
  }
  return fail(start, start + 1, std::string("invalid character '") + c + "' in the source");
}

}  // namespace tilescope::lang
