#pragma once
// Splits Python source into Tokens, on demand. Follows Python's tokenizer: NEWLINE ends a logical
// line, INDENT/DEDENT track indentation, newlines inside brackets and after a backslash join lines,
// comments and blank lines vanish. On the first error the Lexer records a Diagnostic and returns a
// TokenKind::Error token; after that it returns only EndOfFile.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/base/Diagnostic.h"
#include "core/base/SourceFile.h"
#include "core/syntax/Token.h"

namespace tilescope::lang {

class Lexer {
public:
  enum class Mode {
    Module,      // a file or notebook cell: NEWLINE, INDENT and DEDENT tokens
    Expression,  // one expression: NEWLINE tokens but no indentation tokens
    Embedded,    // an f-string replacement field: behaves as if inside brackets (no NEWLINE)
  };

  // Python's own limits: the tokenizer allows 200 nested brackets and 100 indentation levels.
  static constexpr size_t kMaxBracketDepth = 200;
  static constexpr size_t kMaxIndentDepth = 100;

  Lexer(const SourceFile& file, DiagnosticList& diagnostics, Mode mode = Mode::Module);
  // Lexes only the bytes [begin, end) of the file (used for f-string fields).
  Lexer(const SourceFile& file, DiagnosticList& diagnostics, uint32_t begin, uint32_t end, Mode mode);

  Token next();
  // Every token up to and including EndOfFile (or Error).
  std::vector<Token> tokenize();

private:
  struct Bracket {
    char open;
    uint32_t offset;
  };
  struct StringContext {
    uint32_t start;       // offset of the prefix, for "unterminated ... (started here)"
    uint32_t openLength;  // prefix + opening quotes
    char quote;
    bool triple;
    bool raw;
    bool bytes;
  };

  void advance();
  void handleIndentation();
  void skipSpaceAndComments();
  void atEndOfInput();
  void lexToken();
  void lexName();
  void lexNumber();
  void lexString(uint32_t start, std::string_view prefix);
  void lexOperator();

  bool decodeEscape(std::string& out, const StringContext& ctx);
  bool scanFStringParts(std::vector<FStringSegment>& out, const StringContext& ctx, int specDepth);
  bool scanFStringField(std::vector<FStringSegment>& out, const StringContext& ctx, int specDepth);
  bool skipNestedString();
  bool closesString(const StringContext& ctx) const;
  void failUnterminated(const StringContext& ctx);

  void push(TokenKind kind, uint32_t begin, uint32_t end);
  void push(Token token);
  void fail(uint32_t begin, uint32_t end, std::string message);
  SourceRange rangeOf(uint32_t begin, uint32_t end) const { return {&file_, begin, end}; }
  char peekChar(uint32_t offset) const { return offset < end_ ? text_[offset] : '\0'; }

  const SourceFile& file_;
  std::string_view text_;
  DiagnosticList& diagnostics_;
  Mode mode_;
  uint32_t pos_;
  uint32_t end_;
  bool atLineStart_;
  bool lineHasTokens_ = false;
  bool finished_ = false;
  std::vector<Bracket> brackets_;
  std::vector<int> indents_{0};     // columns with tabs to multiples of 8
  std::vector<int> altIndents_{0};  // columns with tabs as 1: tells tabs/spaces mixing apart
  std::deque<Token> pending_;
};

}  // namespace tilescope::lang
