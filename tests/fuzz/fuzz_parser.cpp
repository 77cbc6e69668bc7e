// Fuzz target: lex and parse arbitrary bytes as a module and as a single expression, then print
// the tree and render every diagnostic. Nothing may crash, hang or overflow the stack.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/syntax/AstPrinter.h"
#include "core/syntax/Lexer.h"
#include "core/syntax/Parser.h"

using namespace tilescope::lang;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;  // keep single runs fast; size does not reach new code paths
  std::string text(reinterpret_cast<const char*>(data), size);

  // The lexer alone must always reach EndOfFile or Error.
  {
    SourceFile file("fuzz.py", text);
    DiagnosticList diagnostics;
    Lexer lexer(file, diagnostics);
    size_t tokens = 0;
    for (;;) {
      const Token t = lexer.next();
      if (t.kind == TokenKind::EndOfFile || t.kind == TokenKind::Error) break;
      if (++tokens > size + 1024) __builtin_trap();  // more tokens than bytes: the lexer is looping
    }
    (void)diagnostics.render();
  }

  const ParseResult module = parseModule(std::make_shared<const SourceFile>("fuzz.py", text));
  if (module.module) {
    (void)printAst(*module.module);
    if (module.diagnostics.hasErrors()) __builtin_trap();  // a tree is only returned without errors
  } else if (!module.diagnostics.hasErrors()) {
    __builtin_trap();  // failing without saying why
  }
  (void)module.diagnostics.render();

  const ExpressionParseResult expression = parseExpression(std::make_shared<const SourceFile>("fuzz.py", text, 3));
  if (expression.expression) (void)printAst(*expression.expression);
  (void)expression.diagnostics.render();
  return 0;
}
