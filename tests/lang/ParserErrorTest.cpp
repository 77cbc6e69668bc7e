#include <gtest/gtest.h>

#include <string>

#include "core/syntax/Parser.h"

using namespace tilescope::lang;

namespace {

struct BadSource {
  const char* name;
  std::string source;
  const char* where;    // "line:col" of the diagnostic
  const char* message;  // its exact text
};

std::ostream& operator<<(std::ostream& os, const BadSource& c) { return os << c.name; }

const BadSource kCases[] = {
    {"MissingColonAfterIf", "if x\n    pass\n", "1:5", "expected ':' after the 'if' condition"},
    {"MissingColonAfterElif", "if x:\n    pass\nelif y\n    pass\n", "3:7", "expected ':' after the 'elif' condition"},
    {"MissingColonAfterDef", "def f(x)\n    pass\n", "1:9", "expected ':' after the function signature"},
    {"MissingColonAfterWhile", "while x\n    pass\n", "1:8", "expected ':' after the 'while' condition"},
    {"UnexpectedIndent", "x = 1\n  y = 2\n", "2:3", "unexpected indent; line this statement up with the one before it"},
    {"UnexpectedIndentAtStart", "  x = 1\n", "1:3", "unexpected indent; line this statement up with the one before it"},
    {"InconsistentDedent", "if x:\n        a\n    b\n", "3:5",
     "unindent does not match any outer indentation level; line it up with an enclosing block"},
    {"MissingIndentedBlock", "def f(x):\nreturn x\n", "2:1", "expected an indented block after function definition on line 1"},
    {"MissingBlockAtEof", "for i in x:\n", "2:1", "expected an indented block after 'for' statement on line 1"},
    {"UnterminatedString", "s = 'abc\n", "1:5",
     "unterminated string literal (started here); close it with ' on the same line, or use triple quotes for text over "
     "several lines"},
    {"UnterminatedTripleString", "x = 1\ns = \"\"\"abc\n", "2:5",
     "unterminated triple-quoted string literal (started here); close it with \"\"\""},
    {"ParenNeverClosed", "f(1,\n  2\n", "1:2", "'(' was never closed; add the matching ')'"},
    {"UnmatchedClose", "x = 1)\n", "1:6", "unmatched ')'; remove it or add the opening bracket"},
    {"MismatchedBracket", "x = (1, 2]\n", "1:10", "closing parenthesis ']' does not match opening parenthesis '('"},
    {"AssignToCall", "f() = 1\n", "1:1", "invalid syntax: cannot assign to a function call; did you mean '=='?"},
    {"AssignToLiteral", "x, 1 = t\n", "1:4", "invalid syntax: cannot assign to a literal"},
    {"ForTargetIsCall", "for f() in x:\n    pass\n", "1:5", "invalid syntax: cannot assign to a function call; did you mean '=='?"},
    {"AugAssignToTuple", "(a, b) += 1\n", "1:1",
     "'tuple' is an illegal expression for augmented assignment; use a name, attribute or subscript"},
    {"DeleteCall", "del f()\n", "1:5", "invalid syntax: cannot delete a function call"},
    {"MissingOperand", "x = 1 +\n", "1:8", "expected an expression after '+'"},
    {"MissingOperandInParens", "y = (a *)\n", "1:9", "expected an expression after '*'"},
    {"MissingValue", "x =\n", "1:4", "expected an expression after '='"},
    {"ForgotComma", "x = [1, 2 3]\n", "1:11", "invalid syntax: expected ',' or ']' (perhaps you forgot a comma?)"},
    {"ForgotCommaInCall", "f(a b)\n", "1:5", "invalid syntax: expected ',' or ')' (perhaps you forgot a comma?)"},
    {"TwoExpressions", "x = 1 2\n", "1:7", "invalid syntax: unexpected number '2' (perhaps you forgot a comma or an operator?)"},
    {"PrintStatement", "print \"hi\"\n", "1:1", "Missing parentheses in call to 'print'. Did you mean print(...)?"},
    {"AssignInCondition", "if x = 1:\n    pass\n", "1:6", "invalid syntax: cannot assign in an 'if' condition; use '==' to compare"},
    {"ElseWithoutIf", "else:\n    pass\n", "1:1",
     "invalid syntax: 'else' must follow an 'if', 'for', 'while' or 'try' block at the same indentation"},
    {"ForWithoutIn", "for x y:\n    pass\n", "1:7", "expected 'in' after the 'for' target, found name 'y'"},
    {"NotWithoutIn", "a not b\n", "1:7", "expected 'in' after 'not' in a comparison (did you mean 'not in'?)"},
    {"IfExpWithoutElse", "x = a if b\n", "1:11", "expected 'else' after the condition of a conditional expression (a if cond else b)"},
    {"ReturnOutsideFunction", "return 1\n", "1:1", "'return' outside function"},
    {"BreakOutsideLoop", "if x:\n    break\n", "2:5", "'break' outside loop"},
    {"ContinueInFunctionInLoop", "for i in x:\n    def f():\n        continue\n", "3:9", "'continue' not properly in loop"},
    {"DefaultOrder", "def f(a=1, b):\n    pass\n", "1:12", "parameter without a default follows parameter with a default"},
    {"DuplicateParameter", "def f(a, a):\n    pass\n", "1:10", "duplicate argument 'a' in function definition"},
    {"BareStar", "def f(a, *):\n    pass\n", "1:10", "named arguments must follow bare *"},
    {"KeywordAsFunctionName", "def if(x):\n    pass\n", "1:5", "invalid syntax: 'if' is a keyword and cannot be used as a function name"},
    {"PositionalAfterKeyword", "f(a=1, 2)\n", "1:8", "positional argument follows keyword argument"},
    {"KeywordNeedsName", "f(a.b=1)\n", "1:6", "invalid syntax: a keyword argument needs a plain name before '='; did you mean '=='?"},
    {"UnparenthesizedGenerator", "f(x for x in y, 1)\n", "1:3", "Generator expression must be parenthesized"},
    {"LeadingZeros", "x = 0777\n", "1:5", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers"},
    {"BadExponent", "x = 1e\n", "1:5", "invalid float literal: the exponent needs digits, e.g. 1e-5"},
    {"InvalidCharacter", "x = $\n", "1:5", "invalid character '$' in the source"},
    {"NonAsciiIdentifier", "x = caf\xc3\xa9\n", "1:8", "invalid character '\xc3\xa9' (U+00E9); only ASCII is allowed outside strings and comments"},
    {"EmptyFStringField", "x = f'{}'\n", "1:7",
     "f-string: empty expression not allowed; put an expression between the braces, or write '{{' for a literal brace"},
    {"FStringBadConversion", "x = f'{a!x}'\n", "1:10", "f-string: invalid conversion character: expected 's', 'r', or 'a'"},
    {"FStringFieldSyntax", "x = f'{a b}'\n", "1:10", "f-string: invalid syntax (perhaps you forgot a comma?)"},
    {"FStringFieldMissingOperand", "x = f'{a +}'\n", "1:11", "expected an expression after '+'"},
    {"MixedBytes", "x = 'a' b'b'\n", "1:9", "cannot mix bytes and nonbytes literals"},
    {"StarredAlone", "x = *a\n", "1:5", "cannot use a starred expression here; add a ',' to make a tuple"},
    {"TwoStarredTargets", "a, *b, *c = d\n", "1:8", "multiple starred expressions in assignment; keep one '*' target"},
    {"Walrus", "if (n := 3):\n    pass\n", "1:7", "assignment expressions (':=') are not supported; assign in a separate statement"},
    {"DecoratorOnAssignment", "@dec\nx = 1\n", "2:1", "expected 'def' or 'class' after the decorator, found name 'x'"},
    {"TryWithoutExcept", "try:\n    pass\nx = 1\n", "3:1", "expected 'except' or 'finally' block after the 'try' block"},
    {"ContinuationNotAtEnd", "x = 1 \\ 2\n", "1:7",
     "unexpected character after line continuation character '\\'; the backslash must end the line"},
    {"TabsAndSpaces", "if x:\n\tif y:\n        pass\n", "3:1", "inconsistent use of tabs and spaces in indentation; indent with spaces only"},
    {"NullByte", std::string("x = 1\n\0\n", 8), "2:1", "source code cannot contain null bytes"},
    {"TooDeep", "x = " + std::string(300, '-') + "1\n", "1:204",
     "too many nested parentheses, blocks or operators (the limit is 200 levels); split the code into smaller statements"},
    {"TooManyBrackets", "x = " + std::string(201, '[') + "\n", "1:205", "too many nested parentheses (the limit is 200); split the expression"},
    {"CompoundAfterSemicolon", "x = 1; if y: pass\n", "1:8", "invalid syntax: a compound statement ('if') must start on its own line"},
    {"YieldOutsideFunction", "x = yield 1\n", "1:5", "'yield' outside function"},
};

class ParserError : public ::testing::TestWithParam<BadSource> {};

}  // namespace

TEST_P(ParserError, ReportsExactPositionAndMessage) {
  const BadSource& c = GetParam();
  ParseResult r = parseModule(c.source, "bad.py");
  EXPECT_EQ(r.module, nullptr);
  ASSERT_EQ(r.diagnostics.items().size(), 1u) << r.diagnostics.render();
  const Diagnostic& d = r.diagnostics.items()[0];
  EXPECT_EQ(d.severity, Severity::Error);
  const LineColumn lc = d.range.start();
  EXPECT_EQ(std::to_string(lc.line) + ":" + std::to_string(lc.column), c.where) << d.render();
  EXPECT_EQ(d.message, c.message);
  EXPECT_NO_THROW((void)d.render());
}

INSTANTIATE_TEST_SUITE_P(Cases, ParserError, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadSource>& info) { return std::string(info.param.name); });

TEST(ParserErrorList, HasEnoughCases) { EXPECT_GE(std::size(kCases), 20u); }

TEST(ParserErrorRender, PointsAtTheOffendingToken) {
  ParseResult r = parseModule("def f(x):\n    if x\n        return 1\n", "k.py");
  ASSERT_EQ(r.diagnostics.items().size(), 1u);
  EXPECT_EQ(r.diagnostics.render(),
            "k.py:2:9: error: expected ':' after the 'if' condition\n"
            "    if x\n"
            "        ^\n");
}
