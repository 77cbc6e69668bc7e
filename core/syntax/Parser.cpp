#include "core/syntax/Parser.h"

#include <algorithm>
#include <set>
#include <utility>

namespace tilescope::lang {

namespace {

// Unwinds the parser after the first error has been recorded.
struct ParseAbort {};

template <class T> std::unique_ptr<T> makeNode(SourceRange range) { return std::make_unique<T>(range); }

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// How an expression reads in "cannot assign to ..." messages.
std::string describeExpr(const Expr& e) {
  switch (e.kind()) {
    case Node::Kind::Call: return "a function call";
    case Node::Kind::IntLiteral:
    case Node::Kind::FloatLiteral:
    case Node::Kind::StringLiteral: return "a literal";
    case Node::Kind::FString: return "an f-string";
    case Node::Kind::BoolLiteral: return e.as<BoolLiteral>()->value ? "True" : "False";
    case Node::Kind::NoneLiteral: return "None";
    case Node::Kind::Ellipsis: return "ellipsis";
    case Node::Kind::Dict: return "a dict literal";
    case Node::Kind::Set: return "a set display";
    case Node::Kind::ListComp: return "a list comprehension";
    case Node::Kind::SetComp: return "a set comprehension";
    case Node::Kind::DictComp: return "a dict comprehension";
    case Node::Kind::GeneratorExp: return "a generator expression";
    case Node::Kind::Compare: return "a comparison";
    case Node::Kind::IfExp: return "a conditional expression";
    case Node::Kind::Lambda: return "a lambda";
    case Node::Kind::Yield: return "a yield expression";
    case Node::Kind::Slice: return "a slice";
    default: return "an expression";
  }
}

// The name Python uses in "'...' is an illegal expression for augmented assignment".
std::string augTargetName(const Expr& e) {
  switch (e.kind()) {
    case Node::Kind::Tuple: return "tuple";
    case Node::Kind::List: return "list";
    case Node::Kind::Starred: return "starred";
    case Node::Kind::Call: return "function call";
    case Node::Kind::Compare: return "comparison";
    case Node::Kind::Lambda: return "lambda";
    case Node::Kind::IntLiteral:
    case Node::Kind::FloatLiteral:
    case Node::Kind::StringLiteral:
    case Node::Kind::BoolLiteral:
    case Node::Kind::NoneLiteral:
    case Node::Kind::Ellipsis: return "literal";
    default: return "expression";
  }
}

bool isCompoundKeyword(TokenKind k) {
  switch (k) {
    case TokenKind::At:
    case TokenKind::KwDef:
    case TokenKind::KwClass:
    case TokenKind::KwIf:
    case TokenKind::KwFor:
    case TokenKind::KwWhile:
    case TokenKind::KwWith:
    case TokenKind::KwTry:
    case TokenKind::KwAsync:
    case TokenKind::KwElif:
    case TokenKind::KwElse:
    case TokenKind::KwExcept:
    case TokenKind::KwFinally: return true;
    default: return false;
  }
}

// Tokens after which an operand is required, so "expected an expression after X" makes sense.
bool wantsOperandAfter(TokenKind k) {
  if (isKeyword(k)) return k != TokenKind::KwTrue && k != TokenKind::KwFalse && k != TokenKind::KwNone;
  switch (k) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String:
    case TokenKind::RParen:
    case TokenKind::RBracket:
    case TokenKind::RBrace:
    case TokenKind::Newline:
    case TokenKind::Indent:
    case TokenKind::Dedent:
    case TokenKind::EndOfFile:
    case TokenKind::Error:
    case TokenKind::Ellipsis: return false;
    default: return true;
  }
}

BinaryOp augmentedOp(TokenKind k) {
  switch (k) {
    case TokenKind::PlusAssign: return BinaryOp::Add;
    case TokenKind::MinusAssign: return BinaryOp::Sub;
    case TokenKind::StarAssign: return BinaryOp::Mult;
    case TokenKind::SlashAssign: return BinaryOp::Div;
    case TokenKind::DoubleSlashAssign: return BinaryOp::FloorDiv;
    case TokenKind::PercentAssign: return BinaryOp::Mod;
    case TokenKind::DoubleStarAssign: return BinaryOp::Pow;
    case TokenKind::AmpAssign: return BinaryOp::BitAnd;
    case TokenKind::PipeAssign: return BinaryOp::BitOr;
    case TokenKind::CaretAssign: return BinaryOp::BitXor;
    case TokenKind::LeftShiftAssign: return BinaryOp::LShift;
    case TokenKind::RightShiftAssign: return BinaryOp::RShift;
    default: return BinaryOp::MatMult;
  }
}

}  // namespace

// ============================================================================ depth guards

// One level of real nesting (brackets, unary operators, blocks...). Counts towards both limits.
struct Parser::NestingGuard {
  Parser& parser;
  NestingGuard(Parser& p, SourceRange where) : parser(p) {
    if (parser.nesting_ + 1 > kMaxNesting || parser.treeDepth_ + 1 > kMaxTreeDepth) {
      parser.fail(where, "too many nested parentheses, blocks or operators (the limit is 200 levels); "
                         "split the code into smaller statements");
    }
    ++parser.nesting_;
    ++parser.treeDepth_;
  }
  ~NestingGuard() {
    --parser.nesting_;
    --parser.treeDepth_;
  }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
};

// A left-leaning chain: each step makes the tree one level deeper.
struct Parser::ChainGuard {
  Parser& parser;
  int steps = 0;
  explicit ChainGuard(Parser& p) : parser(p) {}
  void step(SourceRange where) {
    if (parser.treeDepth_ + 1 > kMaxTreeDepth) {
      parser.fail(where, "expression is too long (the limit is 2000 chained operations); "
                         "split it into several statements");
    }
    ++parser.treeDepth_;
    ++steps;
  }
  ~ChainGuard() { parser.treeDepth_ -= steps; }
  ChainGuard(const ChainGuard&) = delete;
  ChainGuard& operator=(const ChainGuard&) = delete;
};

// ============================================================================ entry points

ParseResult parseModule(std::shared_ptr<const SourceFile> file) {
  ParseResult result;
  result.file = file;
  if (!file) return result;
  Parser parser(*file, result.diagnostics);
  result.module = parser.parseFile();
  if (result.module) result.module->file = std::move(file);
  return result;
}

ParseResult parseModule(std::string text, std::string name) {
  return parseModule(std::make_shared<const SourceFile>(std::move(name), std::move(text)));
}

ExpressionParseResult parseExpression(std::shared_ptr<const SourceFile> file) {
  ExpressionParseResult result;
  result.file = file;
  if (!file) return result;
  Parser parser(*file, result.diagnostics, Lexer::Mode::Expression);
  result.expression = parser.parseSingleExpression();
  return result;
}

ExpressionParseResult parseExpression(std::string text, std::string name) {
  return parseExpression(std::make_shared<const SourceFile>(std::move(name), std::move(text)));
}

Parser::Parser(const SourceFile& file, DiagnosticList& diagnostics, Lexer::Mode mode)
    : file_(file), diagnostics_(diagnostics), lexer_(file, diagnostics, mode) {}

Parser::Parser(const SourceFile& file, DiagnosticList& diagnostics, uint32_t begin, uint32_t end, int nesting,
               int treeDepth)
    : file_(file),
      diagnostics_(diagnostics),
      lexer_(file, diagnostics, begin, end, Lexer::Mode::Embedded),
      lastEnd_(begin),
      nesting_(nesting),
      treeDepth_(treeDepth) {}

std::unique_ptr<Module> Parser::parseFile() {
  try {
    return parseFileInput();
  } catch (const ParseAbort&) {
    return nullptr;
  }
}

ExprPtr Parser::parseSingleExpression() {
  try {
    return parseEvalInput();
  } catch (const ParseAbort&) {
    return nullptr;
  }
}

// ============================================================================ tokens

const Token& Parser::peek(size_t ahead) {
  while (lookahead_.size() <= ahead) {
    lookahead_.push_back(lexer_.next());
    // The Lexer has already recorded its diagnostic.
    if (lookahead_.back().kind == TokenKind::Error) throw ParseAbort{};
  }
  return lookahead_[ahead];
}

Token Parser::take() {
  peek();
  Token token = std::move(lookahead_.front());
  lookahead_.pop_front();
  previousKind_ = token.kind;
  previousRange_ = token.range;
  if (token.kind != TokenKind::Newline && token.kind != TokenKind::Indent && token.kind != TokenKind::Dedent &&
      token.kind != TokenKind::EndOfFile)
    lastEnd_ = token.range.end;
  return token;
}

bool Parser::accept(TokenKind kind) {
  if (!at(kind)) return false;
  take();
  return true;
}

Token Parser::expect(TokenKind kind, const std::string& message) {
  if (!at(kind)) fail(peek().range, message);
  return take();
}

void Parser::fail(SourceRange range, std::string message) {
  diagnostics_.add(Diagnostic::error(range, std::move(message)));
  throw ParseAbort{};
}

SourceRange Parser::span(uint32_t begin) const { return {&file_, begin, std::max(begin, lastEnd_)}; }

std::string Parser::lineOf(const Token& token) const {
  return std::to_string(file_.lineColumn(token.range.begin).line);
}

bool Parser::startsExpression(const Token& token, bool allowStar) const {
  switch (token.kind) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String:
    case TokenKind::KwTrue:
    case TokenKind::KwFalse:
    case TokenKind::KwNone:
    case TokenKind::KwNot:
    case TokenKind::KwLambda:
    case TokenKind::LParen:
    case TokenKind::LBracket:
    case TokenKind::LBrace:
    case TokenKind::Minus:
    case TokenKind::Plus:
    case TokenKind::Tilde:
    case TokenKind::Ellipsis: return true;
    case TokenKind::Star: return allowStar;
    default: return false;
  }
}

void Parser::failExpectedExpression() {
  const Token& token = peek();
  if (token.kind == TokenKind::ColonAssign)
    fail(token.range, "assignment expressions (':=') are not supported; assign in a separate statement");
  if (token.kind == TokenKind::Star)
    fail(token.range, "cannot use a starred expression here; unpack into a list, tuple or call instead");
  if (token.kind == TokenKind::KwYield)
    fail(token.range, "a 'yield' expression must be in parentheses here: (yield ...)");
  if (token.kind == TokenKind::Indent) fail(token.range, "unexpected indent");
  if (wantsOperandAfter(previousKind_)) {
    const std::string_view spelled = tokenSpelling(previousKind_);
    fail(token.range, "expected an expression after " + quoted(spelled.empty() ? previousRange_.text() : spelled));
  }
  if (isKeyword(token.kind)) {
    fail(token.range, "invalid syntax: " + quoted(tokenSpelling(token.kind)) +
                          " is a keyword and cannot start an expression");
  }
  fail(token.range, "invalid syntax: expected an expression, found " + describeToken(token));
}

void Parser::expectClosing(TokenKind closer, const Token& open) {
  if (accept(closer)) return;
  const Token& token = peek();
  const std::string close = quoted(tokenSpelling(closer));
  if (token.kind == TokenKind::ColonAssign)
    fail(token.range, "assignment expressions (':=') are not supported; assign in a separate statement");
  if (startsExpression(token)) {
    fail(token.range, "invalid syntax: expected ',' or " + close + " (perhaps you forgot a comma?)");
  }
  fail(token.range, "expected " + close + " to close the " + quoted(tokenSpelling(open.kind)) + " on line " +
                        lineOf(open) + ", found " + describeToken(token));
}

// ============================================================================ statements

// file: [statements] ENDMARKER
std::unique_ptr<Module> Parser::parseFileInput() {
  auto module = makeNode<Module>({&file_, 0, static_cast<uint32_t>(file_.text().size())});
  while (!at(TokenKind::EndOfFile)) {
    if (accept(TokenKind::Newline)) continue;
    parseStatement(module->body);
  }
  return module;
}

// eval: expressions NEWLINE* ENDMARKER
ExprPtr Parser::parseEvalInput() {
  ExprPtr e = parseStarExpressions();
  while (accept(TokenKind::Newline)) {
  }
  if (!at(TokenKind::EndOfFile)) {
    fail(peek().range, "invalid syntax: unexpected " + describeToken(peek()) + " after the expression");
  }
  return e;
}

// statement: compound_stmt | simple_stmts
void Parser::parseStatement(StmtList& out) {
  const Token& token = peek();
  if (token.kind == TokenKind::Indent) {
    fail(peek(1).range, "unexpected indent; line this statement up with the one before it");
  }
  if (isCompoundKeyword(token.kind)) {
    out.push_back(parseCompoundStatement());
    return;
  }
  parseSimpleStatements(out);
}

// simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE
void Parser::parseSimpleStatements(StmtList& out) {
  for (;;) {
    out.push_back(parseSimpleStatement());
    if (!accept(TokenKind::Semicolon)) break;
    if (at(TokenKind::Newline) || at(TokenKind::EndOfFile)) break;
  }
  if (accept(TokenKind::Newline) || at(TokenKind::EndOfFile)) return;
  failAfterStatement(*out.back());
}

void Parser::failAfterStatement(const Stmt& statement) {
  const Token& token = peek();
  if (token.kind == TokenKind::ColonAssign)
    fail(token.range, "assignment expressions (':=') are not supported; assign in a separate statement");
  if (const auto* es = statement.as<ExprStmt>()) {
    const auto* name = es->value ? es->value->as<Name>() : nullptr;
    if (name && (name->id == "print" || name->id == "exec") && startsExpression(token)) {
      fail(es->value->range, "Missing parentheses in call to '" + name->id + "'. Did you mean " + name->id + "(...)?");
    }
  }
  if (startsExpression(token)) {
    fail(token.range, "invalid syntax: unexpected " + describeToken(token) +
                          " (perhaps you forgot a comma or an operator?)");
  }
  fail(token.range, "invalid syntax: unexpected " + describeToken(token) +
                        "; end the statement with a new line or ';'");
}

// simple_stmt:
//     | assignment | star_expressions | return_stmt | import_stmt | raise_stmt | 'pass'
//     | del_stmt | yield_stmt | assert_stmt | 'break' | 'continue' | global_stmt | nonlocal_stmt
StmtPtr Parser::parseSimpleStatement() {
  const Token& token = peek();
  switch (token.kind) {
    case TokenKind::KwPass: return makeNode<Pass>(take().range);
    case TokenKind::KwBreak:
      if (loopDepth_ == 0) fail(token.range, "'break' outside loop");
      return makeNode<Break>(take().range);
    case TokenKind::KwContinue:
      if (loopDepth_ == 0) fail(token.range, "'continue' not properly in loop");
      return makeNode<Continue>(take().range);
    case TokenKind::KwReturn: return parseReturnStatement();
    case TokenKind::KwImport: return parseImportName();
    case TokenKind::KwFrom: return parseImportFrom();
    case TokenKind::KwRaise: return parseRaiseStatement();
    case TokenKind::KwAssert: return parseAssertStatement();
    case TokenKind::KwDel: return parseDelStatement();
    case TokenKind::KwGlobal:
    case TokenKind::KwNonlocal: return parseGlobalStatement();
    default: break;
  }
  if (isCompoundKeyword(token.kind)) {
    fail(token.range, "invalid syntax: a compound statement (" + quoted(token.spelling()) +
                          ") must start on its own line");
  }
  return parseAssignment();
}

// compound_stmt: function_def | if_stmt | class_def | with_stmt | for_stmt | try_stmt | while_stmt
StmtPtr Parser::parseCompoundStatement() {
  const Token& token = peek();
  switch (token.kind) {
    case TokenKind::At: return parseDecorated();
    case TokenKind::KwDef: return parseFuncDef({}, token.range.begin);
    case TokenKind::KwClass: return parseClassDef({}, token.range.begin);
    case TokenKind::KwIf: return parseIfStatement();
    case TokenKind::KwWhile: return parseWhileStatement();
    case TokenKind::KwFor: return parseForStatement();
    case TokenKind::KwWith: return parseWithStatement();
    case TokenKind::KwTry: return parseTryStatement();
    case TokenKind::KwAsync: fail(token.range, "'async' functions and statements are not supported");
    case TokenKind::KwElif: fail(token.range, "invalid syntax: 'elif' must follow an 'if' block at the same indentation");
    case TokenKind::KwElse:
      fail(token.range, "invalid syntax: 'else' must follow an 'if', 'for', 'while' or 'try' block at the same indentation");
    case TokenKind::KwExcept:
    case TokenKind::KwFinally:
      fail(token.range, "invalid syntax: " + quoted(token.spelling()) + " must follow a 'try' block at the same indentation");
    default: break;
  }
  fail(token.range, "invalid syntax: expected a statement, found " + describeToken(token));
}

// assignment:
//     | NAME ':' expression ['=' annotated_rhs]
//     | ('(' single_target ')' | single_subscript_attribute_target) ':' expression ['=' annotated_rhs]
//     | (star_targets '=')+ (yield_expr | star_expressions) !'='
//     | single_target augassign ~ (yield_expr | star_expressions)
// Falls back to star_expressions (an expression statement). The left side is parsed as an
// expression first and then checked as a target, as CPython's error messages do.
StmtPtr Parser::parseAssignment() {
  const uint32_t begin = peek().range.begin;
  const auto parseRightHandSide = [this]() -> ExprPtr {
    if (at(TokenKind::KwYield)) return parseYieldExpression();
    ExprPtr value = parseStarExpressions();
    if (value->is<Starred>()) fail(value->range, "cannot use a starred expression here; add a ',' to make a tuple");
    return value;
  };
  ExprPtr first = at(TokenKind::KwYield) ? parseYieldExpression() : parseStarExpressions();

  if (at(TokenKind::Colon)) {
    if (first->is<Tuple>()) fail(first->range, "only single target (not tuple) can be annotated");
    if (first->is<List>()) fail(first->range, "only single target (not list) can be annotated");
    if (!first->is<Name>() && !first->is<Attribute>() && !first->is<Subscript>())
      fail(first->range, "illegal target for annotation: annotate a name, attribute or subscript");
    take();
    auto stmt = makeNode<AnnAssign>({});
    stmt->simple = first->is<Name>() && !first->parenthesized;
    first->context = ExprContext::Store;
    stmt->target = std::move(first);
    stmt->annotation = parseExpression();
    if (accept(TokenKind::Assign)) stmt->value = parseRightHandSide();
    stmt->range = span(begin);
    return stmt;
  }

  if (isAugmentedAssign(peek().kind)) {
    checkAugTarget(*first);
    const Token op = take();
    auto stmt = makeNode<AugAssign>({});
    stmt->target = std::move(first);
    stmt->op = augmentedOp(op.kind);
    stmt->opRange = op.range;
    if (!startsExpression(peek()) && !at(TokenKind::KwYield)) failExpectedExpression();
    stmt->value = parseRightHandSide();
    stmt->range = span(begin);
    return stmt;
  }

  if (at(TokenKind::Assign)) {
    auto stmt = makeNode<Assign>({});
    stmt->targets.push_back(std::move(first));
    ExprPtr value;
    while (accept(TokenKind::Assign)) {
      if (value) stmt->targets.push_back(std::move(value));
      value = parseRightHandSide();
    }
    for (ExprPtr& target : stmt->targets) checkTarget(*target, ExprContext::Store, false);
    stmt->value = std::move(value);
    stmt->range = span(begin);
    return stmt;
  }

  if (first->is<Starred>()) fail(first->range, "cannot use a starred expression here; add a ',' to make a tuple");
  auto stmt = makeNode<ExprStmt>({});
  stmt->value = std::move(first);
  stmt->range = span(begin);
  return stmt;
}

void Parser::checkTarget(Expr& target, ExprContext context, bool insideSequence) {
  const bool deleting = context == ExprContext::Del;
  switch (target.kind()) {
    case Node::Kind::Name:
    case Node::Kind::Attribute:
    case Node::Kind::Subscript: target.context = context; return;
    case Node::Kind::Tuple:
    case Node::Kind::List: {
      target.context = context;
      ExprList& elements = target.is<Tuple>() ? static_cast<Tuple&>(target).elements : static_cast<List&>(target).elements;
      bool seenStar = false;
      for (ExprPtr& e : elements) {
        if (e->is<Starred>() && !deleting) {
          if (seenStar) fail(e->range, "multiple starred expressions in assignment; keep one '*' target");
          seenStar = true;
        }
        checkTarget(*e, context, true);
      }
      return;
    }
    case Node::Kind::Starred:
      if (deleting) fail(target.range, "cannot delete a starred expression");
      if (!insideSequence) fail(target.range, "starred assignment target must be in a list or tuple");
      target.context = context;
      checkTarget(*static_cast<Starred&>(target).value, context, false);
      return;
    default: break;
  }
  if (deleting) fail(target.range, "invalid syntax: cannot delete " + describeExpr(target));
  std::string message = "invalid syntax: cannot assign to " + describeExpr(target);
  if (target.is<Call>() || target.is<Compare>()) message += "; did you mean '=='?";
  fail(target.range, message);
}

void Parser::checkAugTarget(Expr& target) {
  if (target.is<Name>() || target.is<Attribute>() || target.is<Subscript>()) {
    target.context = ExprContext::Store;
    return;
  }
  fail(target.range, quoted(augTargetName(target)) +
                         " is an illegal expression for augmented assignment; use a name, attribute or subscript");
}

// return_stmt: 'return' [star_expressions]
StmtPtr Parser::parseReturnStatement() {
  const Token keyword = take();
  if (functionDepth_ == 0) fail(keyword.range, "'return' outside function");
  auto stmt = makeNode<Return>({});
  if (startsExpression(peek(), true)) stmt->value = parseStarExpressions();
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// raise_stmt: 'raise' expression ['from' expression] | 'raise'
StmtPtr Parser::parseRaiseStatement() {
  const Token keyword = take();
  auto stmt = makeNode<Raise>({});
  if (startsExpression(peek())) {
    stmt->exc = parseExpression();
    if (accept(TokenKind::KwFrom)) stmt->cause = parseExpression();
  }
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// assert_stmt: 'assert' expression [',' expression]
StmtPtr Parser::parseAssertStatement() {
  const Token keyword = take();
  auto stmt = makeNode<Assert>({});
  stmt->test = parseExpression();
  if (accept(TokenKind::Comma)) stmt->msg = parseExpression();
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// del_stmt: 'del' del_targets &(';' | NEWLINE)
// del_targets: ','.del_target+ [',']
StmtPtr Parser::parseDelStatement() {
  const Token keyword = take();
  auto stmt = makeNode<Del>({});
  do {
    if (!startsExpression(peek()) && !stmt->targets.empty()) break;
    ExprPtr target = parseBitOr();
    checkTarget(*target, ExprContext::Del, false);
    stmt->targets.push_back(std::move(target));
  } while (accept(TokenKind::Comma));
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// global_stmt: 'global' ','.NAME+
// nonlocal_stmt: 'nonlocal' ','.NAME+
StmtPtr Parser::parseGlobalStatement() {
  const Token keyword = take();
  std::vector<std::string> names;
  do {
    names.push_back(expect(TokenKind::Name, "expected a name after " + quoted(keyword.spelling())).text);
  } while (accept(TokenKind::Comma));
  if (keyword.kind == TokenKind::KwGlobal) {
    auto stmt = makeNode<Global>(span(keyword.range.begin));
    stmt->names = std::move(names);
    return stmt;
  }
  auto stmt = makeNode<Nonlocal>(span(keyword.range.begin));
  stmt->names = std::move(names);
  return stmt;
}

// import_name: 'import' dotted_as_names
// dotted_as_names: ','.dotted_as_name+
// dotted_as_name: dotted_name ['as' NAME]
// dotted_name: dotted_name '.' NAME | NAME
StmtPtr Parser::parseImportName() {
  const Token keyword = take();
  auto stmt = makeNode<Import>({});
  do {
    ImportAlias alias;
    const Token first = expect(TokenKind::Name, "expected a module name after 'import'");
    alias.name = first.text;
    while (accept(TokenKind::Dot)) alias.name += "." + expect(TokenKind::Name, "expected a name after '.'").text;
    if (accept(TokenKind::KwAs)) alias.asName = expect(TokenKind::Name, "expected a name after 'as'").text;
    alias.range = span(first.range.begin);
    stmt->names.push_back(std::move(alias));
  } while (accept(TokenKind::Comma));
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// import_from:
//     | 'from' ('.' | '...')* dotted_name 'import' import_from_targets
//     | 'from' ('.' | '...')+ 'import' import_from_targets
// import_from_targets: '(' import_from_as_names [','] ')' | import_from_as_names !',' | '*'
StmtPtr Parser::parseImportFrom() {
  const Token keyword = take();
  auto stmt = makeNode<ImportFrom>({});
  for (;;) {
    if (accept(TokenKind::Dot)) stmt->level += 1;
    else if (accept(TokenKind::Ellipsis)) stmt->level += 3;
    else break;
  }
  if (at(TokenKind::Name)) {
    stmt->module = take().text;
    while (accept(TokenKind::Dot)) stmt->module += "." + expect(TokenKind::Name, "expected a name after '.'").text;
  } else if (stmt->level == 0) {
    fail(peek().range, "expected a module name after 'from'");
  }
  expect(TokenKind::KwImport, "expected 'import' after the module name in a 'from' statement");
  if (at(TokenKind::Star)) {
    const Token star = take();
    stmt->names.push_back({star.range, "*", {}});
  } else {
    const bool parenthesized = at(TokenKind::LParen);
    Token open;
    if (parenthesized) open = take();
    do {
      if (parenthesized && at(TokenKind::RParen) && !stmt->names.empty()) break;
      ImportAlias alias;
      const Token name = expect(TokenKind::Name, "expected a name to import");
      alias.name = name.text;
      if (accept(TokenKind::KwAs)) alias.asName = expect(TokenKind::Name, "expected a name after 'as'").text;
      alias.range = span(name.range.begin);
      stmt->names.push_back(std::move(alias));
      if (!parenthesized && at(TokenKind::Comma) && peek(1).kind == TokenKind::Newline) {
        fail(peek().range, "trailing comma not allowed without surrounding parentheses");
      }
    } while (accept(TokenKind::Comma));
    if (parenthesized) expectClosing(TokenKind::RParen, open);
  }
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// decorators: ('@' named_expression NEWLINE)+
// function_def: decorators function_def_raw | function_def_raw
// class_def: decorators class_def_raw | class_def_raw
StmtPtr Parser::parseDecorated() {
  const uint32_t begin = peek().range.begin;
  ExprList decorators;
  while (accept(TokenKind::At)) {
    decorators.push_back(parseNamedExpression());
    expect(TokenKind::Newline, "expected a new line after the decorator, found " + describeToken(peek()));
  }
  if (at(TokenKind::KwDef)) return parseFuncDef(std::move(decorators), begin);
  if (at(TokenKind::KwClass)) return parseClassDef(std::move(decorators), begin);
  if (at(TokenKind::KwAsync)) fail(peek().range, "'async' functions and statements are not supported");
  fail(peek().range, "expected 'def' or 'class' after the decorator, found " + describeToken(peek()));
}

// function_def_raw: 'def' NAME '(' [params] ')' ['->' expression] ':' block
StmtPtr Parser::parseFuncDef(ExprList decorators, uint32_t begin) {
  const Token keyword = take();
  auto def = makeNode<FunctionDef>({});
  def->decorators = std::move(decorators);
  if (isKeyword(peek().kind)) {
    fail(peek().range, "invalid syntax: " + quoted(peek().spelling()) + " is a keyword and cannot be used as a function name");
  }
  const Token name = expect(TokenKind::Name, "expected a function name after 'def'");
  def->name = name.text;
  def->nameRange = name.range;
  const Token open = expect(TokenKind::LParen, "expected '(' after the function name");
  def->params = parseParameters(TokenKind::RParen, true);
  expectClosing(TokenKind::RParen, open);
  if (accept(TokenKind::Arrow)) def->returns = parseExpression();
  expect(TokenKind::Colon, "expected ':' after the function signature");
  const int savedLoops = std::exchange(loopDepth_, 0);
  ++functionDepth_;
  def->body = parseBlock("function definition on line " + lineOf(keyword));
  --functionDepth_;
  loopDepth_ = savedLoops;
  def->range = span(begin);
  return def;
}

// params: parameters
// parameters:
//     | slash_no_default param_no_default* param_with_default* [star_etc]
//     | slash_with_default param_with_default* [star_etc]
//     | param_no_default+ param_with_default* [star_etc]
//     | param_with_default+ [star_etc]
//     | star_etc
// star_etc:
//     | '*' param_no_default param_maybe_default* [kwds]
//     | '*' ',' param_maybe_default+ [kwds]
//     | kwds
// kwds: '**' param_no_default
// param: NAME annotation?          (lambda_param: NAME, without annotation)
// default: '=' expression
Parameters Parser::parseParameters(TokenKind closer, bool allowAnnotations) {
  Parameters result;
  const uint32_t begin = peek().range.begin;
  bool seenSlash = false;
  bool seenStar = false;
  bool seenDefault = false;
  bool seenVarKeyword = false;
  std::optional<SourceRange> bareStar;  // a `*` still waiting for its keyword-only parameter
  std::set<std::string> names;
  const std::string where = closer == TokenKind::RParen ? "the parameter list" : "the lambda parameters";

  const auto parseName = [&](Param& param) {
    if (isKeyword(peek().kind)) {
      fail(peek().range, "invalid syntax: " + quoted(peek().spelling()) + " is a keyword and cannot be used as a parameter name");
    }
    if (!at(TokenKind::Name)) fail(peek().range, "expected a parameter name, found " + describeToken(peek()));
    const Token name = take();
    if (!names.insert(name.text).second) {
      fail(name.range, "duplicate argument '" + name.text + "' in function definition");
    }
    param.name = name.text;
    param.nameRange = name.range;
    if (allowAnnotations && accept(TokenKind::Colon)) param.annotation = parseExpression();
  };

  while (!at(closer)) {
    if (seenVarKeyword) fail(peek().range, "arguments cannot follow var-keyword argument");
    const uint32_t paramBegin = peek().range.begin;
    if (at(TokenKind::Slash)) {
      const Token slash = take();
      if (result.params.empty()) fail(slash.range, "at least one argument must precede /");
      if (seenSlash) fail(slash.range, "/ may appear only once");
      if (seenStar) fail(slash.range, "/ must be ahead of *");
      seenSlash = true;
      for (Param& p : result.params) p.kind = ParamKind::PositionalOnly;
    } else if (at(TokenKind::Star)) {
      const Token star = take();
      if (seenStar) fail(star.range, "* argument may appear only once");
      seenStar = true;
      if (at(TokenKind::Comma) || at(closer)) {
        bareStar = star.range;
      } else {
        Param param;
        param.kind = ParamKind::VarPositional;
        parseName(param);
        if (at(TokenKind::Assign)) fail(peek().range, "var-positional argument cannot have default value");
        param.range = span(paramBegin);
        result.params.push_back(std::move(param));
      }
    } else if (at(TokenKind::DoubleStar)) {
      take();
      Param param;
      param.kind = ParamKind::VarKeyword;
      parseName(param);
      if (at(TokenKind::Assign)) fail(peek().range, "var-keyword argument cannot have default value");
      param.range = span(paramBegin);
      result.params.push_back(std::move(param));
      seenVarKeyword = true;
    } else {
      Param param;
      param.kind = seenStar ? ParamKind::KeywordOnly : ParamKind::Normal;
      parseName(param);
      if (accept(TokenKind::Assign)) param.defaultValue = parseExpression();
      param.range = span(paramBegin);
      if (!seenStar) {
        if (param.defaultValue) seenDefault = true;
        else if (seenDefault) fail(param.range, "parameter without a default follows parameter with a default");
      }
      if (seenStar) bareStar.reset();
      result.params.push_back(std::move(param));
    }
    if (!accept(TokenKind::Comma)) break;
  }
  if (bareStar) fail(*bareStar, "named arguments must follow bare *");
  if (!at(closer)) {
    if (at(TokenKind::Assign) && closer == TokenKind::Colon)
      fail(peek().range, "expected ',' or ':' in " + where + ", found '='");
    if (closer == TokenKind::RParen && !at(TokenKind::RParen)) {
      fail(peek().range, "expected ',' or ')' in " + where + ", found " + describeToken(peek()));
    }
    fail(peek().range, "expected ',' or ':' in " + where + ", found " + describeToken(peek()));
  }
  result.range = {&file_, begin, std::max(begin, lastEnd_)};
  if (result.params.empty()) result.range.end = begin;
  return result;
}

// class_def_raw: 'class' NAME ['(' [arguments] ')'] ':' block
StmtPtr Parser::parseClassDef(ExprList decorators, uint32_t begin) {
  const Token keyword = take();
  auto cls = makeNode<ClassDef>({});
  cls->decorators = std::move(decorators);
  if (isKeyword(peek().kind)) {
    fail(peek().range, "invalid syntax: " + quoted(peek().spelling()) + " is a keyword and cannot be used as a class name");
  }
  const Token name = expect(TokenKind::Name, "expected a class name after 'class'");
  cls->name = name.text;
  cls->nameRange = name.range;
  if (at(TokenKind::LParen)) {
    const Token open = take();
    parseArguments(open, cls->bases, cls->keywords);
  }
  expect(TokenKind::Colon, "expected ':' after the class header");
  const int savedLoops = std::exchange(loopDepth_, 0);
  const int savedFunctions = std::exchange(functionDepth_, 0);
  cls->body = parseBlock("class definition on line " + lineOf(keyword));
  loopDepth_ = savedLoops;
  functionDepth_ = savedFunctions;
  cls->range = span(begin);
  return cls;
}

// block: NEWLINE INDENT statements DEDENT | simple_stmts
StmtList Parser::parseBlock(const std::string& after) {
  StmtList body;
  NestingGuard guard(*this, peek().range);
  if (!accept(TokenKind::Newline)) {
    parseSimpleStatements(body);
    return body;
  }
  if (!at(TokenKind::Indent)) fail(peek().range, "expected an indented block after " + after);
  take();
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile)) parseStatement(body);
  accept(TokenKind::Dedent);
  return body;
}

// if_stmt:
//     | 'if' named_expression ':' block elif_stmt
//     | 'if' named_expression ':' block [else_block]
// elif_stmt:
//     | 'elif' named_expression ':' block elif_stmt
//     | 'elif' named_expression ':' block [else_block]
// else_block: 'else' ':' block
// Built with a loop, not recursion, so that long elif chains cannot exhaust the stack.
StmtPtr Parser::parseIfStatement() {
  ChainGuard chain(*this);
  std::vector<If*> links;
  StmtPtr root;
  If* current = nullptr;
  const auto parseClause = [&](const Token& keyword) {
    auto node = makeNode<If>({});
    node->isElif = keyword.kind == TokenKind::KwElif;
    node->test = parseNamedExpression();
    const std::string name = quoted(keyword.spelling());
    if (at(TokenKind::Assign)) {
      fail(peek().range, "invalid syntax: cannot assign in an " + name + " condition; use '==' to compare");
    }
    expect(TokenKind::Colon, "expected ':' after the " + name + " condition");
    node->body = parseBlock(name + " statement on line " + lineOf(keyword));
    node->range = {&file_, keyword.range.begin, keyword.range.end};
    links.push_back(node.get());
    if (current) {
      current->orelse.push_back(std::move(node));
      current = static_cast<If*>(current->orelse.back().get());
    } else {
      current = node.get();
      root = std::move(node);
    }
  };
  parseClause(take());
  while (at(TokenKind::KwElif)) {
    const Token keyword = take();
    chain.step(keyword.range);
    parseClause(keyword);
  }
  if (at(TokenKind::KwElse)) {
    const Token keyword = take();
    expect(TokenKind::Colon, "expected ':' after 'else'");
    current->orelse = parseBlock("'else' statement on line " + lineOf(keyword));
  }
  for (If* link : links) link->range.end = std::max(link->range.begin, lastEnd_);
  return root;
}

// while_stmt: 'while' named_expression ':' block [else_block]
StmtPtr Parser::parseWhileStatement() {
  const Token keyword = take();
  auto stmt = makeNode<While>({});
  stmt->test = parseNamedExpression();
  if (at(TokenKind::Assign)) fail(peek().range, "invalid syntax: cannot assign in a 'while' condition; use '==' to compare");
  expect(TokenKind::Colon, "expected ':' after the 'while' condition");
  ++loopDepth_;
  stmt->body = parseBlock("'while' statement on line " + lineOf(keyword));
  --loopDepth_;
  if (at(TokenKind::KwElse)) {
    const Token elseKeyword = take();
    expect(TokenKind::Colon, "expected ':' after 'else'");
    stmt->orelse = parseBlock("'else' statement on line " + lineOf(elseKeyword));
  }
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// for_stmt: 'for' star_targets 'in' ~ star_expressions ':' block [else_block]
StmtPtr Parser::parseForStatement() {
  const Token keyword = take();
  auto stmt = makeNode<For>({});
  stmt->target = parseStarTargets();
  expect(TokenKind::KwIn, "expected 'in' after the 'for' target, found " + describeToken(peek()));
  stmt->iter = parseStarExpressions();
  expect(TokenKind::Colon, "expected ':' at the end of the 'for' statement");
  ++loopDepth_;
  stmt->body = parseBlock("'for' statement on line " + lineOf(keyword));
  --loopDepth_;
  if (at(TokenKind::KwElse)) {
    const Token elseKeyword = take();
    expect(TokenKind::Colon, "expected ':' after 'else'");
    stmt->orelse = parseBlock("'else' statement on line " + lineOf(elseKeyword));
  }
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// with_stmt: 'with' ','.with_item+ ':' block
// with_item: expression 'as' star_target &(',' | ')' | ':') | expression
StmtPtr Parser::parseWithStatement() {
  const Token keyword = take();
  auto stmt = makeNode<With>({});
  do {
    WithItem item;
    const uint32_t begin = peek().range.begin;
    item.contextExpr = parseExpression();
    if (accept(TokenKind::KwAs)) {
      item.optionalVars = parseStarTarget();
      checkTarget(*item.optionalVars, ExprContext::Store, false);
    }
    item.range = span(begin);
    stmt->items.push_back(std::move(item));
  } while (accept(TokenKind::Comma));
  expect(TokenKind::Colon, "expected ':' after the 'with' items");
  stmt->body = parseBlock("'with' statement on line " + lineOf(keyword));
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// try_stmt:
//     | 'try' ':' block finally_block
//     | 'try' ':' block except_block+ [else_block] [finally_block]
// except_block: 'except' expression ['as' NAME] ':' block | 'except' ':' block
// finally_block: 'finally' ':' block
StmtPtr Parser::parseTryStatement() {
  const Token keyword = take();
  auto stmt = makeNode<Try>({});
  expect(TokenKind::Colon, "expected ':' after 'try'");
  stmt->body = parseBlock("'try' statement on line " + lineOf(keyword));
  bool seenBareExcept = false;
  while (at(TokenKind::KwExcept)) {
    const Token except = take();
    if (seenBareExcept) fail(except.range, "default 'except:' must be last");
    if (at(TokenKind::Star)) fail(peek().range, "'except*' is not supported");
    ExceptHandler handler;
    if (at(TokenKind::Colon)) {
      seenBareExcept = true;
    } else {
      handler.type = parseExpression();
      if (accept(TokenKind::KwAs)) handler.name = expect(TokenKind::Name, "expected a name after 'as'").text;
    }
    expect(TokenKind::Colon, "expected ':' after the 'except' clause");
    handler.body = parseBlock("'except' statement on line " + lineOf(except));
    handler.range = span(except.range.begin);
    stmt->handlers.push_back(std::move(handler));
  }
  if (at(TokenKind::KwElse)) {
    const Token elseKeyword = take();
    if (stmt->handlers.empty()) fail(elseKeyword.range, "an 'else' block needs at least one 'except' block before it");
    expect(TokenKind::Colon, "expected ':' after 'else'");
    stmt->orelse = parseBlock("'else' statement on line " + lineOf(elseKeyword));
  }
  if (at(TokenKind::KwFinally)) {
    const Token finally = take();
    expect(TokenKind::Colon, "expected ':' after 'finally'");
    stmt->finalBody = parseBlock("'finally' statement on line " + lineOf(finally));
  }
  if (stmt->handlers.empty() && stmt->finalBody.empty()) {
    fail(peek().range, "expected 'except' or 'finally' block after the 'try' block");
  }
  stmt->range = span(keyword.range.begin);
  return stmt;
}

// ============================================================================ expressions

// star_expressions: star_expression (',' star_expression)* [',']
ExprPtr Parser::parseStarExpressions() {
  const uint32_t begin = peek().range.begin;
  ExprPtr first = parseStarExpression();
  if (!at(TokenKind::Comma)) return first;
  auto tuple = makeNode<Tuple>({});
  tuple->elements.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (!startsExpression(peek(), true)) break;
    tuple->elements.push_back(parseStarExpression());
  }
  tuple->range = span(begin);
  return tuple;
}

// star_expression: '*' bitwise_or | expression
ExprPtr Parser::parseStarExpression() {
  if (!at(TokenKind::Star)) return parseExpression();
  const Token star = take();
  NestingGuard guard(*this, star.range);
  auto node = makeNode<Starred>({});
  node->value = parseBitOr();
  node->range = span(star.range.begin);
  return node;
}

// star_named_expression: '*' bitwise_or | named_expression
ExprPtr Parser::parseStarNamedExpression() {
  if (at(TokenKind::Star)) return parseStarExpression();
  return parseNamedExpression();
}

// named_expression: expression !':='    (assignment expressions are not supported)
ExprPtr Parser::parseNamedExpression() {
  ExprPtr e = parseExpression();
  if (at(TokenKind::ColonAssign)) {
    fail(peek().range, "assignment expressions (':=') are not supported; assign in a separate statement");
  }
  return e;
}

// expression: disjunction 'if' disjunction 'else' expression | disjunction | lambdef
ExprPtr Parser::parseExpression() {
  NestingGuard guard(*this, peek().range);
  if (at(TokenKind::KwLambda)) return parseLambdef();
  const uint32_t begin = peek().range.begin;
  ExprPtr body = parseDisjunction();
  if (!at(TokenKind::KwIf)) return body;
  take();
  auto node = makeNode<IfExp>({});
  node->body = std::move(body);
  node->test = parseDisjunction();
  expect(TokenKind::KwElse, "expected 'else' after the condition of a conditional expression (a if cond else b)");
  node->orelse = parseExpression();
  node->range = span(begin);
  return node;
}

// yield_expr: 'yield' 'from' expression | 'yield' [star_expressions]
ExprPtr Parser::parseYieldExpression() {
  const Token keyword = take();
  if (functionDepth_ == 0) fail(keyword.range, "'yield' outside function");
  auto node = makeNode<Yield>({});
  if (accept(TokenKind::KwFrom)) {
    node->isFrom = true;
    node->value = parseExpression();
  } else if (startsExpression(peek(), true)) {
    node->value = parseStarExpressions();
  }
  node->range = span(keyword.range.begin);
  return node;
}

// lambdef: 'lambda' [lambda_params] ':' expression
ExprPtr Parser::parseLambdef() {
  const Token keyword = take();
  auto node = makeNode<Lambda>({});
  node->params = parseParameters(TokenKind::Colon, false);
  expect(TokenKind::Colon, "expected ':' after the lambda parameters");
  node->body = parseExpression();
  node->range = span(keyword.range.begin);
  return node;
}

// disjunction: conjunction ('or' conjunction)+ | conjunction
ExprPtr Parser::parseDisjunction() {
  const uint32_t begin = peek().range.begin;
  ExprPtr first = parseConjunction();
  if (!at(TokenKind::KwOr)) return first;
  auto node = makeNode<BoolOp>({});
  node->op = BoolOpKind::Or;
  node->values.push_back(std::move(first));
  while (accept(TokenKind::KwOr)) node->values.push_back(parseConjunction());
  node->range = span(begin);
  return node;
}

// conjunction: inversion ('and' inversion)+ | inversion
ExprPtr Parser::parseConjunction() {
  const uint32_t begin = peek().range.begin;
  ExprPtr first = parseInversion();
  if (!at(TokenKind::KwAnd)) return first;
  auto node = makeNode<BoolOp>({});
  node->op = BoolOpKind::And;
  node->values.push_back(std::move(first));
  while (accept(TokenKind::KwAnd)) node->values.push_back(parseInversion());
  node->range = span(begin);
  return node;
}

// inversion: 'not' inversion | comparison
ExprPtr Parser::parseInversion() {
  if (!at(TokenKind::KwNot)) return parseComparison();
  const Token keyword = take();
  NestingGuard guard(*this, keyword.range);
  auto node = makeNode<Unary>({});
  node->op = UnaryOp::Not;
  node->operand = parseInversion();
  node->range = span(keyword.range.begin);
  return node;
}

// comparison: bitwise_or compare_op_bitwise_or_pair+ | bitwise_or
// compare_op_bitwise_or_pair: ('==' | '!=' | '<=' | '<' | '>=' | '>' | 'not' 'in' | 'in'
//                              | 'is' 'not' | 'is') bitwise_or
ExprPtr Parser::parseComparison() {
  const uint32_t begin = peek().range.begin;
  ExprPtr left = parseBitOr();
  std::unique_ptr<Compare> node;
  for (;;) {
    const Token& token = peek();
    std::optional<CompareOp> op;
    switch (token.kind) {
      case TokenKind::Equal: op = CompareOp::Eq; break;
      case TokenKind::NotEqual: op = CompareOp::NotEq; break;
      case TokenKind::Less: op = CompareOp::Lt; break;
      case TokenKind::LessEqual: op = CompareOp::LtE; break;
      case TokenKind::Greater: op = CompareOp::Gt; break;
      case TokenKind::GreaterEqual: op = CompareOp::GtE; break;
      case TokenKind::KwIn: op = CompareOp::In; break;
      case TokenKind::KwIs: op = peek(1).kind == TokenKind::KwNot ? CompareOp::IsNot : CompareOp::Is; break;
      case TokenKind::KwNot:
        if (peek(1).kind != TokenKind::KwIn) {
          fail(peek(1).range, "expected 'in' after 'not' in a comparison (did you mean 'not in'?)");
        }
        op = CompareOp::NotIn;
        break;
      default: break;
    }
    if (!op) break;
    const Token first = take();
    SourceRange opRange = first.range;
    if (*op == CompareOp::IsNot || *op == CompareOp::NotIn) opRange = SourceRange::merge(opRange, take().range);
    if (!node) {
      node = makeNode<Compare>({});
      node->left = std::move(left);
    }
    node->ops.push_back(*op);
    node->opRanges.push_back(opRange);
    node->comparators.push_back(parseBitOr());
  }
  if (!node) return left;
  node->range = span(begin);
  return node;
}

ExprPtr Parser::parseLeftAssociative(OperandParser operand,
                                     std::initializer_list<std::pair<TokenKind, BinaryOp>> ops) {
  const uint32_t begin = peek().range.begin;
  ExprPtr left = (this->*operand)();
  ChainGuard chain(*this);
  for (;;) {
    const TokenKind kind = peek().kind;
    const auto it = std::find_if(ops.begin(), ops.end(), [kind](const auto& p) { return p.first == kind; });
    if (it == ops.end()) return left;
    const Token op = take();
    chain.step(op.range);
    auto node = makeNode<Binary>({});
    node->op = it->second;
    node->opRange = op.range;
    node->left = std::move(left);
    node->right = (this->*operand)();
    node->range = span(begin);
    left = std::move(node);
  }
}

// bitwise_or: bitwise_or '|' bitwise_xor | bitwise_xor
ExprPtr Parser::parseBitOr() { return parseLeftAssociative(&Parser::parseBitXor, {{TokenKind::Pipe, BinaryOp::BitOr}}); }

// bitwise_xor: bitwise_xor '^' bitwise_and | bitwise_and
ExprPtr Parser::parseBitXor() { return parseLeftAssociative(&Parser::parseBitAnd, {{TokenKind::Caret, BinaryOp::BitXor}}); }

// bitwise_and: bitwise_and '&' shift_expr | shift_expr
ExprPtr Parser::parseBitAnd() { return parseLeftAssociative(&Parser::parseShiftExpr, {{TokenKind::Amp, BinaryOp::BitAnd}}); }

// shift_expr: shift_expr '<<' sum | shift_expr '>>' sum | sum
ExprPtr Parser::parseShiftExpr() {
  return parseLeftAssociative(&Parser::parseSum,
                              {{TokenKind::LeftShift, BinaryOp::LShift}, {TokenKind::RightShift, BinaryOp::RShift}});
}

// sum: sum '+' term | sum '-' term | term
ExprPtr Parser::parseSum() {
  return parseLeftAssociative(&Parser::parseTerm, {{TokenKind::Plus, BinaryOp::Add}, {TokenKind::Minus, BinaryOp::Sub}});
}

// term: term '*' factor | term '/' factor | term '//' factor | term '%' factor | term '@' factor | factor
ExprPtr Parser::parseTerm() {
  return parseLeftAssociative(&Parser::parseFactor, {{TokenKind::Star, BinaryOp::Mult},
                                                     {TokenKind::Slash, BinaryOp::Div},
                                                     {TokenKind::DoubleSlash, BinaryOp::FloorDiv},
                                                     {TokenKind::Percent, BinaryOp::Mod},
                                                     {TokenKind::At, BinaryOp::MatMult}});
}

// factor: '+' factor | '-' factor | '~' factor | power
ExprPtr Parser::parseFactor() {
  const TokenKind kind = peek().kind;
  if (kind != TokenKind::Plus && kind != TokenKind::Minus && kind != TokenKind::Tilde) return parsePower();
  const Token op = take();
  NestingGuard guard(*this, op.range);
  auto node = makeNode<Unary>({});
  node->op = kind == TokenKind::Plus ? UnaryOp::Pos : kind == TokenKind::Minus ? UnaryOp::Neg : UnaryOp::Invert;
  node->operand = parseFactor();
  node->range = span(op.range.begin);
  return node;
}

// power: await_primary '**' factor | await_primary
// (`-a ** b` is `-(a ** b)` and `a ** -b` is `a ** (-b)`: the right operand is a factor)
ExprPtr Parser::parsePower() {
  const uint32_t begin = peek().range.begin;
  ExprPtr base = parsePrimary();
  if (!at(TokenKind::DoubleStar)) return base;
  const Token op = take();
  NestingGuard guard(*this, op.range);
  auto node = makeNode<Binary>({});
  node->op = BinaryOp::Pow;
  node->opRange = op.range;
  node->left = std::move(base);
  node->right = parseFactor();
  node->range = span(begin);
  return node;
}

// primary:
//     | primary '.' NAME
//     | primary genexp
//     | primary '(' [arguments] ')'
//     | primary '[' slices ']'
//     | atom
ExprPtr Parser::parsePrimary() {
  if (at(TokenKind::KwAwait)) fail(peek().range, "'await' is not supported");
  const uint32_t begin = peek().range.begin;
  ExprPtr e = parseAtom();
  ChainGuard chain(*this);
  for (;;) {
    if (at(TokenKind::Dot)) {
      const Token dot = take();
      chain.step(dot.range);
      if (isKeyword(peek().kind)) {
        fail(peek().range, "invalid syntax: " + quoted(peek().spelling()) + " is a keyword and cannot be an attribute name");
      }
      const Token name = expect(TokenKind::Name, "expected an attribute name after '.', found " + describeToken(peek()));
      auto node = makeNode<Attribute>({});
      node->value = std::move(e);
      node->attr = name.text;
      node->attrRange = name.range;
      node->range = span(begin);
      e = std::move(node);
    } else if (at(TokenKind::LParen)) {
      const Token open = take();
      chain.step(open.range);
      auto node = makeNode<Call>({});
      node->func = std::move(e);
      parseArguments(open, node->args, node->keywords);
      node->range = span(begin);
      e = std::move(node);
    } else if (at(TokenKind::LBracket)) {
      const Token open = take();
      chain.step(open.range);
      auto node = makeNode<Subscript>({});
      node->value = std::move(e);
      if (at(TokenKind::RBracket)) fail(peek().range, "expected an index or slice between '[' and ']'");
      node->index = parseSlices();
      expectClosing(TokenKind::RBracket, open);
      node->range = span(begin);
      e = std::move(node);
    } else {
      return e;
    }
  }
}

// slices: slice !',' | ','.(slice | starred_expression)+ [',']
ExprPtr Parser::parseSlices() {
  const uint32_t begin = peek().range.begin;
  ExprPtr first = parseSlice();
  if (!at(TokenKind::Comma)) return first;
  auto tuple = makeNode<Tuple>({});
  tuple->elements.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::RBracket)) break;
    tuple->elements.push_back(parseSlice());
  }
  tuple->range = span(begin);
  return tuple;
}

// slice: [expression] ':' [expression] [':' [expression]] | named_expression
ExprPtr Parser::parseSlice() {
  const uint32_t begin = peek().range.begin;
  if (at(TokenKind::Star)) return parseStarExpression();
  ExprPtr lower;
  if (!at(TokenKind::Colon)) {
    lower = parseNamedExpression();
    if (!at(TokenKind::Colon)) return lower;
  }
  take();  // ':'
  auto node = makeNode<Slice>({});
  node->lower = std::move(lower);
  if (startsExpression(peek())) node->upper = parseExpression();
  if (accept(TokenKind::Colon) && startsExpression(peek())) node->step = parseExpression();
  node->range = span(begin);
  return node;
}

// atom:
//     | NAME | 'True' | 'False' | 'None' | strings | NUMBER
//     | (tuple | group | genexp) | (list | listcomp) | (dict | set | dictcomp | setcomp) | '...'
ExprPtr Parser::parseAtom() {
  const Token& token = peek();
  switch (token.kind) {
    case TokenKind::Name: {
      auto node = makeNode<Name>(token.range);
      node->id = take().text;
      return node;
    }
    case TokenKind::Int: {
      const Token t = take();
      auto node = makeNode<IntLiteral>(t.range);
      node->text = t.text;
      node->value = t.intValue;
      return node;
    }
    case TokenKind::Float: {
      const Token t = take();
      auto node = makeNode<FloatLiteral>(t.range);
      node->text = t.text;
      node->value = t.floatValue;
      return node;
    }
    case TokenKind::String: return parseStrings();
    case TokenKind::KwTrue:
    case TokenKind::KwFalse: {
      auto node = makeNode<BoolLiteral>(token.range);
      node->value = take().kind == TokenKind::KwTrue;
      return node;
    }
    case TokenKind::KwNone: return makeNode<NoneLiteral>(take().range);
    case TokenKind::Ellipsis: return makeNode<Ellipsis>(take().range);
    case TokenKind::LParen: return parseGroupOrTuple();
    case TokenKind::LBracket: return parseListDisplay();
    case TokenKind::LBrace: return parseDictOrSet();
    default: break;
  }
  failExpectedExpression();
}

// strings: STRING+   (adjacent literals concatenate; any f-string makes the whole an FString)
ExprPtr Parser::parseStrings() {
  const uint32_t begin = peek().range.begin;
  std::vector<Token> tokens;
  bool anyFString = false;
  while (at(TokenKind::String)) {
    tokens.push_back(take());
    anyFString |= tokens.back().isFString;
    if (tokens.back().isBytes != tokens.front().isBytes) {
      fail(tokens.back().range, "cannot mix bytes and nonbytes literals");
    }
  }
  if (!anyFString) {
    auto node = makeNode<StringLiteral>({});
    node->isBytes = tokens.front().isBytes;
    for (const Token& t : tokens) node->value += t.text;
    node->range = span(begin);
    return node;
  }
  auto node = makeNode<FString>({});
  const auto appendPart = [&node](FStringPart part) {
    auto& parts = node->parts;
    if (part.kind == FStringPart::Kind::Literal && !parts.empty() && parts.back().kind == FStringPart::Kind::Literal) {
      parts.back().text += part.text;
      parts.back().range = SourceRange::merge(parts.back().range, part.range);
      return;
    }
    parts.push_back(std::move(part));
  };
  for (const Token& t : tokens) {
    if (!t.isFString) {
      if (t.text.empty()) continue;
      FStringPart part;
      part.range = t.range;
      part.text = t.text;
      appendPart(std::move(part));
      continue;
    }
    for (FStringPart& part : convertFStringSegments(t.segments)) appendPart(std::move(part));
  }
  node->range = span(begin);
  return node;
}

std::vector<FStringPart> Parser::convertFStringSegments(const std::vector<FStringSegment>& segments) {
  std::vector<FStringPart> parts;
  for (const FStringSegment& seg : segments) {
    FStringPart part;
    part.range = seg.range;
    if (!seg.isField) {
      part.text = seg.text;
      parts.push_back(std::move(part));
      continue;
    }
    part.kind = FStringPart::Kind::Field;
    part.expr = parseFieldExpression(seg.expression);
    part.conversion = seg.conversion;
    part.selfDocumenting = seg.selfDocumenting;
    part.hasFormatSpec = seg.hasFormatSpec;
    part.formatSpec = convertFStringSegments(seg.formatSpec);
    parts.push_back(std::move(part));
  }
  return parts;
}

// fstring_replacement_field: '{' (yield_expr | star_expressions) ['='] [conversion] [format_spec] '}'
// The Lexer found the field's extent; a nested Parser reads the expression in place.
ExprPtr Parser::parseFieldExpression(SourceRange range) {
  NestingGuard guard(*this, range);
  Parser inner(file_, diagnostics_, range.begin, range.end, nesting_, treeDepth_);
  inner.functionDepth_ = functionDepth_;
  ExprPtr e = inner.at(TokenKind::KwYield) ? inner.parseYieldExpression() : inner.parseStarExpressions();
  if (!inner.at(TokenKind::EndOfFile)) {
    const Token& extra = inner.peek();
    if (inner.startsExpression(extra)) {
      inner.fail(extra.range, "f-string: invalid syntax (perhaps you forgot a comma?)");
    }
    inner.fail(extra.range, "f-string: expecting '}' after the expression, found " + describeToken(extra));
  }
  return e;
}

// tuple: '(' [star_named_expression ',' [star_named_expressions]] ')'
// group: '(' (yield_expr | named_expression) ')'
// genexp: '(' named_expression for_if_clauses ')'
ExprPtr Parser::parseGroupOrTuple() {
  const Token open = take();
  if (accept(TokenKind::RParen)) {
    auto empty = makeNode<Tuple>(span(open.range.begin));
    empty->parenthesized = true;
    return empty;
  }
  if (at(TokenKind::KwYield)) {
    ExprPtr y = parseYieldExpression();
    expectClosing(TokenKind::RParen, open);
    y->parenthesized = true;
    return y;
  }
  ExprPtr first = parseStarNamedExpression();
  if (at(TokenKind::KwFor)) {
    if (first->is<Starred>()) fail(first->range, "iterable unpacking cannot be used in comprehension");
    auto gen = makeNode<GeneratorExp>({});
    gen->element = std::move(first);
    gen->generators = parseForIfClauses();
    expectClosing(TokenKind::RParen, open);
    gen->range = span(open.range.begin);
    return gen;
  }
  if (at(TokenKind::Comma)) {
    auto tuple = makeNode<Tuple>({});
    tuple->elements.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
      if (at(TokenKind::RParen)) break;
      tuple->elements.push_back(parseStarNamedExpression());
    }
    expectClosing(TokenKind::RParen, open);
    tuple->range = span(open.range.begin);
    tuple->parenthesized = true;
    return tuple;
  }
  expectClosing(TokenKind::RParen, open);
  if (first->is<Starred>()) fail(first->range, "cannot use a starred expression here; add a ',' to make a tuple");
  first->parenthesized = true;
  return first;
}

// list: '[' [star_named_expressions] ']'
// listcomp: '[' named_expression for_if_clauses ']'
ExprPtr Parser::parseListDisplay() {
  const Token open = take();
  auto list = makeNode<List>({});
  if (accept(TokenKind::RBracket)) {
    list->range = span(open.range.begin);
    return list;
  }
  ExprPtr first = parseStarNamedExpression();
  if (at(TokenKind::KwFor)) {
    if (first->is<Starred>()) fail(first->range, "iterable unpacking cannot be used in comprehension");
    auto comp = makeNode<ListComp>({});
    comp->element = std::move(first);
    comp->generators = parseForIfClauses();
    expectClosing(TokenKind::RBracket, open);
    comp->range = span(open.range.begin);
    return comp;
  }
  list->elements.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::RBracket)) break;
    list->elements.push_back(parseStarNamedExpression());
  }
  expectClosing(TokenKind::RBracket, open);
  list->range = span(open.range.begin);
  return list;
}

// dict: '{' [double_starred_kvpairs] '}'
// set: '{' star_named_expressions '}'
// dictcomp: '{' kvpair for_if_clauses '}'
// setcomp: '{' named_expression for_if_clauses '}'
// double_starred_kvpair: '**' bitwise_or | kvpair
// kvpair: expression ':' expression
ExprPtr Parser::parseDictOrSet() {
  const Token open = take();
  if (accept(TokenKind::RBrace)) return makeNode<Dict>(span(open.range.begin));

  const auto parseItem = [this]() -> DictItem {
    DictItem item;
    const uint32_t begin = peek().range.begin;
    if (accept(TokenKind::DoubleStar)) {
      item.value = parseBitOr();
    } else {
      item.key = parseExpression();
      expect(TokenKind::Colon, "expected ':' after the dict key, found " + describeToken(peek()));
      item.value = parseExpression();
    }
    item.range = span(begin);
    return item;
  };

  const bool isDict = at(TokenKind::DoubleStar);
  ExprPtr first;
  DictItem firstItem;
  if (isDict) {
    firstItem = parseItem();
  } else {
    const uint32_t begin = peek().range.begin;
    first = parseStarNamedExpression();
    if (at(TokenKind::Colon) && !first->is<Starred>()) {
      take();
      firstItem.key = std::move(first);
      firstItem.value = parseExpression();
      firstItem.range = span(begin);
      if (at(TokenKind::KwFor)) {
        auto comp = makeNode<DictComp>({});
        comp->key = std::move(firstItem.key);
        comp->value = std::move(firstItem.value);
        comp->generators = parseForIfClauses();
        expectClosing(TokenKind::RBrace, open);
        comp->range = span(open.range.begin);
        return comp;
      }
    }
  }
  if (first) {  // a set
    if (at(TokenKind::KwFor)) {
      if (first->is<Starred>()) fail(first->range, "iterable unpacking cannot be used in comprehension");
      auto comp = makeNode<SetComp>({});
      comp->element = std::move(first);
      comp->generators = parseForIfClauses();
      expectClosing(TokenKind::RBrace, open);
      comp->range = span(open.range.begin);
      return comp;
    }
    auto set = makeNode<Set>({});
    set->elements.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
      if (at(TokenKind::RBrace)) break;
      set->elements.push_back(parseStarNamedExpression());
    }
    expectClosing(TokenKind::RBrace, open);
    set->range = span(open.range.begin);
    return set;
  }
  auto dict = makeNode<Dict>({});
  dict->items.push_back(std::move(firstItem));
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::RBrace)) break;
    dict->items.push_back(parseItem());
  }
  expectClosing(TokenKind::RBrace, open);
  dict->range = span(open.range.begin);
  return dict;
}

// for_if_clauses: for_if_clause+
// for_if_clause: 'for' star_targets 'in' ~ disjunction ('if' disjunction)*
std::vector<Comprehension> Parser::parseForIfClauses() {
  std::vector<Comprehension> clauses;
  while (at(TokenKind::KwFor)) {
    const Token keyword = take();
    Comprehension clause;
    clause.target = parseStarTargets();
    expect(TokenKind::KwIn, "expected 'in' after the comprehension's 'for' target, found " + describeToken(peek()));
    clause.iter = parseDisjunction();
    while (accept(TokenKind::KwIf)) clause.ifs.push_back(parseDisjunction());
    clause.range = span(keyword.range.begin);
    clauses.push_back(std::move(clause));
  }
  if (at(TokenKind::KwAsync)) fail(peek().range, "asynchronous comprehensions are not supported");
  return clauses;
}

// star_targets: star_target !',' | star_target (',' star_target)* [',']
ExprPtr Parser::parseStarTargets() {
  const uint32_t begin = peek().range.begin;
  ExprPtr first = parseStarTarget();
  if (!at(TokenKind::Comma)) {
    checkTarget(*first, ExprContext::Store, false);
    return first;
  }
  auto tuple = makeNode<Tuple>({});
  tuple->elements.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (!startsExpression(peek(), true)) break;
    tuple->elements.push_back(parseStarTarget());
  }
  tuple->range = span(begin);
  checkTarget(*tuple, ExprContext::Store, false);
  return tuple;
}

// star_target: '*' (!'*' star_target) | target_with_star_atom
// Parsed at the bitwise_or level (so that `in` ends it) and checked by checkTarget.
ExprPtr Parser::parseStarTarget() {
  if (!at(TokenKind::Star)) return parseBitOr();
  const Token star = take();
  NestingGuard guard(*this, star.range);
  auto node = makeNode<Starred>({});
  node->value = parseBitOr();
  node->range = span(star.range.begin);
  return node;
}

// arguments: args [','] &')'
// args:
//     | ','.(starred_expression | named_expression !'=')+ [',' kwargs]
//     | kwargs
// kwargs: ','.kwarg_or_starred+ ',' ','.kwarg_or_double_starred+ | ...
// kwarg_or_starred: NAME '=' expression | starred_expression
// kwarg_or_double_starred: NAME '=' expression | '**' expression
// Also the bare generator argument: primary genexp, as in `sum(x for x in y)`.
void Parser::parseArguments(const Token& open, ExprList& args, std::vector<Keyword>& keywords) {
  bool seenKeyword = false;
  bool seenDoubleStar = false;
  while (!at(TokenKind::RParen)) {
    const uint32_t begin = peek().range.begin;
    if (at(TokenKind::Star)) {
      take();
      auto node = makeNode<Starred>({});
      node->value = parseExpression();
      node->range = span(begin);
      if (seenDoubleStar) fail(node->range, "iterable argument unpacking follows keyword argument unpacking");
      args.push_back(std::move(node));
    } else if (at(TokenKind::DoubleStar)) {
      take();
      Keyword keyword;
      keyword.value = parseExpression();
      keyword.range = span(begin);
      keywords.push_back(std::move(keyword));
      seenDoubleStar = true;
    } else if (at(TokenKind::Name) && peek(1).kind == TokenKind::Assign) {
      const Token name = take();
      take();  // '='
      for (const Keyword& k : keywords) {
        if (k.arg == name.text) fail(name.range, "keyword argument repeated: " + name.text);
      }
      Keyword keyword;
      keyword.arg = name.text;
      keyword.argRange = name.range;
      if (!startsExpression(peek())) failExpectedExpression();
      keyword.value = parseExpression();
      keyword.range = span(begin);
      keywords.push_back(std::move(keyword));
      seenKeyword = true;
    } else {
      ExprPtr e = parseNamedExpression();
      if (at(TokenKind::KwFor)) {
        auto gen = makeNode<GeneratorExp>({});
        gen->element = std::move(e);
        gen->generators = parseForIfClauses();
        gen->range = span(begin);
        if (!args.empty() || !keywords.empty() || !at(TokenKind::RParen)) {
          fail(gen->range, "Generator expression must be parenthesized");
        }
        args.push_back(std::move(gen));
        break;
      }
      if (at(TokenKind::Assign)) {
        fail(peek().range, "invalid syntax: a keyword argument needs a plain name before '='; did you mean '=='?");
      }
      if (seenDoubleStar) fail(e->range, "positional argument follows keyword argument unpacking");
      if (seenKeyword) fail(e->range, "positional argument follows keyword argument");
      args.push_back(std::move(e));
    }
    if (!accept(TokenKind::Comma)) break;
  }
  expectClosing(TokenKind::RParen, open);
}

}  // namespace tilescope::lang
