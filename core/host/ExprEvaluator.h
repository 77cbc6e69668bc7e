#pragma once
// Evaluation of expressions for the Interpreter: names, literals, f-strings, displays,
// comprehensions, calls with *args/**kwargs, operators, lambdas.
#include <memory>
#include <string>

#include "core/host/Signature.h"
#include "core/host/Value.h"
#include "core/syntax/Ast.h"

namespace tilescope::host {

class Interpreter;
class Scope;

class ExprEvaluator {
public:
  static Value eval(Interpreter& in, const lang::Expr& e, const std::shared_ptr<Scope>& scope);
  // Parameters of a def/lambda with defaults evaluated now, in `scope`.
  static Signature signatureOf(Interpreter& in, const std::string& name, const lang::Parameters& params,
                               const std::shared_ptr<Scope>& scope);
  // The text of one f-string (also used for the f-strings of kernel host calls).
  static std::string fstring(Interpreter& in, const std::vector<lang::FStringPart>& parts, const std::shared_ptr<Scope>& scope);
  static Value lookupName(Interpreter& in, const std::string& name, const std::shared_ptr<Scope>& scope);

private:
  static Value call(Interpreter& in, const lang::Call& c, const std::shared_ptr<Scope>& scope);
  static Value compare(Interpreter& in, const lang::Compare& c, const std::shared_ptr<Scope>& scope);
  static ValueList comprehension(Interpreter& in, const lang::Expr* element, const lang::Expr* value,
                                 const std::vector<lang::Comprehension>& generators, const std::shared_ptr<Scope>& scope,
                                 ValueList* values);
  static ValueList elements(Interpreter& in, const lang::ExprList& list, const std::shared_ptr<Scope>& scope);
};

}  // namespace tilescope::host
