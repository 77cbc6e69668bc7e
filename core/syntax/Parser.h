#pragma once
// A recursive-descent parser for Python source, modelled on Python's PEG grammar
// (https://docs.python.org/3/reference/grammar.html). Each rule is one member function named after
// it, with the rule in a comment above it. It stops at the first syntax error: that error becomes
// a Diagnostic at the offending token, and no tree is returned.
//
// Besides the grammar it reports the errors Python reports while compiling (`'return' outside
// function`, `'break' outside loop`, parameter order, duplicate parameters), so a notebook cell is
// rejected for the same reasons Python would reject it.
#include <deque>
#include <memory>
#include <string>

#include "core/syntax/Ast.h"
#include "core/base/Diagnostic.h"
#include "core/syntax/Lexer.h"
#include "core/base/SourceFile.h"
#include "core/syntax/Token.h"

namespace tilescope::lang {

struct ParseResult {
  std::shared_ptr<const SourceFile> file;  // keeps the diagnostics' ranges valid (also in `module`)
  std::unique_ptr<Module> module;          // null after a syntax error
  DiagnosticList diagnostics;
  bool ok() const { return module != nullptr && !diagnostics.hasErrors(); }
};

struct ExpressionParseResult {
  std::shared_ptr<const SourceFile> file;  // keeps the ranges inside `expression` valid
  ExprPtr expression;                      // null after a syntax error
  DiagnosticList diagnostics;
  bool ok() const { return expression != nullptr && !diagnostics.hasErrors(); }
};

// A whole file or notebook cell.
ParseResult parseModule(std::shared_ptr<const SourceFile> file);
ParseResult parseModule(std::string text, std::string name = "<string>");
// One expression (Python's eval input: `a, b` is a Tuple; trailing newlines are fine).
ExpressionParseResult parseExpression(std::shared_ptr<const SourceFile> file);
ExpressionParseResult parseExpression(std::string text, std::string name = "<expression>");

class Parser {
public:
  // Nesting deeper than this (brackets, unary operators, blocks, lambdas...) is an error, so that
  // neither the parser nor later tree walks can overflow the stack.
  static constexpr int kMaxNesting = 200;
  // Left-leaning chains (`a + b + ...`, `x.a.b...`, elif chains) deepen the tree without nesting in
  // the source; the tree depth is capped separately and more loosely.
  static constexpr int kMaxTreeDepth = 2000;

  Parser(const SourceFile& file, DiagnosticList& diagnostics, Lexer::Mode mode = Lexer::Mode::Module);

  // Entry points: return null after recording a syntax error in the DiagnosticList.
  std::unique_ptr<Module> parseFile();
  ExprPtr parseSingleExpression();

private:
  struct NestingGuard;
  struct ChainGuard;

  // For f-string fields: parses [begin, end) of the same file, inheriting the current depths.
  Parser(const SourceFile& file, DiagnosticList& diagnostics, uint32_t begin, uint32_t end, int nesting,
         int treeDepth);

  // --- statements
  std::unique_ptr<Module> parseFileInput();
  ExprPtr parseEvalInput();
  void parseStatement(StmtList& out);
  void parseSimpleStatements(StmtList& out);
  StmtPtr parseSimpleStatement();
  StmtPtr parseCompoundStatement();
  StmtPtr parseAssignment();
  StmtPtr parseReturnStatement();
  StmtPtr parseRaiseStatement();
  StmtPtr parseAssertStatement();
  StmtPtr parseDelStatement();
  StmtPtr parseGlobalStatement();
  StmtPtr parseImportName();
  StmtPtr parseImportFrom();
  StmtPtr parseDecorated();
  StmtPtr parseFuncDef(ExprList decorators, uint32_t begin);
  Parameters parseParameters(TokenKind closer, bool allowAnnotations);
  StmtPtr parseClassDef(ExprList decorators, uint32_t begin);
  StmtPtr parseIfStatement();
  StmtPtr parseWhileStatement();
  StmtPtr parseForStatement();
  StmtPtr parseWithStatement();
  StmtPtr parseTryStatement();
  StmtList parseBlock(const std::string& after);

  // --- expressions
  ExprPtr parseStarExpressions();
  ExprPtr parseStarExpression();
  ExprPtr parseStarNamedExpression();
  ExprPtr parseNamedExpression();
  ExprPtr parseExpression();
  ExprPtr parseYieldExpression();
  ExprPtr parseLambdef();
  ExprPtr parseDisjunction();
  ExprPtr parseConjunction();
  ExprPtr parseInversion();
  ExprPtr parseComparison();
  ExprPtr parseBitOr();
  ExprPtr parseBitXor();
  ExprPtr parseBitAnd();
  ExprPtr parseShiftExpr();
  ExprPtr parseSum();
  ExprPtr parseTerm();
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parsePrimary();
  ExprPtr parseSlices();
  ExprPtr parseSlice();
  ExprPtr parseAtom();
  ExprPtr parseStrings();
  ExprPtr parseGroupOrTuple();
  ExprPtr parseListDisplay();
  ExprPtr parseDictOrSet();
  std::vector<Comprehension> parseForIfClauses();
  ExprPtr parseStarTargets();
  ExprPtr parseStarTarget();
  void parseArguments(const Token& open, ExprList& args, std::vector<Keyword>& keywords);
  ExprPtr parseFieldExpression(SourceRange range);
  std::vector<FStringPart> convertFStringSegments(const std::vector<FStringSegment>& segments);

  using OperandParser = ExprPtr (Parser::*)();
  ExprPtr parseLeftAssociative(OperandParser operand, std::initializer_list<std::pair<TokenKind, BinaryOp>> ops);

  // --- targets
  void checkTarget(Expr& target, ExprContext context, bool insideSequence);
  void checkAugTarget(Expr& target);

  // --- tokens
  const Token& peek(size_t ahead = 0);
  bool at(TokenKind kind) { return peek().kind == kind; }
  Token take();
  bool accept(TokenKind kind);
  Token expect(TokenKind kind, const std::string& message);
  void expectClosing(TokenKind closer, const Token& open);
  bool startsExpression(const Token& token, bool allowStar = false) const;
  SourceRange span(uint32_t begin) const;
  [[noreturn]] void fail(SourceRange range, std::string message);
  [[noreturn]] void failExpectedExpression();
  [[noreturn]] void failAfterStatement(const Stmt& statement);
  std::string lineOf(const Token& token) const;

  const SourceFile& file_;
  DiagnosticList& diagnostics_;
  Lexer lexer_;
  std::deque<Token> lookahead_;
  TokenKind previousKind_ = TokenKind::Newline;
  SourceRange previousRange_;
  uint32_t lastEnd_ = 0;   // end of the last consumed token that is not NEWLINE/INDENT/DEDENT
  int nesting_ = 0;
  int treeDepth_ = 0;
  int functionDepth_ = 0;  // for 'return' / 'yield' outside function
  int loopDepth_ = 0;      // for 'break' / 'continue' outside loop
};

}  // namespace tilescope::lang
