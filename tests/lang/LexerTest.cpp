#include <gtest/gtest.h>

#include <cmath>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/syntax/Lexer.h"

using namespace tilescope::lang;

namespace {

struct Lexed {
  std::unique_ptr<SourceFile> file;
  DiagnosticList diagnostics;
  std::vector<Token> tokens;
};

Lexed lex(std::string text, Lexer::Mode mode = Lexer::Mode::Module) {
  Lexed out;
  out.file = std::make_unique<SourceFile>("t.py", std::move(text));
  Lexer lexer(*out.file, out.diagnostics, mode);
  out.tokens = lexer.tokenize();
  return out;
}

// "Name(x) Assign Int(1) Newline EndOfFile": kinds, with the text of names and numbers.
std::string kinds(const Lexed& l) {
  std::string out;
  for (const Token& t : l.tokens) {
    if (!out.empty()) out += ' ';
    out += tokenKindName(t.kind);
    if (t.kind == TokenKind::Name || t.kind == TokenKind::Int || t.kind == TokenKind::Float) out += "(" + t.text + ")";
  }
  return out;
}

std::string firstError(const Lexed& l) {
  return l.diagnostics.items().empty() ? std::string() : l.diagnostics.items().front().headline();
}

}  // namespace

TEST(Lexer, SimpleAssignmentEndsWithNewlineAndEof) {
  const Lexed l = lex("x = 1");
  EXPECT_EQ(kinds(l), "Name(x) Assign Int(1) Newline EndOfFile");
  EXPECT_TRUE(l.diagnostics.empty());
  EXPECT_EQ(l.tokens[0].range.text(), "x");
  EXPECT_EQ(l.tokens[2].range.begin, 4u);
}

TEST(Lexer, IndentAndDedentFollowBlocks) {
  const Lexed l = lex("if a:\n    b\n    if c:\n        d\ne\n");
  EXPECT_EQ(kinds(l),
            "KwIf Name(a) Colon Newline Indent Name(b) Newline KwIf Name(c) Colon Newline Indent Name(d) Newline "
            "Dedent Dedent Name(e) Newline EndOfFile");
}

TEST(Lexer, DedentsAtEndOfFileWithoutTrailingNewline) {
  const Lexed l = lex("def f():\n    return 1");
  EXPECT_EQ(kinds(l), "KwDef Name(f) LParen RParen Colon Newline Indent KwReturn Int(1) Newline Dedent EndOfFile");
}

TEST(Lexer, BlankAndCommentLinesDoNotIndent) {
  const Lexed l = lex("if a:\n\n        # deep comment\n    b\n  \n# c\nc\n");
  EXPECT_EQ(kinds(l), "KwIf Name(a) Colon Newline Indent Name(b) Newline Dedent Name(c) Newline EndOfFile");
}

TEST(Lexer, BracketsJoinLinesImplicitly) {
  const Lexed l = lex("f(a,\n  b\n)[\n1]\n");
  EXPECT_EQ(kinds(l), "Name(f) LParen Name(a) Comma Name(b) RParen LBracket Int(1) RBracket Newline EndOfFile");
}

TEST(Lexer, BackslashContinuesTheLine) {
  const Lexed l = lex("x = 1 + \\\n    2\ny\n");
  EXPECT_EQ(kinds(l), "Name(x) Assign Int(1) Plus Int(2) Newline Name(y) Newline EndOfFile");
}

TEST(Lexer, TabsIndentConsistently) {
  const Lexed l = lex("if a:\n\tb\n\tif c:\n\t\td\n");
  EXPECT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  EXPECT_EQ(kinds(l), "KwIf Name(a) Colon Newline Indent Name(b) Newline KwIf Name(c) Colon Newline Indent Name(d) "
                      "Newline Dedent Dedent EndOfFile");
}

TEST(Lexer, InconsistentDedentIsAnError) {
  const Lexed l = lex("if a:\n        b\n    c\n");
  EXPECT_EQ(l.tokens.back().kind, TokenKind::Error);
  EXPECT_EQ(firstError(l), "t.py:3:5: error: unindent does not match any outer indentation level; "
                           "line it up with an enclosing block");
}

TEST(Lexer, MixingTabsAndSpacesAmbiguouslyIsAnError) {
  const Lexed l = lex("if a:\n\tif b:\n        c\n");
  EXPECT_EQ(firstError(l), "t.py:3:1: error: inconsistent use of tabs and spaces in indentation; indent with spaces only");
}

TEST(Lexer, CommentsVanishAndMayHoldAnyBytes) {
  const Lexed l = lex("x = 1  # \xe4\xb8\xad \xff\xfe broken\n# \x80\ny\n");
  EXPECT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  EXPECT_EQ(kinds(l), "Name(x) Assign Int(1) Newline Name(y) Newline EndOfFile");
}

TEST(Lexer, NonAsciiOutsideStringsIsAnError) {
  const Lexed l = lex("x = \xe4\xb8\xad\n");
  EXPECT_EQ(firstError(l), "t.py:1:5: error: invalid character '\xe4\xb8\xad' (U+4E2D); only ASCII is allowed outside "
                           "strings and comments");
  const Lexed broken = lex("x = \xff\n");
  EXPECT_EQ(firstError(broken), "t.py:1:5: error: invalid byte 0xFF (not ASCII); only ASCII is allowed outside strings "
                                "and comments");
}

TEST(Lexer, StringsKeepBrokenUtf8Bytes) {
  const Lexed l = lex("s = '\xe4\xb8 \xff'\n");
  ASSERT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  EXPECT_EQ(l.tokens[2].text, "\xe4\xb8 \xff");
}

TEST(Lexer, KeywordsAreTheirOwnKinds) {
  const Lexed l = lex("not in is None True False lambda yield match");
  EXPECT_EQ(kinds(l), "KwNot KwIn KwIs KwNone KwTrue KwFalse KwLambda KwYield Name(match) Newline EndOfFile");
}

TEST(Lexer, OperatorsTakeTheLongestMatch) {
  const Lexed l = lex("** // << >> -> ... @ == != <= >= **= //= <<= >>= += -= *= /= %= &= |= ^= @= := . ~ % ^ & |");
  EXPECT_EQ(kinds(l),
            "DoubleStar DoubleSlash LeftShift RightShift Arrow Ellipsis At Equal NotEqual LessEqual GreaterEqual "
            "DoubleStarAssign DoubleSlashAssign LeftShiftAssign RightShiftAssign PlusAssign MinusAssign StarAssign "
            "SlashAssign PercentAssign AmpAssign PipeAssign CaretAssign AtAssign ColonAssign Dot Tilde Percent Caret "
            "Amp Pipe Newline EndOfFile");
  for (const Token& t : l.tokens) {
    if (isAugmentedAssign(t.kind)) {
      EXPECT_EQ(t.spelling(), tokenSpelling(t.kind));
    }
  }
}

TEST(Lexer, IntegerLiteralsInEveryBase) {
  const Lexed l = lex("0 00 1_000 0xFF 0X_ff 0o17 0b1010 9223372036854775807 9223372036854775808 0xFFFFFFFFFFFFFFFFFF");
  ASSERT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  const std::vector<std::optional<int64_t>> expected = {0, 0, 1000, 255, 255, 15, 10, INT64_MAX, std::nullopt,
                                                        std::nullopt};
  ASSERT_EQ(l.tokens.size(), expected.size() + 2);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(l.tokens[i].kind, TokenKind::Int);
    EXPECT_EQ(l.tokens[i].intValue, expected[i]) << l.tokens[i].text;
  }
  EXPECT_EQ(l.tokens[8].text, "9223372036854775808");  // kept as written even when too big
}

TEST(Lexer, FloatLiterals) {
  const Lexed l = lex("1e-5 .5 2. 1_0.2_5 3.14E+2 1e400 0777.5");
  ASSERT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  const std::vector<double> expected = {1e-5, 0.5, 2.0, 10.25, 314.0, HUGE_VAL, 777.5};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(l.tokens[i].kind, TokenKind::Float) << l.tokens[i].text;
    EXPECT_DOUBLE_EQ(l.tokens[i].floatValue, expected[i]) << l.tokens[i].text;
  }
}

TEST(Lexer, BadNumbersAreErrors) {
  EXPECT_EQ(firstError(lex("x = 0777")), "t.py:1:5: error: leading zeros in decimal integer literals are not "
                                         "permitted; use an 0o prefix for octal integers");
  EXPECT_EQ(firstError(lex("x = 0b12")), "t.py:1:5: error: invalid binary literal");
  EXPECT_EQ(firstError(lex("x = 1__0")), "t.py:1:5: error: invalid decimal literal");
  EXPECT_EQ(firstError(lex("x = 1abc")), "t.py:1:5: error: invalid decimal literal");
  EXPECT_EQ(firstError(lex("x = 1e+")), "t.py:1:5: error: invalid float literal: the exponent needs digits, e.g. 1e-5");
}

TEST(Lexer, StringFormsAndEscapes) {
  const Lexed l = lex(R"(
'a\tb' "q\"" '''x
y''' """z""" r'\d\'' b'\x00\xff' rb"\n" R"\\" U'\u00e9' '\101\7' "\q" 'a\
b'
)");
  ASSERT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  std::vector<std::string> values;
  for (const Token& t : l.tokens)
    if (t.kind == TokenKind::String) values.push_back(t.text);
  const std::vector<std::string> expected = {
      "a\tb", "q\"", "x\ny", "z", "\\d\\'", std::string("\0\xff", 2), "\\n", "\\\\", "\xc3\xa9", "A\a", "\\q", "ab"};
  ASSERT_EQ(values.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(values[i], expected[i]) << i;
}

TEST(Lexer, NamedUnicodeEscapeIsReported) {
  EXPECT_EQ(firstError(lex(R"(s = "\N{DASH}")")),
            "t.py:1:6: error: \\N{...} named Unicode escapes are not supported; write the character or use \\u with its "
            "code point");
}

TEST(Lexer, StringFlags) {
  const Lexed l = lex("b'x' Rb'y' f'z' rF'w'");
  ASSERT_TRUE(l.diagnostics.empty());
  EXPECT_TRUE(l.tokens[0].isBytes && !l.tokens[0].isRaw && !l.tokens[0].isFString);
  EXPECT_TRUE(l.tokens[1].isBytes && l.tokens[1].isRaw);
  EXPECT_TRUE(l.tokens[2].isFString && !l.tokens[2].isRaw);
  EXPECT_TRUE(l.tokens[3].isFString && l.tokens[3].isRaw);
}

TEST(Lexer, UnterminatedStringsPointAtTheirStart) {
  EXPECT_EQ(firstError(lex("x = 'abc\ny = 2\n")),
            "t.py:1:5: error: unterminated string literal (started here); close it with ' on the same line, or use "
            "triple quotes for text over several lines");
  EXPECT_EQ(firstError(lex("x = 1\ny = \"\"\"abc\n\n")),
            "t.py:2:5: error: unterminated triple-quoted string literal (started here); close it with \"\"\"");
}

TEST(Lexer, FStringSplitsIntoLiteralAndFields) {
  const Lexed l = lex(R"(f"a{x!r:>{w}}b{{c}}{y=}{z:.2f}")");
  ASSERT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  const Token& t = l.tokens[0];
  ASSERT_TRUE(t.isFString);
  ASSERT_EQ(t.segments.size(), 5u);
  EXPECT_FALSE(t.segments[0].isField);
  EXPECT_EQ(t.segments[0].text, "a");
  EXPECT_TRUE(t.segments[1].isField);
  EXPECT_EQ(t.segments[1].expression.text(), "x");
  EXPECT_EQ(t.segments[1].conversion, 'r');
  EXPECT_EQ(t.segments[1].range.text(), "{x!r:>{w}}");
  ASSERT_EQ(t.segments[1].formatSpec.size(), 2u);
  EXPECT_EQ(t.segments[1].formatSpec[0].text, ">");
  EXPECT_EQ(t.segments[1].formatSpec[1].expression.text(), "w");
  EXPECT_EQ(t.segments[2].text, "b{c}");
  EXPECT_TRUE(t.segments[3].selfDocumenting);
  EXPECT_EQ(t.segments[3].expression.text(), "y");
  EXPECT_TRUE(t.segments[4].hasFormatSpec);
  EXPECT_EQ(t.segments[4].formatSpec[0].text, ".2f");
}

TEST(Lexer, FStringFieldsMayHoldBracketsStringsAndComparisons) {
  const Lexed l = lex(R"(f"{d['k']}{f(a, {1: 2})}{a != b}{a == b}{x:{'>'}10}")");
  ASSERT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  const auto& segs = l.tokens[0].segments;
  ASSERT_EQ(segs.size(), 5u);
  EXPECT_EQ(segs[0].expression.text(), "d['k']");
  EXPECT_EQ(segs[1].expression.text(), "f(a, {1: 2})");
  EXPECT_EQ(segs[2].expression.text(), "a != b");
  EXPECT_EQ(segs[3].expression.text(), "a == b");
  EXPECT_FALSE(segs[3].selfDocumenting);
}

TEST(Lexer, FStringErrors) {
  EXPECT_EQ(firstError(lex("f'{}'")), "t.py:1:3: error: f-string: empty expression not allowed; put an expression "
                                      "between the braces, or write '{{' for a literal brace");
  EXPECT_EQ(firstError(lex("f'a}b'")), "t.py:1:4: error: f-string: single '}' is not allowed; write '}}' for a literal brace");
  EXPECT_EQ(firstError(lex("f'{x!z}'")), "t.py:1:6: error: f-string: invalid conversion character: expected 's', 'r', or 'a'");
  EXPECT_EQ(firstError(lex("f'{x'")), "t.py:1:5: error: f-string: expecting '}' to close the replacement field");
  EXPECT_EQ(firstError(lex("f'{x#}'")), "t.py:1:5: error: f-string expression part cannot include '#'");
}

TEST(Lexer, BracketErrors) {
  EXPECT_EQ(firstError(lex("f(1, 2\n")), "t.py:1:2: error: '(' was never closed; add the matching ')'");
  EXPECT_EQ(firstError(lex("x)")), "t.py:1:2: error: unmatched ')'; remove it or add the opening bracket");
  EXPECT_EQ(firstError(lex("(\n]")),
            "t.py:2:1: error: closing parenthesis ']' does not match opening parenthesis '(' on line 1");
  EXPECT_EQ(firstError(lex(std::string(201, '['))),
            "t.py:1:201: error: too many nested parentheses (the limit is 200); split the expression");
}

TEST(Lexer, ErrorTokenIsFollowedOnlyByEndOfFile) {
  SourceFile file("t.py", "x = $ y z");
  DiagnosticList diagnostics;
  Lexer lexer(file, diagnostics);
  EXPECT_EQ(lexer.next().kind, TokenKind::Name);
  EXPECT_EQ(lexer.next().kind, TokenKind::Assign);
  EXPECT_EQ(lexer.next().kind, TokenKind::Error);
  EXPECT_EQ(lexer.next().kind, TokenKind::EndOfFile);
  EXPECT_EQ(lexer.next().kind, TokenKind::EndOfFile);
  EXPECT_EQ(diagnostics.errorCount(), 1u);
}

TEST(Lexer, ExpressionModeHasNoIndentTokens) {
  const Lexed l = lex("   a +\tb\n\n", Lexer::Mode::Expression);
  EXPECT_EQ(kinds(l), "Name(a) Plus Name(b) Newline EndOfFile");
}

TEST(Lexer, CarriageReturnLineEndings) {
  const Lexed l = lex("if a:\r\n    b\r\n");
  EXPECT_TRUE(l.diagnostics.empty()) << l.diagnostics.render();
  EXPECT_EQ(kinds(l), "KwIf Name(a) Colon Newline Indent Name(b) Newline Dedent EndOfFile");
}

TEST(Lexer, TooManyIndentLevels) {
  std::string text;
  for (int i = 0; i < 102; ++i) text += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  const Lexed l = lex(text);
  EXPECT_EQ(firstError(l), "t.py:102:1: error: too many levels of indentation (the limit is 100); move inner code into a function");
}
