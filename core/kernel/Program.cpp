#include "core/kernel/Program.h"

#include "core/kernel/Builtins.h"

namespace tilescope::lang {

namespace {

std::string firstComponent(const std::string& dotted) { return dotted.substr(0, dotted.find('.')); }

std::optional<ConstOp> constOpOf(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return ConstOp::Add;
    case BinaryOp::Sub: return ConstOp::Sub;
    case BinaryOp::Mult: return ConstOp::Mul;
    case BinaryOp::Div: return ConstOp::TrueDiv;
    case BinaryOp::FloorDiv: return ConstOp::FloorDiv;
    case BinaryOp::Mod: return ConstOp::Mod;
    case BinaryOp::Pow: return ConstOp::Pow;
    case BinaryOp::LShift: return ConstOp::LShift;
    case BinaryOp::RShift: return ConstOp::RShift;
    case BinaryOp::BitAnd: return ConstOp::BitAnd;
    case BinaryOp::BitOr: return ConstOp::BitOr;
    case BinaryOp::BitXor: return ConstOp::BitXor;
    default: return std::nullopt;
  }
}

const char* kRuntimeGlobal = "' is a Python value computed when the program runs, not a constexpr; pass it to the kernel as an argument";

}  // namespace

Program::Program(std::vector<std::shared_ptr<const Module>> modules) {
  for (auto& m : modules) addModule(std::move(m));
}

void Program::addModule(std::shared_ptr<const Module> module) {
  modules_.push_back(module);
  for (const StmtPtr& s : module->body) runStatement(*s, *module);
}

const JitFunctionInfo* Program::findJitFunction(const std::string& name) const {
  for (auto it = jit_.rbegin(); it != jit_.rend(); ++it)
    if (it->name == name) return &*it;
  return nullptr;
}

const JitFunctionInfo* Program::infoFor(const FunctionDef* def) const {
  for (const JitFunctionInfo& i : jit_)
    if (i.def == def) return &i;
  return nullptr;
}

const Value* Program::lookupGlobal(const std::string& name) const {
  auto it = globals_.find(name);
  return it == globals_.end() ? nullptr : &it->second;
}

std::vector<std::string> Program::globalNames() const {
  std::vector<std::string> out;
  for (const auto& [name, v] : globals_) out.push_back(name);
  return out;
}

const Module* Program::moduleOf(const FunctionDef* def) const {
  auto it = defModules_.find(def);
  return it == defModules_.end() ? nullptr : it->second;
}

void Program::runStatement(const Stmt& stmt, const Module& module) {
  if (const auto* imp = stmt.as<Import>()) {
    for (const ImportAlias& a : imp->names) {
      if (!a.asName.empty()) globals_[a.asName] = moduleValue(a.name);
      else globals_[firstComponent(a.name)] = moduleValue(firstComponent(a.name));
    }
  } else if (const auto* from = stmt.as<ImportFrom>()) {
    const std::string mod = std::string(from->level, '.') + from->module;
    for (const ImportAlias& a : from->names) {
      if (a.name == "*") continue;
      const std::string local = a.asName.empty() ? a.name : a.asName;
      if (isKnownModule(mod)) {
        if (auto m = moduleMember(mod, a.name)) globals_[local] = *m;
        else if (isKnownModule(mod + "." + a.name) || mod == "triton") globals_[local] = moduleValue(mod + "." + a.name);
        else globals_[local] = Value::undefined("'" + local + "' (from " + mod + ") is not something tilescope knows");
      } else {
        // A function from a module of the user's (e.g. triton_util): runs on the host when called.
        globals_[local] = Value::ofHostFunction(local);
      }
    }
  } else if (const auto* def = stmt.as<FunctionDef>()) {
    defineFunction(*def, module);
  } else if (const auto* cls = stmt.as<ClassDef>()) {
    globals_[cls->name] = Value::ofHostFunction(cls->name);
  } else if (const auto* assign = stmt.as<Assign>()) {
    std::optional<Value> v = evalGlobal(*assign->value);
    for (const ExprPtr& t : assign->targets) {
      if (const auto* n = t->as<Name>()) {
        globals_[n->id] = v ? *v : Value::undefined("'" + n->id + kRuntimeGlobal);
      } else if (const auto* tup = t->as<Tuple>()) {
        for (size_t i = 0; i < tup->elements.size(); ++i) {
          if (const auto* n = tup->elements[i]->as<Name>()) {
            const bool ok = v && v->isTuple() && v->elements.size() == tup->elements.size();
            globals_[n->id] = ok ? v->elements[i] : Value::undefined("'" + n->id + kRuntimeGlobal);
          }
        }
      }
    }
  } else if (const auto* ann = stmt.as<AnnAssign>()) {
    if (const auto* n = ann->target->as<Name>(); n && ann->value) {
      std::optional<Value> v = evalGlobal(*ann->value);
      globals_[n->id] = v ? *v : Value::undefined("'" + n->id + kRuntimeGlobal);
    }
  } else if (const auto* aug = stmt.as<AugAssign>()) {
    if (const auto* n = aug->target->as<Name>()) globals_[n->id] = Value::undefined("'" + n->id + kRuntimeGlobal);
  } else if (const auto* del = stmt.as<Del>()) {
    for (const ExprPtr& t : del->targets)
      if (const auto* n = t->as<Name>()) globals_.erase(n->id);
  }
  // Compound statements at module level (if __name__ == ..., loops, try) are host code: skipped.
}

bool Program::isJitDecorator(const Expr& decorator) const {
  const Expr* e = &decorator;
  if (const auto* call = e->as<Call>()) e = call->func.get();
  if (auto v = evalGlobal(*e); v && v->kind == Value::Kind::Builtin && v->name == "triton.jit") return true;
  // Without the import in view (a notebook cell run out of order), recognise the spelling.
  if (const auto* a = e->as<Attribute>(); a && a->attr == "jit") {
    if (const auto* n = a->value->as<Name>()) return n->id == "triton";
  }
  if (const auto* n = e->as<Name>()) return n->id == "jit" && !lookupGlobal("jit");
  return false;
}

void Program::defineFunction(const FunctionDef& def, const Module& module) {
  defModules_[&def] = &module;
  bool jit = false;
  for (const ExprPtr& d : def.decorators) jit |= isJitDecorator(*d);
  if (!jit) {
    globals_[def.name] = Value::ofHostFunction(def.name);
    return;
  }
  for (JitFunctionInfo& older : jit_)
    if (older.name == def.name) older.shadowed = true;
  JitFunctionInfo info;
  info.name = def.name;
  info.def = &def;
  info.module = &module;
  for (const ExprPtr& d : def.decorators) {
    const auto* call = d->as<Call>();
    if (!call) continue;
    auto callee = evalGlobal(*call->func);
    const std::string name = callee && callee->kind == Value::Kind::Builtin ? callee->name : "";
    const auto* attr = call->func->as<Attribute>();
    if (name == "triton.autotune" || (attr && attr->attr == "autotune")) readAutotune(*call, info);
    if (name == "triton.heuristics" || (attr && attr->attr == "heuristics")) {
      const Expr* arg = !call->args.empty() ? call->args[0].get() : nullptr;
      if (const Keyword* k = call->keyword("values")) arg = k->value.get();
      if (const auto* dict = arg ? arg->as<Dict>() : nullptr)
        for (const DictItem& item : dict->items)
          if (const auto* key = item.key ? item.key->as<StringLiteral>() : nullptr) info.heuristicNames.push_back(key->value);
    }
  }
  jit_.push_back(std::move(info));
  globals_[def.name] = Value::ofJitFunction(def.name, &def);
}

void Program::readAutotune(const Call& call, JitFunctionInfo& info) const {
  const Expr* configs = !call.args.empty() ? call.args[0].get() : nullptr;
  if (const Keyword* k = call.keyword("configs")) configs = k->value.get();
  if (const Keyword* k = call.keyword("key")) {
    if (const auto* list = k->value->as<List>())
      for (const ExprPtr& e : list->elements)
        if (const auto* s = e->as<StringLiteral>()) info.autotuneKey.push_back(s->value);
  }
  const auto* list = configs ? configs->as<List>() : nullptr;
  if (!list) return;
  for (const ExprPtr& e : list->elements) {
    const auto* cfg = e->as<Call>();
    if (!cfg) continue;
    AutotuneConfig config;
    const Expr* kwargs = !cfg->args.empty() ? cfg->args[0].get() : nullptr;
    if (const Keyword* k = cfg->keyword("kwargs")) kwargs = k->value.get();
    if (const auto* dict = kwargs ? kwargs->as<Dict>() : nullptr) {
      for (const DictItem& item : dict->items) {
        const auto* key = item.key ? item.key->as<StringLiteral>() : nullptr;
        std::optional<Value> v = item.value ? evalGlobal(*item.value) : std::nullopt;
        if (key && v && v->isConst()) config.values.emplace_back(key->value, v->constant);
      }
    }
    auto intKw = [&](const char* name, int& out) {
      if (const Keyword* k = cfg->keyword(name)) {
        auto v = evalGlobal(*k->value);
        if (v && v->isConst() && v->constant.isInt()) out = static_cast<int>(v->constant.asInt());
      }
    };
    intKw("num_warps", config.options.numWarps);
    intKw("num_stages", config.options.numStages);
    info.autotuneConfigs.push_back(std::move(config));
  }
}

std::optional<Value> Program::evalGlobal(const Expr& e) const {
  switch (e.kind()) {
    case Node::Kind::IntLiteral: {
      const auto& lit = *e.as<IntLiteral>();
      if (!lit.value) return std::nullopt;
      return Value::ofConst(ConstValue::integer(*lit.value));
    }
    case Node::Kind::FloatLiteral: return Value::ofConst(ConstValue::floating(e.as<FloatLiteral>()->value));
    case Node::Kind::StringLiteral:
      if (e.as<StringLiteral>()->isBytes) return std::nullopt;
      return Value::ofConst(ConstValue::string(e.as<StringLiteral>()->value));
    case Node::Kind::BoolLiteral: return Value::ofConst(ConstValue::boolean(e.as<BoolLiteral>()->value));
    case Node::Kind::NoneLiteral: return Value::ofConst(ConstValue::none());
    case Node::Kind::Name: {
      const std::string& id = e.as<Name>()->id;
      if (const Value* v = lookupGlobal(id)) {
        if (v->kind == Value::Kind::Undefined) return std::nullopt;
        return *v;
      }
      return pythonBuiltin(id);
    }
    case Node::Kind::Attribute: {
      const auto& a = *e.as<Attribute>();
      auto base = evalGlobal(*a.value);
      if (!base) return std::nullopt;
      if (base->kind == Value::Kind::Module) {
        if (!isKnownModule(base->name)) return std::nullopt;
        return moduleMember(base->name, a.attr);
      }
      if (base->isConst() && base->constant.isDType() && a.attr == "element_ty" && base->constant.asDType().isPointer)
        return Value::ofConst(ConstValue::dtype(base->constant.asDType().dtype));
      return std::nullopt;
    }
    case Node::Kind::Tuple:
    case Node::Kind::List: {
      const ExprList& els = e.is<Tuple>() ? e.as<Tuple>()->elements : e.as<List>()->elements;
      ValueList out;
      for (const ExprPtr& el : els) {
        auto v = evalGlobal(*el);
        if (!v) return std::nullopt;
        out.push_back(*v);
      }
      return Value::ofTuple(std::move(out));
    }
    case Node::Kind::Unary: {
      const auto& u = *e.as<Unary>();
      auto v = evalGlobal(*u.operand);
      if (!v || !v->isConst()) return std::nullopt;
      const ConstUnary op = u.op == UnaryOp::Neg ? ConstUnary::Neg : u.op == UnaryOp::Pos ? ConstUnary::Pos
                            : u.op == UnaryOp::Invert ? ConstUnary::Invert : ConstUnary::Not;
      std::string err;
      auto r = foldUnary(op, v->constant, err);
      if (!r) return std::nullopt;
      return Value::ofConst(*r);
    }
    case Node::Kind::Binary: {
      const auto& b = *e.as<Binary>();
      auto l = evalGlobal(*b.left);
      auto r = evalGlobal(*b.right);
      auto op = constOpOf(b.op);
      if (!l || !r || !op || !l->isConst() || !r->isConst()) return std::nullopt;
      std::string err;
      auto v = foldBinary(*op, l->constant, r->constant, err);
      if (!v) return std::nullopt;
      return Value::ofConst(*v);
    }
    case Node::Kind::Call: {
      const auto& c = *e.as<Call>();
      auto callee = evalGlobal(*c.func);
      if (!callee || callee->kind != Value::Kind::Builtin || c.args.size() != 1 || !c.keywords.empty()) return std::nullopt;
      auto arg = evalGlobal(*c.args[0]);
      if (!arg || !arg->isConst()) return std::nullopt;
      const ConstValue& a = arg->constant;
      if (callee->name == "tl.constexpr") return arg;
      if (callee->name == "triton.next_power_of_2" && a.isInt()) {
        int64_t p = 1;
        while (p < a.asInt()) p <<= 1;
        return Value::ofConst(ConstValue::integer(p));
      }
      if (callee->name == "int" && a.isNumber()) return Value::ofConst(ConstValue::integer(static_cast<int64_t>(a.toDouble())));
      if (callee->name == "float" && a.isNumber()) return Value::ofConst(ConstValue::floating(a.toDouble()));
      if (callee->name == "bool") return Value::ofConst(ConstValue::boolean(a.truthy()));
      if (callee->name == "tl.pointer_type" && a.isDType()) return Value::ofConst(ConstValue::dtype(a.asDType().dtype, true));
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

}  // namespace tilescope::lang
