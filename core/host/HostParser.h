#pragma once
// The interpreter's door to core/syntax's parser: a whole module (file or cell) or one expression
// (eval()), with syntax errors as text ready for a SyntaxError.
#include <memory>
#include <string>

#include "core/syntax/Ast.h"
#include "core/base/Diagnostic.h"

namespace tilescope::host {

struct ParsedModule {
  std::shared_ptr<const lang::Module> module;  // null on a syntax error
  std::string message;                         // the first error's message
  std::string rendered;                        // all diagnostics, clang-style with carets
  lang::DiagnosticList diagnostics;            // the same as values (ranges into the parsed file)
};

struct ParsedExpression {
  const lang::Expr* expr = nullptr;  // null on a syntax error
  std::shared_ptr<void> owner;       // keeps expr (and its source) alive
  std::string message;
  std::string rendered;
  lang::DiagnosticList diagnostics;
};

ParsedModule parseHostModule(const lang::SourceFilePtr& file);
ParsedExpression parseHostExpression(const lang::SourceFilePtr& file);

}  // namespace tilescope::host
