#include "core/syntax/Token.h"

#include <array>
#include <utility>

namespace tilescope::lang {

namespace {

struct KindInfo {
  TokenKind kind;
  std::string_view name;
  std::string_view spelling;
};

// One table so that names, spellings and keywords cannot drift apart.
constexpr std::array kKindInfo = {
    KindInfo{TokenKind::EndOfFile, "EndOfFile", ""},
    KindInfo{TokenKind::Error, "Error", ""},
    KindInfo{TokenKind::Newline, "Newline", ""},
    KindInfo{TokenKind::Indent, "Indent", ""},
    KindInfo{TokenKind::Dedent, "Dedent", ""},
    KindInfo{TokenKind::Name, "Name", ""},
    KindInfo{TokenKind::Int, "Int", ""},
    KindInfo{TokenKind::Float, "Float", ""},
    KindInfo{TokenKind::String, "String", ""},
    KindInfo{TokenKind::KwFalse, "KwFalse", "False"},
    KindInfo{TokenKind::KwNone, "KwNone", "None"},
    KindInfo{TokenKind::KwTrue, "KwTrue", "True"},
    KindInfo{TokenKind::KwAnd, "KwAnd", "and"},
    KindInfo{TokenKind::KwAs, "KwAs", "as"},
    KindInfo{TokenKind::KwAssert, "KwAssert", "assert"},
    KindInfo{TokenKind::KwAsync, "KwAsync", "async"},
    KindInfo{TokenKind::KwAwait, "KwAwait", "await"},
    KindInfo{TokenKind::KwBreak, "KwBreak", "break"},
    KindInfo{TokenKind::KwClass, "KwClass", "class"},
    KindInfo{TokenKind::KwContinue, "KwContinue", "continue"},
    KindInfo{TokenKind::KwDef, "KwDef", "def"},
    KindInfo{TokenKind::KwDel, "KwDel", "del"},
    KindInfo{TokenKind::KwElif, "KwElif", "elif"},
    KindInfo{TokenKind::KwElse, "KwElse", "else"},
    KindInfo{TokenKind::KwExcept, "KwExcept", "except"},
    KindInfo{TokenKind::KwFinally, "KwFinally", "finally"},
    KindInfo{TokenKind::KwFor, "KwFor", "for"},
    KindInfo{TokenKind::KwFrom, "KwFrom", "from"},
    KindInfo{TokenKind::KwGlobal, "KwGlobal", "global"},
    KindInfo{TokenKind::KwIf, "KwIf", "if"},
    KindInfo{TokenKind::KwImport, "KwImport", "import"},
    KindInfo{TokenKind::KwIn, "KwIn", "in"},
    KindInfo{TokenKind::KwIs, "KwIs", "is"},
    KindInfo{TokenKind::KwLambda, "KwLambda", "lambda"},
    KindInfo{TokenKind::KwNonlocal, "KwNonlocal", "nonlocal"},
    KindInfo{TokenKind::KwNot, "KwNot", "not"},
    KindInfo{TokenKind::KwOr, "KwOr", "or"},
    KindInfo{TokenKind::KwPass, "KwPass", "pass"},
    KindInfo{TokenKind::KwRaise, "KwRaise", "raise"},
    KindInfo{TokenKind::KwReturn, "KwReturn", "return"},
    KindInfo{TokenKind::KwTry, "KwTry", "try"},
    KindInfo{TokenKind::KwWhile, "KwWhile", "while"},
    KindInfo{TokenKind::KwWith, "KwWith", "with"},
    KindInfo{TokenKind::KwYield, "KwYield", "yield"},
    KindInfo{TokenKind::LParen, "LParen", "("},
    KindInfo{TokenKind::RParen, "RParen", ")"},
    KindInfo{TokenKind::LBracket, "LBracket", "["},
    KindInfo{TokenKind::RBracket, "RBracket", "]"},
    KindInfo{TokenKind::LBrace, "LBrace", "{"},
    KindInfo{TokenKind::RBrace, "RBrace", "}"},
    KindInfo{TokenKind::Colon, "Colon", ":"},
    KindInfo{TokenKind::Comma, "Comma", ","},
    KindInfo{TokenKind::Semicolon, "Semicolon", ";"},
    KindInfo{TokenKind::Dot, "Dot", "."},
    KindInfo{TokenKind::Ellipsis, "Ellipsis", "..."},
    KindInfo{TokenKind::Arrow, "Arrow", "->"},
    KindInfo{TokenKind::At, "At", "@"},
    KindInfo{TokenKind::Assign, "Assign", "="},
    KindInfo{TokenKind::ColonAssign, "ColonAssign", ":="},
    KindInfo{TokenKind::Plus, "Plus", "+"},
    KindInfo{TokenKind::Minus, "Minus", "-"},
    KindInfo{TokenKind::Star, "Star", "*"},
    KindInfo{TokenKind::DoubleStar, "DoubleStar", "**"},
    KindInfo{TokenKind::Slash, "Slash", "/"},
    KindInfo{TokenKind::DoubleSlash, "DoubleSlash", "//"},
    KindInfo{TokenKind::Percent, "Percent", "%"},
    KindInfo{TokenKind::Tilde, "Tilde", "~"},
    KindInfo{TokenKind::Amp, "Amp", "&"},
    KindInfo{TokenKind::Pipe, "Pipe", "|"},
    KindInfo{TokenKind::Caret, "Caret", "^"},
    KindInfo{TokenKind::LeftShift, "LeftShift", "<<"},
    KindInfo{TokenKind::RightShift, "RightShift", ">>"},
    KindInfo{TokenKind::Equal, "Equal", "=="},
    KindInfo{TokenKind::NotEqual, "NotEqual", "!="},
    KindInfo{TokenKind::Less, "Less", "<"},
    KindInfo{TokenKind::LessEqual, "LessEqual", "<="},
    KindInfo{TokenKind::Greater, "Greater", ">"},
    KindInfo{TokenKind::GreaterEqual, "GreaterEqual", ">="},
    KindInfo{TokenKind::PlusAssign, "PlusAssign", "+="},
    KindInfo{TokenKind::MinusAssign, "MinusAssign", "-="},
    KindInfo{TokenKind::StarAssign, "StarAssign", "*="},
    KindInfo{TokenKind::SlashAssign, "SlashAssign", "/="},
    KindInfo{TokenKind::DoubleSlashAssign, "DoubleSlashAssign", "//="},
    KindInfo{TokenKind::PercentAssign, "PercentAssign", "%="},
    KindInfo{TokenKind::DoubleStarAssign, "DoubleStarAssign", "**="},
    KindInfo{TokenKind::AmpAssign, "AmpAssign", "&="},
    KindInfo{TokenKind::PipeAssign, "PipeAssign", "|="},
    KindInfo{TokenKind::CaretAssign, "CaretAssign", "^="},
    KindInfo{TokenKind::LeftShiftAssign, "LeftShiftAssign", "<<="},
    KindInfo{TokenKind::RightShiftAssign, "RightShiftAssign", ">>="},
    KindInfo{TokenKind::AtAssign, "AtAssign", "@="},
};

constexpr bool tableMatchesEnum() {
  for (size_t i = 0; i < kKindInfo.size(); ++i)
    if (static_cast<size_t>(kKindInfo[i].kind) != i) return false;
  return true;
}
static_assert(tableMatchesEnum(), "kKindInfo must list every TokenKind in enum order");

const KindInfo& info(TokenKind kind) {
  const auto index = static_cast<size_t>(kind);
  return index < kKindInfo.size() ? kKindInfo[index] : kKindInfo[static_cast<size_t>(TokenKind::Error)];
}

}  // namespace

std::string_view tokenKindName(TokenKind kind) { return info(kind).name; }
std::string_view tokenSpelling(TokenKind kind) { return info(kind).spelling; }

bool isKeyword(TokenKind kind) { return kind >= TokenKind::KwFalse && kind <= TokenKind::KwYield; }

bool isAugmentedAssign(TokenKind kind) {
  return kind >= TokenKind::PlusAssign && kind <= TokenKind::AtAssign;
}

std::optional<TokenKind> keywordKind(std::string_view word) {
  for (auto k = static_cast<size_t>(TokenKind::KwFalse); k <= static_cast<size_t>(TokenKind::KwYield); ++k)
    if (kKindInfo[k].spelling == word) return kKindInfo[k].kind;
  return std::nullopt;
}

std::string describeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::EndOfFile: return "end of file";
    case TokenKind::Error: return "invalid token";
    case TokenKind::Newline: return "end of line";
    case TokenKind::Indent: return "indent";
    case TokenKind::Dedent: return "end of the indented block";
    case TokenKind::Name: return "name '" + token.text + "'";
    case TokenKind::Int:
    case TokenKind::Float: return "number '" + token.text + "'";
    case TokenKind::String: return token.isFString ? "f-string" : token.isBytes ? "bytes literal" : "string literal";
    default: break;
  }
  return "'" + std::string(tokenSpelling(token.kind)) + "'";
}

}  // namespace tilescope::lang
