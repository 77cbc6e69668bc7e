#include "core/host/HostParser.h"

#include "core/syntax/Parser.h"

namespace tilescope::host {

namespace {
const lang::Diagnostic* firstError(const lang::DiagnosticList& list) {
  for (const lang::Diagnostic& d : list.items())
    if (d.severity == lang::Severity::Error) return &d;
  return list.items().empty() ? nullptr : &list.items().front();
}
}  // namespace

ParsedModule parseHostModule(const lang::SourceFilePtr& file) {
  lang::ParseResult r = lang::parseModule(file);
  ParsedModule out;
  if (r.ok()) {
    out.module = std::shared_ptr<const lang::Module>(std::move(r.module));
    return out;
  }
  const lang::Diagnostic* d = firstError(r.diagnostics);
  out.message = d ? d->message : "invalid syntax";
  out.rendered = r.diagnostics.render();
  out.diagnostics = r.diagnostics;
  return out;
}

ParsedExpression parseHostExpression(const lang::SourceFilePtr& file) {
  auto r = std::make_shared<lang::ExpressionParseResult>(lang::parseExpression(file));
  ParsedExpression out;
  if (r->ok()) {
    out.expr = r->expression.get();
    out.owner = r;
    return out;
  }
  const lang::Diagnostic* d = firstError(r->diagnostics);
  out.message = d ? d->message : "invalid syntax";
  out.rendered = r->diagnostics.render();
  out.diagnostics = r->diagnostics;
  return out;
}

}  // namespace tilescope::host
