#include "core/host/PyError.h"

#include <map>

#include "core/host/Containers.h"
#include "core/host/Interpreter.h"

namespace tilescope::host {

void PyError::setDiagnostics(const lang::DiagnosticList& list) {
  detail = list.render();
  while (!detail.empty() && detail.back() == '\n') detail.pop_back();
  diagnostics = DiagnosticEntry::from(list);
}

void PyError::setDiagnostics(const lang::Diagnostic& diagnostic) {
  lang::DiagnosticList list;
  list.add(diagnostic);
  setDiagnostics(list);
}

void throwError(const std::string& type, const std::string& message) { throw PyError(type, message); }
void throwTypeError(const std::string& message) { throw PyError("TypeError", message); }
void throwValueError(const std::string& message) { throw PyError("ValueError", message); }

namespace {
// name -> base class, Python's hierarchy for the exceptions host code can meet.
const std::map<std::string, std::string>& hierarchy() {
  static const std::map<std::string, std::string> h = {
      {"BaseException", ""},
      {"Exception", "BaseException"},
      {"KeyboardInterrupt", "BaseException"},
      {"SystemExit", "BaseException"},
      {"ArithmeticError", "Exception"},
      {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"},
      {"AssertionError", "Exception"},
      {"AttributeError", "Exception"},
      {"ImportError", "Exception"},
      {"ModuleNotFoundError", "ImportError"},
      {"LookupError", "Exception"},
      {"IndexError", "LookupError"},
      {"KeyError", "LookupError"},
      {"NameError", "Exception"},
      {"UnboundLocalError", "NameError"},
      {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"},
      {"RuntimeError", "Exception"},
      {"StopIteration", "Exception"},
      {"SyntaxError", "Exception"},
      {"TypeError", "Exception"},
      {"ValueError", "Exception"},
      {"UnicodeError", "ValueError"},
      {"OSError", "Exception"},
      {"FileNotFoundError", "OSError"},
      // Triton's errors (triton.compiler.errors.CompilationError et al.) as host code sees them.
      {"CompilationError", "Exception"},
  };
  return h;
}
}  // namespace

const std::vector<std::string>& builtinExceptionNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& [k, v] : hierarchy()) n.push_back(k);
    return n;
  }();
  return names;
}

Value builtinExceptionType(const std::string& name) {
  auto it = hierarchy().find(name);
  if (it == hierarchy().end()) return Value();
  return makeObject<ExceptionType>(name, it->second);
}

bool exceptionMatches(const std::string& type, const std::string& handler) {
  std::string t = type;
  while (!t.empty()) {
    if (t == handler) return true;
    auto it = hierarchy().find(t);
    // Unknown types (from tensor errors with other names) derive from Exception.
    t = it == hierarchy().end() ? std::string(t == "Exception" ? "" : "Exception") : it->second;
  }
  return false;
}

Value ExceptionType::call(Interpreter& in, CallArgs& args) {
  if (!args.keywords.empty()) throwTypeError(name + "() takes no keyword arguments");
  std::string message;
  if (args.positional.size() == 1) {
    // KeyError shows its argument's repr, like Python.
    message = name == "KeyError" ? in.repr(args.positional[0]) : in.str(args.positional[0]);
  } else if (args.positional.size() > 1) {
    message = in.repr(makeTuple(args.positional));
  }
  return makeObject<ExceptionObject>(name, args.positional, message);
}

std::optional<Value> ExceptionType::getAttr(Interpreter&, const std::string& attr) {
  if (attr == "__name__") return makeStr(name);
  return std::nullopt;
}

std::string ExceptionObject::repr(Interpreter& in) const {
  std::string out = type + "(";
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + in.repr(args[i]);
  return out + ")";
}

std::optional<Value> ExceptionObject::getAttr(Interpreter&, const std::string& attr) {
  if (attr == "args") return makeTuple(args);
  return std::nullopt;
}

}  // namespace tilescope::host
