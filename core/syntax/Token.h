#pragma once
// Tokens of Python source as the Lexer produces them and the Parser consumes them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/SourceFile.h"

namespace tilescope::lang {

enum class TokenKind : uint8_t {
  EndOfFile,
  Error,      // the Lexer recorded a Diagnostic here; nothing useful follows
  Newline,    // end of a logical line
  Indent,
  Dedent,
  Name,
  Int,
  Float,
  String,     // any string literal: plain, raw, bytes or f-string (see Token flags)

  // Keywords (hard keywords of Python 3.12; soft keywords like `match` stay Names).
  KwFalse, KwNone, KwTrue, KwAnd, KwAs, KwAssert, KwAsync, KwAwait, KwBreak, KwClass, KwContinue,
  KwDef, KwDel, KwElif, KwElse, KwExcept, KwFinally, KwFor, KwFrom, KwGlobal, KwIf, KwImport, KwIn,
  KwIs, KwLambda, KwNonlocal, KwNot, KwOr, KwPass, KwRaise, KwReturn, KwTry, KwWhile, KwWith,
  KwYield,

  // Delimiters.
  LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  Colon, Comma, Semicolon, Dot, Ellipsis, Arrow, At, Assign, ColonAssign,

  // Operators.
  Plus, Minus, Star, DoubleStar, Slash, DoubleSlash, Percent, Tilde, Amp, Pipe, Caret,
  LeftShift, RightShift,
  Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual,

  // Augmented assignment.
  PlusAssign, MinusAssign, StarAssign, SlashAssign, DoubleSlashAssign, PercentAssign,
  DoubleStarAssign, AmpAssign, PipeAssign, CaretAssign, LeftShiftAssign, RightShiftAssign,
  AtAssign,
};

// "EndOfFile", "Name", "KwIf", "PlusAssign", ...: for test output and debugging.
std::string_view tokenKindName(TokenKind kind);
// The fixed spelling of keywords and punctuation ("if", "+=", "("); empty for other kinds.
std::string_view tokenSpelling(TokenKind kind);
bool isKeyword(TokenKind kind);
bool isAugmentedAssign(TokenKind kind);
// The keyword spelled `word`, or nullopt when `word` is not a (hard) keyword.
std::optional<TokenKind> keywordKind(std::string_view word);

// A piece of an f-string as the Lexer splits it. Field expressions are kept as source ranges; the
// Parser parses them (they may contain any expression, including other strings).
struct FStringSegment {
  bool isField = false;
  SourceRange range;              // literal text, or the whole field `{...}`
  std::string text;               // literal: decoded text (escapes and `{{`/`}}` resolved)
  SourceRange expression;         // field: the expression text between `{` and `=`/`!`/`:`/`}`
  char conversion = 0;            // field: 0, 'r', 's' or 'a'
  bool selfDocumenting = false;   // field: `{x=}`
  bool hasFormatSpec = false;     // field: `:` present
  std::vector<FStringSegment> formatSpec;
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  SourceRange range;
  // Name: the identifier. Int/Float: the spelling. String (not f-string): the decoded value.
  std::string text;
  std::optional<int64_t> intValue;   // Int: set when the value fits int64
  double floatValue = 0.0;           // Float
  bool isBytes = false;              // String: b'...'
  bool isRaw = false;                // String: r'...'
  bool isFString = false;            // String: f'...', parts in `segments`
  std::vector<FStringSegment> segments;

  bool is(TokenKind k) const { return kind == k; }
  std::string_view spelling() const { return range.text(); }
};

// How a token reads in a message: "'+'", "name 'foo'", "end of line", "end of file", ...
std::string describeToken(const Token& token);

}  // namespace tilescope::lang
