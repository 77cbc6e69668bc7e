#include "core/host/Interpreter.h"

#include <algorithm>
#include <cmath>

#include "core/host/Builtins.h"
#include "core/host/Containers.h"
#include "core/host/ExprEvaluator.h"
#include "core/host/Function.h"
#include "core/host/FormatSpec.h"
#include "core/host/HostParser.h"
#include "core/host/Operators.h"
#include "core/tensor/PythonFormat.h"
#include "core/host/PythonModules.h"
#include "core/host/RawKernel.h"
#include "core/tensor/TensorError.h"
#include "core/host/TorchModule.h"
#include "core/host/TritonModule.h"

namespace tilescope::host {

namespace {
// Python's default is 1000; each Python call costs several C++ frames here and the worker may run us
// on a thread with a smaller stack.
constexpr int kMaxCallDepth = 300;

std::string tensorErrorType(const TensorError& e) { return std::string(e.pythonType()); }
}  // namespace

Interpreter::Interpreter() : globals_(std::make_shared<Scope>()) {
  globals_->assign("__name__", makeStr("__main__"));
  installBuiltins(*this);
  installPythonModules(*this);
  installTorchModule(*this);
  installTritonModule(*this);
  installCupyModule(*this);
}

Interpreter::~Interpreter() {
  // Closures and the scopes that hold them keep each other alive; emptying the scopes frees both.
  for (const std::weak_ptr<Scope>& w : capturedScopes_)
    if (auto scope = w.lock()) scope->clearVariables();
  if (globals_) globals_->clearVariables();
}

void Interpreter::noteCapturedScope(const std::shared_ptr<Scope>& scope) {
  if (!capturedScopes_.empty() && !capturedScopes_.back().owner_before(scope) && !scope.owner_before(capturedScopes_.back()))
    return;  // the same scope as last time (a def in a loop, lambdas in one function)
  capturedScopes_.push_back(scope);
  if (capturedScopes_.size() >= pruneCapturedAt_) {
    std::erase_if(capturedScopes_, [](const std::weak_ptr<Scope>& w) { return w.expired(); });
    pruneCapturedAt_ = std::max<size_t>(64, 2 * capturedScopes_.size());
  }
}

// ------------------------------------------------------------------------------ running modules

std::optional<Value> Interpreter::runSource(lang::SourceFilePtr file, bool displayLast) {
  return runModule(std::move(file), globals_, displayLast);
}

std::optional<Value> Interpreter::runModule(lang::SourceFilePtr file, const std::shared_ptr<Scope>& scope, bool displayLast) {
  ParsedModule parsed = parseHostModule(file);
  if (!parsed.module) {
    PyError err("SyntaxError", parsed.message);
    err.setDiagnostics(parsed.diagnostics);
    err.framesCaptured = true;
    throw err;
  }
  std::shared_ptr<const lang::Module> module = parsed.module;
  keepAlive_.push_back(module);
  if (scope == globals_) globalModules_.push_back(module);
  auto previous = module_;
  module_ = module;
  struct Restore {
    Interpreter& in;
    std::shared_ptr<const lang::Module> prev;
    size_t depth;
    ~Restore() {
      in.module_ = prev;
      in.frames_.resize(depth);
    }
  } restore{*this, previous, frames_.size()};
  frames_.push_back(Frame{"<module>", scope, {}});

  const lang::StmtList& body = module->body;
  size_t count = body.size();
  const lang::ExprStmt* last = nullptr;
  if (displayLast && count > 0) {
    last = body.back()->as<lang::ExprStmt>();
    if (last) {
      // Jupyter: a trailing ';' suppresses the output.
      const std::string& text = file->text();
      size_t pos = last->range.end;
      while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
      if (pos < text.size() && text[pos] == ';') last = nullptr;
      else --count;
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const Flow f = exec(*body[i], scope);
    if (f != Flow::Normal) break;  // return/break outside a function are syntax errors upstream
  }
  if (!last) return std::nullopt;
  setLocation(last->range);
  try {
    return eval(*last->value, scope);
  } catch (PyError& e) {
    captureTraceback(e);
    throw;
  } catch (const TensorError& e) {
    PyError err(tensorErrorType(e), e.what());
    captureTraceback(err);
    throw err;
  }
}

Value Interpreter::evalSource(const std::string& text, const std::shared_ptr<Scope>& scope) {
  auto file = std::make_shared<lang::SourceFile>("<string>", text);
  ParsedExpression parsed = parseHostExpression(file);
  if (!parsed.expr) {
    PyError err("SyntaxError", parsed.message);
    err.setDiagnostics(parsed.diagnostics);
    throw err;
  }
  keepAliveExprs_.push_back(parsed.owner);
  return eval(*parsed.expr, scope);
}

// ------------------------------------------------------------------------------ statements

Interpreter::Flow Interpreter::execBlock(const lang::StmtList& body, const std::shared_ptr<Scope>& scope) {
  for (const lang::StmtPtr& s : body) {
    const Flow f = exec(*s, scope);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Interpreter::Flow Interpreter::exec(const lang::Stmt& stmt, const std::shared_ptr<Scope>& scope) {
  using K = lang::Node::Kind;
  setLocation(stmt.range);
  try {
    switch (stmt.kind()) {
      case K::ExprStmt:
        eval(*lang::cast<lang::ExprStmt>(&stmt)->value, scope);
        return Flow::Normal;
      case K::Assign: {
        const auto& s = *lang::cast<lang::Assign>(&stmt);
        const Value v = eval(*s.value, scope);
        for (const lang::ExprPtr& t : s.targets) assign(*t, v, scope);
        return Flow::Normal;
      }
      case K::AugAssign: {
        const auto& s = *lang::cast<lang::AugAssign>(&stmt);
        const BinOp op = toBinOp(s.op);
        auto combine = [&](const Value& current) {
          const Value rhs = eval(*s.value, scope);
          if (current.isObject()) {
            if (auto r = current.object()->inplace(*this, op, rhs)) return *r;
          }
          return binary(op, current, rhs);
        };
        if (const auto* sub = s.target->as<lang::Subscript>()) {
          const Value container = eval(*sub->value, scope);
          const Value index = eval(*sub->index, scope);
          setItem(container, index, combine(getItem(container, index)));
        } else if (const auto* attr = s.target->as<lang::Attribute>()) {
          const Value object = eval(*attr->value, scope);
          setAttr(object, attr->attr, combine(getAttr(object, attr->attr)));
        } else {
          assign(*s.target, combine(eval(*s.target, scope)), scope);
        }
        return Flow::Normal;
      }
      case K::AnnAssign: {
        const auto& s = *lang::cast<lang::AnnAssign>(&stmt);
        if (s.value) assign(*s.target, eval(*s.value, scope), scope);
        return Flow::Normal;
      }
      case K::If: {
        const auto& s = *lang::cast<lang::If>(&stmt);
        return execBlock(truthy(eval(*s.test, scope)) ? s.body : s.orelse, scope);
      }
      case K::While: {
        const auto& s = *lang::cast<lang::While>(&stmt);
        while (true) {
          checkCancelled();
          setLocation(s.test->range);
          if (!truthy(eval(*s.test, scope))) return execBlock(s.orelse, scope);
          const Flow f = execBlock(s.body, scope);
          if (f == Flow::Break) return Flow::Normal;
          if (f == Flow::Return) return f;
        }
      }
      case K::For: return execFor(*lang::cast<lang::For>(&stmt), scope);
      case K::Break: return Flow::Break;
      case K::Continue: return Flow::Continue;
      case K::Return: {
        const auto& s = *lang::cast<lang::Return>(&stmt);
        returnValue = s.value ? eval(*s.value, scope) : Value();
        return Flow::Return;
      }
      case K::Pass: return Flow::Normal;
      case K::Assert: {
        const auto& s = *lang::cast<lang::Assert>(&stmt);
        if (!truthy(eval(*s.test, scope))) throw PyError("AssertionError", s.msg ? str(eval(*s.msg, scope)) : "");
        return Flow::Normal;
      }
      case K::Raise: {
        const auto& s = *lang::cast<lang::Raise>(&stmt);
        if (!s.exc) {
          if (handling_.empty()) throw PyError("RuntimeError", "No active exception to reraise");
          PyError again = handling_.back();
          throw again;
        }
        Value exc = eval(*s.exc, scope);
        if (exc.is<ExceptionType>()) exc = call(exc, ValueList{});
        auto* obj = exc.as<ExceptionObject>();
        if (!obj) throwTypeError("exceptions must derive from BaseException");
        PyError err(obj->type, obj->message);
        err.object = exc;
        throw err;
      }
      case K::Import:
      case K::ImportFrom: execImport(stmt, scope); return Flow::Normal;
      case K::FunctionDef: execFunctionDef(*lang::cast<lang::FunctionDef>(&stmt), scope); return Flow::Normal;
      case K::ClassDef:
        throw PyError("SyntaxError", "class definitions are not supported by tilescope's host interpreter "
                                     "(see docs/HOST_LANGUAGE.md); use functions and dicts instead");
      case K::With: {
        const auto& s = *lang::cast<lang::With>(&stmt);
        for (const lang::WithItem& item : s.items) {
          const Value ctx = eval(*item.contextExpr, scope);
          auto enter = tryGetAttr(ctx, "__enter__");
          if (!enter) throwTypeError("'" + ctx.typeName() + "' object does not support the context manager protocol");
          const Value v = call(*enter, ValueList{});
          if (item.optionalVars) assign(*item.optionalVars, v, scope);
        }
        return execBlock(s.body, scope);
      }
      case K::Try: return execTry(*lang::cast<lang::Try>(&stmt), scope);
      case K::Global:
        for (const std::string& n : lang::cast<lang::Global>(&stmt)->names) scope->declareGlobal(n);
        return Flow::Normal;
      case K::Nonlocal:
        for (const std::string& n : lang::cast<lang::Nonlocal>(&stmt)->names) scope->declareNonlocal(n);
        return Flow::Normal;
      case K::Del:
        for (const lang::ExprPtr& t : lang::cast<lang::Del>(&stmt)->targets) execDelete(*t, scope);
        return Flow::Normal;
      default: break;
    }
    throw PyError("SyntaxError", "unsupported statement '" + std::string(stmt.kindName()) + "'");
  } catch (PyError& e) {
    captureTraceback(e);
    throw;
  } catch (const TensorError& e) {
    PyError err(tensorErrorType(e), e.what());
    captureTraceback(err);
    throw err;
  }
}

Interpreter::Flow Interpreter::execFor(const lang::For& s, const std::shared_ptr<Scope>& scope) {
  std::unique_ptr<Iterator> it = iterate(eval(*s.iter, scope));
  Value item;
  while (true) {
    checkCancelled();
    if (!it->next(item)) break;
    assign(*s.target, item, scope);
    const Flow f = execBlock(s.body, scope);
    if (f == Flow::Break) return Flow::Normal;
    if (f == Flow::Return) return f;
    setLocation(s.range);
  }
  return execBlock(s.orelse, scope);
}

Interpreter::Flow Interpreter::execTry(const lang::Try& s, const std::shared_ptr<Scope>& scope) {
  Flow flow = Flow::Normal;
  auto runFinally = [&] {
    if (s.finalBody.empty()) return Flow::Normal;
    return execBlock(s.finalBody, scope);
  };
  try {
    flow = execBlock(s.body, scope);
  } catch (PyError& e) {
    if (e.cancellation) throw;
    const lang::ExceptHandler* match = nullptr;
    for (const lang::ExceptHandler& h : s.handlers) {
      if (!h.type) {
        match = &h;
        break;
      }
      const Value t = eval(*h.type, scope);
      ValueList types = t.is<TupleObject>() ? t.as<TupleObject>()->items : ValueList{t};
      for (const Value& ty : types) {
        auto* et = ty.as<ExceptionType>();
        if (!et) throwTypeError("catching classes that do not inherit from BaseException is not allowed");
        if (exceptionMatches(e.type(), et->name)) match = &h;
      }
      if (match) break;
    }
    if (!match) {
      if (runFinally() != Flow::Normal) return Flow::Return;
      throw;
    }
    if (e.object.isNone()) {
      // KeyError's message is the repr of its key: give `e.args` the key back for simple keys.
      Value arg = makeStr(e.message());
      const std::string& m = e.message();
      if (e.type() == "KeyError" && m.size() >= 2 && m.front() == '\'' && m.back() == '\'' && m.find('\\') == std::string::npos)
        arg = makeStr(m.substr(1, m.size() - 2));
      e.object = makeObject<ExceptionObject>(e.type(), ValueList{arg}, e.message());
    }
    if (!match->name.empty()) scope->assign(match->name, e.object);
    handling_.push_back(e);
    try {
      flow = execBlock(match->body, scope);
    } catch (...) {
      handling_.pop_back();
      runFinally();
      throw;
    }
    handling_.pop_back();
    const Flow f = runFinally();
    return f != Flow::Normal ? f : flow;
  }
  if (flow == Flow::Normal && !s.orelse.empty()) flow = execBlock(s.orelse, scope);
  const Flow f = runFinally();
  return f != Flow::Normal ? f : flow;
}

void Interpreter::execImport(const lang::Stmt& stmt, const std::shared_ptr<Scope>& scope) {
  if (const auto* imp = stmt.as<lang::Import>()) {
    for (const lang::ImportAlias& a : imp->names) {
      const Value module = importModule(a.name);
      if (!a.asName.empty()) {
        scope->assign(a.asName, module);
      } else {
        // `import a.b` binds `a` (whose attribute b is the submodule).
        scope->assign(a.name.substr(0, a.name.find('.')), importModule(a.name.substr(0, a.name.find('.'))));
      }
    }
    return;
  }
  const auto& from = *stmt.as<lang::ImportFrom>();
  if (from.level > 0) throw PyError("ImportError", "relative imports are not supported by tilescope's host interpreter");
  const Value module = importModule(from.module);
  for (const lang::ImportAlias& a : from.names) {
    if (a.name == "*") {
      if (auto* ns = module.as<NamespaceObject>())
        for (const auto& [k, v] : ns->attrs)
          if (!k.empty() && k[0] != '_') scope->assign(k, v);
      continue;
    }
    std::optional<Value> v = tryGetAttr(module, a.name);
    if (!v && moduleFactories_.count(from.module + "." + a.name)) v = importModule(from.module + "." + a.name);
    if (!v) {
      throw PyError("ImportError", "cannot import name '" + a.name + "' from '" + from.module +
                                       "' (tilescope's host interpreter does not provide it; see docs/HOST_LANGUAGE.md)");
    }
    scope->assign(a.asName.empty() ? a.name : a.asName, *v);
  }
}

void Interpreter::execFunctionDef(const lang::FunctionDef& def, const std::shared_ptr<Scope>& scope) {
  auto fn = std::make_shared<FunctionObject>();
  fn->name = def.name;
  fn->def = &def;
  fn->module = module_;
  fn->closure = scope;
  noteCapturedScope(scope);
  fn->signature = ExprEvaluator::signatureOf(*this, def.name, def.params, scope);
  Value result(fn);
  // Decorators apply bottom-up: @triton.autotune(...) wraps the result of @triton.jit.
  ValueList decorators;
  for (const lang::ExprPtr& d : def.decorators) decorators.push_back(eval(*d, scope));
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    setLocation(def.decorators[static_cast<size_t>(decorators.rend() - it - 1)]->range);
    result = call(*it, ValueList{result});
  }
  scope->assign(def.name, result);
}

void Interpreter::execDelete(const lang::Expr& target, const std::shared_ptr<Scope>& scope) {
  if (const auto* name = target.as<lang::Name>()) {
    if (!scope->erase(name->id)) throw PyError("NameError", "name '" + name->id + "' is not defined");
    return;
  }
  if (const auto* sub = target.as<lang::Subscript>()) {
    const Value container = eval(*sub->value, scope);
    const Value index = eval(*sub->index, scope);
    if (auto* d = container.as<DictObject>()) {
      if (!d->erase(*this, index)) throw PyError("KeyError", repr(index));
      return;
    }
    if (auto* l = container.as<ListObject>()) {
      const int64_t i = normalizeIndex(*this, index, static_cast<int64_t>(l->items.size()), "list assignment");
      l->items.erase(l->items.begin() + i);
      return;
    }
    throwTypeError("'" + container.typeName() + "' object does not support item deletion");
  }
  if (const auto* tuple = target.as<lang::Tuple>()) {
    for (const lang::ExprPtr& e : tuple->elements) execDelete(*e, scope);
    return;
  }
  throw PyError("SyntaxError", "cannot delete this expression");
}

void Interpreter::assign(const lang::Expr& target, const Value& value, const std::shared_ptr<Scope>& scope) {
  if (const auto* name = target.as<lang::Name>()) {
    scope->assign(name->id, value);
    return;
  }
  if (const auto* sub = target.as<lang::Subscript>()) {
    const Value container = eval(*sub->value, scope);
    setItem(container, eval(*sub->index, scope), value);
    return;
  }
  if (const auto* attr = target.as<lang::Attribute>()) {
    setAttr(eval(*attr->value, scope), attr->attr, value);
    return;
  }
  const lang::ExprList* elements = nullptr;
  if (const auto* t = target.as<lang::Tuple>()) elements = &t->elements;
  if (const auto* l = target.as<lang::List>()) elements = &l->elements;
  if (!elements) throw PyError("SyntaxError", "cannot assign to " + std::string(target.kindName()));
  ValueList items = toList(value);
  size_t starIndex = elements->size();
  for (size_t i = 0; i < elements->size(); ++i)
    if ((*elements)[i]->is<lang::Starred>()) starIndex = i;
  if (starIndex == elements->size()) {
    if (items.size() != elements->size()) {
      if (items.size() > elements->size())
        throwValueError("too many values to unpack (expected " + std::to_string(elements->size()) + ")");
      throwValueError("not enough values to unpack (expected " + std::to_string(elements->size()) + ", got " +
                      std::to_string(items.size()) + ")");
    }
    for (size_t i = 0; i < items.size(); ++i) assign(*(*elements)[i], items[i], scope);
    return;
  }
  const size_t after = elements->size() - starIndex - 1;
  if (items.size() < starIndex + after) {
    throwValueError("not enough values to unpack (expected at least " + std::to_string(elements->size() - 1) + ", got " +
                    std::to_string(items.size()) + ")");
  }
  for (size_t i = 0; i < starIndex; ++i) assign(*(*elements)[i], items[i], scope);
  ValueList middle(items.begin() + static_cast<int64_t>(starIndex), items.end() - static_cast<int64_t>(after));
  assign(*(*elements)[starIndex]->as<lang::Starred>()->value, makeList(std::move(middle)), scope);
  for (size_t i = 0; i < after; ++i) assign(*(*elements)[starIndex + 1 + i], items[items.size() - after + i], scope);
}

Value Interpreter::eval(const lang::Expr& expr, const std::shared_ptr<Scope>& scope) {
  return ExprEvaluator::eval(*this, expr, scope);
}

// ------------------------------------------------------------------------------ calls and frames

Value Interpreter::call(const Value& callee, ValueList positional) {
  CallArgs args(std::move(positional));
  return call(callee, args);
}

Value Interpreter::call(const Value& callee, CallArgs& args) {
  checkCancelled();
  if (!callee.isObject() || !callee.object()->callable()) throwTypeError("'" + callee.typeName() + "' object is not callable");
  return callee.object()->call(*this, args);
}

Value Interpreter::callFunction(FunctionObject& fn, const CallArgs& args) {
  if (static_cast<int>(frames_.size()) >= kMaxCallDepth) throw PyError("RecursionError", "maximum recursion depth exceeded");
  ValueList bound = fn.signature.bind(*this, args);
  auto scope = std::make_shared<Scope>(fn.closure);
  for (size_t i = 0; i < bound.size(); ++i) scope->assign(fn.signature.params()[i].name, bound[i]);
  const lang::SourceRange where = fn.def ? fn.def->range : fn.lambda->range;
  // Runs after the frame is popped (declared before the guard). A nested def or lambda kept in a
  // local variable makes a cycle: scope -> variable -> function -> closure == scope. CPython's cycle
  // collector frees it when nothing else holds either; shared_ptr cannot, and the call's tensors
  // (do_bench's outputs, say) would live forever. When every such function is held by its variable
  // alone and nothing else holds the scope, drop the variables.
  struct LocalCycleBreaker {
    std::shared_ptr<Scope>& scope;
    ~LocalCycleBreaker() {
      long closures = 0;
      for (const auto& [name, v] : scope->variables()) {
        const auto* f = dynamic_cast<const FunctionObject*>(v.object());
        if (!f || f->closure != scope) continue;
        if (v.objectUseCount() != 1) return;  // escaped (returned, stored elsewhere, or under two names)
        ++closures;
      }
      if (closures > 0 && scope.use_count() == 1 + closures) scope->clearVariables();
    }
  } cycleBreaker{scope};
  FrameGuard guard(*this, Frame{fn.name, scope, where});
  try {
    if (fn.lambda) return eval(*fn.lambda->body, scope);
    returnValue = Value();
    if (execBlock(fn.def->body, scope) != Flow::Return) return Value();
    Value r = std::move(returnValue);
    returnValue = Value();
    return r;
  } catch (PyError& e) {
    captureTraceback(e);
    throw;
  } catch (const TensorError& e) {
    PyError err(tensorErrorType(e), e.what());
    captureTraceback(err);
    throw err;
  }
}

void Interpreter::captureTraceback(PyError& err) const {
  if (err.framesCaptured) return;
  err.framesCaptured = true;
  for (const Frame& f : frames_) {
    if (!f.where.valid()) continue;
    err.frames.push_back(TracebackEntry::at(f.where, f.function));
  }
}

void Interpreter::raiseCancelled() {
  PyError err("KeyboardInterrupt", "");
  err.cancellation = true;
  captureTraceback(err);
  throw err;
}

bool Interpreter::noteOnce(const std::string& key) {
  if (notes_[key]) return false;
  notes_[key] = true;
  return true;
}

// ------------------------------------------------------------------------------ modules and output

Value* Interpreter::lookupBuiltin(const std::string& name) {
  auto it = builtins_.find(name);
  return it == builtins_.end() ? nullptr : &it->second;
}

void Interpreter::registerModule(const std::string& dottedName, std::function<Value(Interpreter&)> factory) {
  moduleFactories_[dottedName] = std::move(factory);
}

std::vector<std::string> Interpreter::supportedModules() const {
  std::vector<std::string> names;
  for (const auto& [k, v] : moduleFactories_) names.push_back(k);
  return names;
}

Value Interpreter::importModule(const std::string& dottedName) {
  if (auto it = modules_.find(dottedName); it != modules_.end()) return it->second;
  auto factory = moduleFactories_.find(dottedName);
  if (factory == moduleFactories_.end()) {
    std::string list;
    for (const std::string& n : supportedModules()) list += (list.empty() ? "" : ", ") + n;
    throw PyError("ModuleNotFoundError", "No module named '" + dottedName +
                                             "': tilescope runs host code without Python and provides only these modules: " + list);
  }
  // Parents first: importing the parent also imports (and attaches) its submodules, so
  // `import torch` makes torch.cuda and torch.testing reachable like in Python's packages.
  const size_t dot = dottedName.rfind('.');
  if (dot != std::string::npos && moduleFactories_.count(dottedName.substr(0, dot))) {
    importModule(dottedName.substr(0, dot));
    if (auto it = modules_.find(dottedName); it != modules_.end()) return it->second;
  }
  Value module = factory->second(*this);
  modules_[dottedName] = module;
  if (dot != std::string::npos) {
    if (auto parent = modules_.find(dottedName.substr(0, dot)); parent != modules_.end())
      if (auto* ns = parent->second.as<NamespaceObject>()) ns->attrs[dottedName.substr(dot + 1)] = module;
  }
  const std::string prefix = dottedName + ".";
  std::vector<std::string> children;
  for (const auto& [name, f] : moduleFactories_)
    if (name.rfind(prefix, 0) == 0 && name.find('.', prefix.size()) == std::string::npos) children.push_back(name);
  for (const std::string& child : children)
    if (!modules_.count(child)) importModule(child);
  return module;
}

void Interpreter::writeStdout(const std::string& text) {
  if (callbacks_ && callbacks_->stream) callbacks_->stream("stdout", text);
}

void Interpreter::writeStderr(const std::string& text) {
  if (callbacks_ && callbacks_->stream) callbacks_->stream("stderr", text);
}

void Interpreter::display(const RichOutput& output) {
  if (callbacks_ && callbacks_->displayData) callbacks_->displayData(output);
}

// ------------------------------------------------------------------------------ the data model

Value Interpreter::getAttr(const Value& object, const std::string& name) {
  if (auto v = tryGetAttr(object, name)) return *v;
  if (auto* ns = object.as<NamespaceObject>(); ns && ns->kind == "module") {
    throw PyError("AttributeError", "module '" + ns->name + "' has no attribute '" + name +
                                        "' (not provided by tilescope's host interpreter; see docs/HOST_LANGUAGE.md)");
  }
  throw PyError("AttributeError", "'" + object.typeName() + "' object has no attribute '" + name + "'");
}

std::optional<Value> Interpreter::tryGetAttr(const Value& object, const std::string& name) {
  if (object.isObject()) return object.object()->getAttr(*this, name);
  if (object.isFloat() && name == "is_integer") {
    const double d = object.asFloat();
    return makeBuiltin("float.is_integer", [d](Interpreter&, CallArgs&) { return Value::boolean(std::isfinite(d) && d == std::floor(d)); });
  }
  if (object.isNumber() && (name == "real")) return object;
  return std::nullopt;
}

void Interpreter::setAttr(const Value& object, const std::string& name, const Value& value) {
  if (object.isObject() && object.object()->setAttr(*this, name, value)) return;
  throw PyError("AttributeError", "'" + object.typeName() + "' object attribute '" + name + "' is read-only");
}

Value Interpreter::getItem(const Value& object, const Value& index) {
  if (object.isObject())
    if (auto v = object.object()->getItem(*this, index)) return *v;
  throwTypeError("'" + object.typeName() + "' object is not subscriptable");
}

void Interpreter::setItem(const Value& object, const Value& index, const Value& value) {
  if (object.isObject() && object.object()->setItem(*this, index, value)) return;
  throwTypeError("'" + object.typeName() + "' object does not support item assignment");
}

std::string Interpreter::repr(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::None: return "None";
    case Value::Tag::Bool: return v.asBool() ? "True" : "False";
    case Value::Tag::Int: return std::to_string(v.asInt());
    case Value::Tag::Float: return pythonFloatRepr(v.asFloat());
    case Value::Tag::Obj: return v.object()->repr(*this);
  }
  return "?";
}

std::string Interpreter::str(const Value& v) {
  if (v.isObject()) return v.object()->str(*this);
  return repr(v);
}

std::string Interpreter::format(const Value& v, const std::string& spec) {
  switch (v.tag()) {
    case Value::Tag::None:
      if (spec.empty()) return "None";
      throwTypeError("unsupported format string passed to NoneType.__format__");
    case Value::Tag::Bool:
      if (spec.empty()) return repr(v);
      return formatInt(v.asInt(), spec, "bool");
    case Value::Tag::Int: return formatInt(v.asInt(), spec);
    case Value::Tag::Float: return formatFloat(v.asFloat(), spec);
    case Value::Tag::Obj:
      if (auto s = v.object()->format(*this, spec)) return *s;
      if (spec.empty()) return str(v);
      throwTypeError("unsupported format string passed to " + v.typeName() + ".__format__");
  }
  return {};
}

bool Interpreter::truthy(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::None: return false;
    case Value::Tag::Bool:
    case Value::Tag::Int: return v.asInt() != 0;
    case Value::Tag::Float: return v.asFloat() != 0.0;
    case Value::Tag::Obj: return v.object()->truthy(*this);
  }
  return false;
}

bool Interpreter::equals(const Value& a, const Value& b) {
  if (a.identical(b)) return !(a.isFloat() && std::isnan(a.asFloat()));
  return truthy(compare(CmpOp::Eq, a, b));
}

Value Interpreter::binary(BinOp op, const Value& a, const Value& b) {
  if (auto r = Operators::numeric(op, a, b)) return *r;
  if (a.isObject())
    if (auto r = a.object()->binary(*this, op, b, false)) return *r;
  if (b.isObject())
    if (auto r = b.object()->binary(*this, op, a, true)) return *r;
  throwTypeError("unsupported operand type(s) for " + std::string(binOpSymbol(op)) + ": '" + a.typeName() + "' and '" +
                 b.typeName() + "'");
}

Value Interpreter::compare(CmpOp op, const Value& a, const Value& b) {
  if (auto r = Operators::compareNumbers(op, a, b)) return Value::boolean(*r);
  if (a.isObject())
    if (auto r = a.object()->compare(*this, op, b)) return *r;
  if (b.isObject()) {
    static const CmpOp swapped[] = {CmpOp::Eq, CmpOp::Ne, CmpOp::Gt, CmpOp::Ge, CmpOp::Lt, CmpOp::Le};
    if (auto r = b.object()->compare(*this, swapped[static_cast<int>(op)], a)) return *r;
  }
  if (op == CmpOp::Eq) return Value::boolean(a.identical(b));
  if (op == CmpOp::Ne) return Value::boolean(!a.identical(b));
  throwTypeError("'" + std::string(cmpOpSymbol(op)) + "' not supported between instances of '" + a.typeName() + "' and '" +
                 b.typeName() + "'");
}

Value Interpreter::unary(lang::UnaryOp op, const Value& v) {
  if (op == lang::UnaryOp::Not) return Value::boolean(!truthy(v));
  if (auto r = Operators::unaryNumber(op, v)) return *r;
  if (v.isObject())
    if (auto r = v.object()->unary(*this, op)) return *r;
  throwTypeError("bad operand type for unary " + std::string(lang::spelling(op)) + ": '" + v.typeName() + "'");
}

bool Interpreter::contains(const Value& container, const Value& item) {
  if (container.isObject())
    if (auto r = container.object()->contains(*this, item)) return *r;
  throwTypeError("argument of type '" + container.typeName() + "' is not iterable");
}

int64_t Interpreter::length(const Value& v) {
  if (v.isObject())
    if (auto n = v.object()->length(*this)) return *n;
  throwTypeError("object of type '" + v.typeName() + "' has no len()");
}

std::unique_ptr<Iterator> Interpreter::iterate(const Value& v) {
  if (v.isObject())
    if (auto it = v.object()->iterate(*this)) return it;
  throwTypeError("'" + v.typeName() + "' object is not iterable");
}

ValueList Interpreter::toList(const Value& v) {
  if (auto* l = v.as<ListObject>()) return l->items;
  if (auto* t = v.as<TupleObject>()) return t->items;
  ValueList out;
  std::unique_ptr<Iterator> it = iterate(v);
  Value item;
  while (it->next(item)) {
    checkCancelled();
    out.push_back(item);
  }
  return out;
}

std::string Interpreter::hashKey(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::None: return "N";
    case Value::Tag::Bool:
    case Value::Tag::Int: return "i" + std::to_string(v.asInt());
    case Value::Tag::Float: {
      const double d = v.asFloat();
      if (d == std::floor(d) && std::fabs(d) < 9.2e18) return "i" + std::to_string(static_cast<int64_t>(d));
      return "f" + pythonFloatRepr(d);
    }
    case Value::Tag::Obj: break;
  }
  if (auto* s = v.as<StrObject>()) return "s" + s->value;
  if (auto* t = v.as<TupleObject>()) {
    std::string key = "t(";
    for (const Value& item : t->items) key += hashKey(item) + ",";
    return key + ")";
  }
  if (v.is<ListObject>() || v.is<DictObject>()) throwTypeError("unhashable type: '" + v.typeName() + "'");
  if (auto k = v.object()->hashKey(*this)) return *k;
  return "o" + std::to_string(reinterpret_cast<uintptr_t>(v.object()));
}

int64_t Interpreter::toIndex(const Value& v, const char* what) {
  if (v.isIntLike()) return v.asInt();
  if (v.isObject())
    if (auto n = v.object()->number(*this); n && n->isIntLike()) return n->asInt();
  throwTypeError(std::string(what) + " indices must be integers, not " + v.typeName());
}

double Interpreter::toFloat(const Value& v, const char* what) {
  if (v.isNumber()) return v.asFloat();
  if (v.isObject())
    if (auto n = v.object()->number(*this)) return n->asFloat();
  throwTypeError(std::string(what) + ": must be real number, not " + v.typeName());
}

}  // namespace tilescope::host
