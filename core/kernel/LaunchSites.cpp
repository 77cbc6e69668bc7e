#include "core/kernel/LaunchSites.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>

#include "core/base/FloorDivMod.h"

namespace tilescope::lang {

LaunchArg LaunchArg::integer(std::optional<int64_t> v) {
  return {Kind::Int, std::nullopt, v ? std::optional<ConstValue>(ConstValue::integer(*v)) : std::nullopt};
}
LaunchArg LaunchArg::floating(std::optional<double> v) {
  return {Kind::Float, std::nullopt, v ? std::optional<ConstValue>(ConstValue::floating(*v)) : std::nullopt};
}
LaunchArg LaunchArg::boolean(std::optional<bool> v) {
  return {Kind::Bool, std::nullopt, v ? std::optional<ConstValue>(ConstValue::boolean(*v)) : std::nullopt};
}

namespace {

using Env = std::map<std::string, LaunchArg>;

// torch functions and tensor methods whose result has the element type of their (first) tensor.
const std::set<std::string> kSameDTypeFunctions = {
    "abs", "neg", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "softmax", "clone", "flatten",
    "reshape", "transpose", "permute", "squeeze", "unsqueeze", "matmul", "mm", "maximum", "minimum", "clamp",
    "contiguous", "flip", "roll", "empty_like", "zeros_like", "ones_like", "rand_like", "randn_like", "full_like",
    "square", "tril", "triu"};
const std::set<std::string> kSameDTypeMethods = {
    "contiguous", "cuda", "cpu", "clone", "detach", "view", "reshape", "flatten", "t", "transpose", "permute",
    "squeeze", "unsqueeze", "expand", "expand_as", "narrow", "abs", "neg", "exp", "sqrt", "sin", "cos", "relu",
    "sigmoid", "tanh", "softmax", "fill_", "zero_", "normal_", "uniform_", "copy_", "add", "sub", "mul", "add_",
    "sub_", "mul_", "clamp", "flip", "repeat", "as_strided", "view_as", "reshape_as", "requires_grad_",
    "pin_memory", "square", "tril", "triu", "roll", "__getitem__"};
// Tensor methods that return a Python int.
const std::set<std::string> kIntMethods = {"numel", "size", "stride", "element_size", "dim", "nelement", "ndimension"};
// torch.X(...) that makes a tensor of fp32 unless given a dtype.
const std::set<std::string> kFloatFactories = {"empty", "zeros", "ones", "rand", "randn", "empty_strided", "linspace",
                                               "eye", "normal", "logspace"};
// The element type a tensor method converts to.
const std::map<std::string, ir::DType> kConversionMethods = {
    {"int", ir::DType::I32},    {"long", ir::DType::I64},       {"short", ir::DType::I16}, {"char", ir::DType::I8},
    {"byte", ir::DType::U8},    {"half", ir::DType::FP16},      {"float", ir::DType::FP32}, {"double", ir::DType::FP64},
    {"bool", ir::DType::I1},    {"bfloat16", ir::DType::BF16}};

std::optional<std::string> dotted(const Expr& e) {
  if (const auto* n = e.as<Name>()) return n->id;
  if (const auto* a = e.as<Attribute>())
    if (std::optional<std::string> base = dotted(*a->value)) return *base + "." + a->attr;
  return std::nullopt;
}

class LaunchFinder {
public:
  explicit LaunchFinder(const Program& program) : program_(program) {}

  std::vector<LaunchSite> run() {
    Env module;
    std::vector<const FunctionDef*> functions;
    for (const auto& m : program_.modules()) walkBody(m->body, module, functions);
    // A function's globals are looked up when it is called, after the whole module ran. Its
    // parameters take the arguments of each call the code makes (`gather(table, index)`), so a
    // launch inside a helper function sees the tensors the caller passed; without a call they are
    // unknown.
    while (!functions.empty()) {
      std::vector<const FunctionDef*> inner;
      for (const FunctionDef* f : functions) {
        const auto calls = calls_.find(f->name);
        const size_t count = calls == calls_.end() ? 0 : calls->second.size();
        for (size_t c = 0; c < std::max<size_t>(1, count); ++c) {
          Env local = module;
          bindParameters(*f, c < count ? &calls->second[c] : nullptr, local);
          walkBody(f->body, local, inner);
        }
      }
      functions = std::move(inner);
    }
    return std::move(sites_);
  }

private:
  // The arguments of one call of a host function, as far as the code shows them.
  struct CallArgs {
    std::vector<LaunchArg> args;
    std::map<std::string, LaunchArg> kwargs;
  };
  static constexpr size_t kCallsPerFunction = 4;  // distinct calls followed into one function

  bool isJit(const FunctionDef& def) const { return program_.infoFor(&def) != nullptr; }

  void bindParameters(const FunctionDef& f, const CallArgs* call, Env& env) const {
    size_t positional = 0;
    for (const Param& p : f.params.params) {
      LaunchArg value = LaunchArg::unknown();
      if (call && p.kind != ParamKind::VarPositional && p.kind != ParamKind::VarKeyword) {
        if (p.kind != ParamKind::KeywordOnly && positional < call->args.size()) value = call->args[positional++];
        else if (auto it = call->kwargs.find(p.name); it != call->kwargs.end()) value = it->second;
        else if (p.defaultValue) value = infer(*p.defaultValue, env);
      }
      env[p.name] = value;
    }
  }

  void recordCall(const Call& call, const Env& env) {
    const auto* name = call.func->as<Name>();
    if (!name || program_.findJitFunction(name->id)) return;
    std::vector<CallArgs>& calls = calls_[name->id];
    if (calls.size() >= kCallsPerFunction) return;
    CallArgs c;
    for (const ExprPtr& a : call.args) {
      if (a->is<Starred>()) return;
      c.args.push_back(infer(*a, env));
    }
    for (const Keyword& k : call.keywords) {
      if (k.isDoubleStar()) return;
      c.kwargs[k.arg] = infer(*k.value, env);
    }
    calls.push_back(std::move(c));
  }

  void walkBody(const StmtList& body, Env& env, std::vector<const FunctionDef*>& functions) {
    for (const StmtPtr& s : body) walkStmt(*s, env, functions);
  }

  void bind(const Expr& target, const LaunchArg& value, Env& env) {
    if (const auto* n = target.as<Name>()) {
      env[n->id] = value;
    } else if (const auto* t = target.as<Tuple>()) {
      for (const ExprPtr& e : t->elements) bind(*e, LaunchArg::unknown(), env);
    } else if (const auto* l = target.as<List>()) {
      for (const ExprPtr& e : l->elements) bind(*e, LaunchArg::unknown(), env);
    }
  }

  void walkStmt(const Stmt& s, Env& env, std::vector<const FunctionDef*>& functions) {
    if (const auto* f = s.as<FunctionDef>()) {
      if (!isJit(*f)) functions.push_back(f);
      env[f->name] = LaunchArg::unknown();
      return;
    }
    if (s.is<ClassDef>()) return;
    // Launches inside the statement's expressions see the names as they are before it.
    forEachChild(s, [&](const Node& child) {
      if (const auto* e = child.as<Expr>()) findLaunches(*e, env);
    });
    if (const auto* a = s.as<Assign>()) {
      // `a, b = x, y` pairs up; other unpacking is unknown.
      const auto* values = a->value->as<Tuple>();
      for (const ExprPtr& target : a->targets) {
        const auto* targets = target->as<Tuple>();
        if (targets && values && targets->elements.size() == values->elements.size()) {
          std::vector<LaunchArg> inferred;
          for (const ExprPtr& v : values->elements) inferred.push_back(infer(*v, env));
          for (size_t i = 0; i < inferred.size(); ++i) bind(*targets->elements[i], inferred[i], env);
        } else {
          bind(*target, infer(*a->value, env), env);
        }
      }
    } else if (const auto* aa = s.as<AnnAssign>()) {
      if (aa->value) bind(*aa->target, infer(*aa->value, env), env);
    } else if (const auto* aug = s.as<AugAssign>()) {
      if (const auto* n = aug->target->as<Name>()) env[n->id] = combine(aug->op, infer(*aug->target, env), infer(*aug->value, env));
    } else if (const auto* loop = s.as<For>()) {
      const auto* call = loop->iter->as<Call>();
      const auto* callee = call ? call->func->as<Name>() : nullptr;
      bind(*loop->target, callee && callee->id == "range" ? LaunchArg::integer() : LaunchArg::unknown(), env);
      walkBody(loop->body, env, functions);
      walkBody(loop->orelse, env, functions);
    } else if (const auto* w = s.as<While>()) {
      walkBody(w->body, env, functions);
      walkBody(w->orelse, env, functions);
    } else if (const auto* i = s.as<If>()) {
      walkBody(i->body, env, functions);
      walkBody(i->orelse, env, functions);
    } else if (const auto* with = s.as<With>()) {
      for (const WithItem& item : with->items)
        if (item.optionalVars) bind(*item.optionalVars, LaunchArg::unknown(), env);
      walkBody(with->body, env, functions);
    } else if (const auto* t = s.as<Try>()) {
      walkBody(t->body, env, functions);
      for (const ExceptHandler& h : t->handlers) walkBody(h.body, env, functions);
      walkBody(t->orelse, env, functions);
      walkBody(t->finalBody, env, functions);
    }
  }

  // Finds launches in an expression, lambdas included (their parameters are unknown there).
  void findLaunches(const Expr& e, const Env& env) {
    if (const auto* lambda = e.as<Lambda>()) {
      Env inner = env;
      for (const Param& p : lambda->params.params) inner[p.name] = LaunchArg::unknown();
      findLaunches(*lambda->body, inner);
      return;
    }
    if (const auto* call = e.as<Call>()) {
      recordLaunch(*call, env);
      recordCall(*call, env);
    }
    forEachChild(e, [&](const Node& child) {
      if (const auto* ce = child.as<Expr>()) findLaunches(*ce, env);
    });
  }

  void recordLaunch(const Call& call, const Env& env) {
    const auto* sub = call.func->as<Subscript>();
    const auto* name = sub ? sub->value->as<Name>() : nullptr;
    if (!name || !program_.findJitFunction(name->id)) return;
    LaunchSite site;
    site.kernel = name->id;
    site.range = call.range;
    for (const ExprPtr& a : call.args) {
      if (a->is<Starred>()) return;  // how many arguments, and which, is unknown
      site.args.push_back(infer(*a, env));
    }
    for (const Keyword& k : call.keywords) {
      if (k.isDoubleStar()) return;
      site.kwargs.emplace_back(k.arg, infer(*k.value, env));
    }
    sites_.push_back(std::move(site));
  }

  std::optional<ir::DType> dtypeOf(const Expr& e, const Env& env) const {
    if (const auto* n = e.as<Name>()) {
      auto it = env.find(n->id);
      if (it != env.end() && it->second.kind == LaunchArg::Kind::Constant && it->second.value->isDType())
        return it->second.value->asDType().dtype;
    }
    if (const auto* a = e.as<Attribute>(); a && a->attr == "dtype") {
      const LaunchArg t = infer(*a->value, env);
      if (t.kind == LaunchArg::Kind::Tensor) return t.dtype;
      return std::nullopt;
    }
    if (std::optional<std::string> text = dotted(e)) {
      // "torch.int32", "tl.float16", "torch.float": but not a plain name such as `int`.
      if (text->find('.') != std::string::npos) return ir::parseDType(*text);
    }
    return std::nullopt;
  }

  // The dtype= keyword of a call, or a positional dtype (`x.to(torch.int32)`).
  std::optional<std::optional<ir::DType>> dtypeArgument(const Call& call, const Env& env, bool positional) const {
    if (const Keyword* k = call.keyword("dtype")) return dtypeOf(*k->value, env);
    if (positional)
      for (const ExprPtr& a : call.args)
        if (std::optional<ir::DType> t = dtypeOf(*a, env)) return t;
    return std::nullopt;  // no dtype given
  }

  LaunchArg tensorMethod(const Call& call, const LaunchArg& self, const std::string& method, const Env& env) const {
    if (method == "to" || method == "type") {
      if (auto given = dtypeArgument(call, env, true)) return LaunchArg::tensor(*given);
      for (const ExprPtr& a : call.args) {
        const LaunchArg other = infer(*a, env);
        if (other.kind == LaunchArg::Kind::Tensor) return other;  // x.to(y): y's dtype
      }
      return self;  // x.to(device)
    }
    if (auto it = kConversionMethods.find(method); it != kConversionMethods.end()) return LaunchArg::tensor(it->second);
    if (kSameDTypeMethods.count(method)) return self;
    if (kIntMethods.count(method)) return (method == "size" || method == "stride") && call.args.empty() ? LaunchArg::unknown()
                                                                                                          : LaunchArg::integer();
    return LaunchArg::unknown();
  }

  LaunchArg torchFunction(const Call& call, const std::string& fn, const Env& env) const {
    const std::optional<std::optional<ir::DType>> given = dtypeArgument(call, env, false);
    if (given) return LaunchArg::tensor(*given);
    if (kFloatFactories.count(fn)) return LaunchArg::tensor(ir::DType::FP32);
    if (fn == "randint" || fn == "randperm") return LaunchArg::tensor(ir::DType::I64);
    auto kindOf = [&](const Expr& e) { return infer(e, env).kind; };
    if (fn == "arange") {
      bool anyFloat = false;
      for (const ExprPtr& a : call.args) {
        const LaunchArg::Kind k = kindOf(*a);
        if (k == LaunchArg::Kind::Float) anyFloat = true;
        else if (k != LaunchArg::Kind::Int) return LaunchArg::tensor(std::nullopt);
      }
      return LaunchArg::tensor(anyFloat ? ir::DType::FP32 : ir::DType::I64);
    }
    if (fn == "full" && call.args.size() >= 2) {
      switch (kindOf(*call.args[1])) {
        case LaunchArg::Kind::Int: return LaunchArg::tensor(ir::DType::I64);
        case LaunchArg::Kind::Float: return LaunchArg::tensor(ir::DType::FP32);
        case LaunchArg::Kind::Bool: return LaunchArg::tensor(ir::DType::I1);
        default: return LaunchArg::tensor(std::nullopt);
      }
    }
    if (fn == "tensor" && !call.args.empty()) {
      // A literal list: ints make int64, any float makes fp32.
      const auto* list = call.args[0]->as<List>();
      if (!list || list->elements.empty()) return LaunchArg::tensor(std::nullopt);
      bool anyFloat = false;
      for (const ExprPtr& e : list->elements) {
        const LaunchArg::Kind k = kindOf(*e);
        if (k == LaunchArg::Kind::Float) anyFloat = true;
        else if (k != LaunchArg::Kind::Int) return LaunchArg::tensor(std::nullopt);
      }
      return LaunchArg::tensor(anyFloat ? ir::DType::FP32 : ir::DType::I64);
    }
    if (kSameDTypeFunctions.count(fn) && !call.args.empty()) {
      const LaunchArg first = infer(*call.args[0], env);
      if (first.kind == LaunchArg::Kind::Tensor) return first;
    }
    return LaunchArg::unknown();
  }

  static LaunchArg combine(BinaryOp op, const LaunchArg& l, const LaunchArg& r) {
    using K = LaunchArg::Kind;
    auto number = [](const LaunchArg& a) { return a.kind == K::Int || a.kind == K::Float || a.kind == K::Bool; };
    if (number(l) && number(r)) {
      if (op == BinaryOp::Div || l.kind == K::Float || r.kind == K::Float) return LaunchArg::floating();
      std::optional<int64_t> v;
      if (l.value && r.value && l.value->isIntegral() && r.value->isIntegral()) {
        const int64_t a = l.value->toInt(), b = r.value->toInt();
        if (op == BinaryOp::Add) v = a + b;
        if (op == BinaryOp::Sub) v = a - b;
        if (op == BinaryOp::Mult) v = a * b;
        if ((op == BinaryOp::FloorDiv || op == BinaryOp::Mod) && b != 0 && !(a == INT64_MIN && b == -1)) {
          const auto [q, m] = util::floorDivMod<int64_t>(a, b);
          v = op == BinaryOp::FloorDiv ? q : m;
        }
        if (op == BinaryOp::LShift && b >= 0 && b < 62) v = a << b;
      }
      return LaunchArg::integer(v);
    }
    const LaunchArg* tensor = l.kind == K::Tensor ? &l : r.kind == K::Tensor ? &r : nullptr;
    const LaunchArg* other = tensor == &l ? &r : &l;
    if (!tensor || !tensor->dtype) return tensor ? LaunchArg::tensor(std::nullopt) : LaunchArg::unknown();
    const bool floatTensor = ir::isFloat(*tensor->dtype);
    if (other->kind == K::Tensor) return other->dtype == tensor->dtype ? *tensor : LaunchArg::tensor(std::nullopt);
    if (op == BinaryOp::Div && !floatTensor) return LaunchArg::tensor(ir::DType::FP32);
    if (other->kind == K::Int || other->kind == K::Bool) return *tensor;
    if (other->kind == K::Float) return LaunchArg::tensor(floatTensor ? *tensor->dtype : ir::DType::FP32);
    return LaunchArg::tensor(std::nullopt);
  }

  LaunchArg infer(const Expr& e, const Env& env) const {
    using K = LaunchArg::Kind;
    if (const auto* i = e.as<IntLiteral>()) return LaunchArg::integer(i->value);
    if (const auto* f = e.as<FloatLiteral>()) return LaunchArg::floating(f->value);
    if (const auto* b = e.as<BoolLiteral>()) return LaunchArg::boolean(b->value);
    if (const auto* s = e.as<StringLiteral>()) return LaunchArg::constant(ConstValue::string(s->value));
    if (e.is<NoneLiteral>()) return LaunchArg::constant(ConstValue::none());
    if (const auto* n = e.as<Name>()) {
      auto it = env.find(n->id);
      return it == env.end() ? LaunchArg::unknown() : it->second;
    }
    if (const auto* u = e.as<Unary>()) {
      LaunchArg v = infer(*u->operand, env);
      if (u->op != UnaryOp::Neg) return u->op == UnaryOp::Not ? LaunchArg::boolean() : v;
      if (v.kind == K::Int) return LaunchArg::integer(v.value ? std::optional<int64_t>(-v.value->asInt()) : std::nullopt);
      if (v.kind == K::Float) return LaunchArg::floating(v.value ? std::optional<double>(-v.value->asFloat()) : std::nullopt);
      return v.kind == K::Tensor ? v : LaunchArg::unknown();
    }
    if (const auto* b = e.as<Binary>()) return combine(b->op, infer(*b->left, env), infer(*b->right, env));
    if (const auto* c = e.as<IfExp>()) {
      const LaunchArg a = infer(*c->body, env), b = infer(*c->orelse, env);
      if (a.kind != b.kind) return LaunchArg::unknown();
      if (a.kind == K::Tensor) return a.dtype == b.dtype ? a : LaunchArg::tensor(std::nullopt);
      return a.kind == K::Int ? LaunchArg::integer() : a.kind == K::Float ? LaunchArg::floating() : LaunchArg::unknown();
    }
    if (const auto* sub = e.as<Subscript>()) {
      // x.shape[0], x.stride()[1]: ints; a tensor's element or slice: its dtype.
      if (const auto* a = sub->value->as<Attribute>(); a && a->attr == "shape") return LaunchArg::integer();
      if (const auto* call = sub->value->as<Call>())
        if (const auto* a = call->func->as<Attribute>(); a && (a->attr == "size" || a->attr == "stride")) return LaunchArg::integer();
      const LaunchArg v = infer(*sub->value, env);
      return v.kind == K::Tensor ? v : LaunchArg::unknown();
    }
    if (const auto* a = e.as<Attribute>()) {
      if (std::optional<ir::DType> t = dtypeOf(e, env); t && a->attr != "dtype") return LaunchArg::constant(ConstValue::dtype(*t));
      const LaunchArg base = infer(*a->value, env);
      if (base.kind == K::Tensor && (a->attr == "T" || a->attr == "mT")) return base;
      if (a->attr == "dtype" && base.kind == K::Tensor && base.dtype) return LaunchArg::constant(ConstValue::dtype(*base.dtype));
      return LaunchArg::unknown();
    }
    if (const auto* call = e.as<Call>()) {
      if (const auto* a = call->func->as<Attribute>()) {
        const LaunchArg self = infer(*a->value, env);
        if (self.kind == K::Tensor) return tensorMethod(*call, self, a->attr, env);
        const std::optional<std::string> module = dotted(*a->value);
        if (module == "torch") return torchFunction(*call, a->attr, env);
        if ((module == "triton" || module == "tl" || module == "triton.language") &&
            (a->attr == "cdiv" || a->attr == "next_power_of_2"))
          return LaunchArg::integer();
        if (module == "math" && (a->attr == "ceil" || a->attr == "floor" || a->attr == "prod")) return LaunchArg::integer();
        return LaunchArg::unknown();
      }
      if (const auto* n = call->func->as<Name>()) {
        if (n->id == "len" || n->id == "int" || n->id == "cdiv" || n->id == "next_power_of_2") return LaunchArg::integer();
        if (n->id == "float") return LaunchArg::floating();
        if (n->id == "bool") return LaunchArg::boolean();
        if ((n->id == "min" || n->id == "max") && !call->args.empty()) {
          LaunchArg out = LaunchArg::integer();
          for (const ExprPtr& arg : call->args) {
            const LaunchArg v = infer(*arg, env);
            if (v.kind == K::Float) out = LaunchArg::floating();
            else if (v.kind != K::Int) return LaunchArg::unknown();
          }
          return out;
        }
      }
    }
    return LaunchArg::unknown();
  }

  const Program& program_;
  std::vector<LaunchSite> sites_;
  std::map<std::string, std::vector<CallArgs>> calls_;  // by the name called
};

}  // namespace

std::vector<LaunchSite> findLaunchSites(const Program& program) { return LaunchFinder(program).run(); }

}  // namespace tilescope::lang
