#include "core/host/TritonModule.h"

#include "core/host/BenchmarkRunner.h"
#include "core/host/Builtins.h"
#include "core/host/Containers.h"
#include "core/host/Function.h"
#include "core/host/Interpreter.h"
#include "core/host/JitFunction.h"
#include "core/host/KernelLauncher.h"
#include "core/host/PyError.h"
#include "core/host/TritonDriver.h"
#include "core/host/TritonValues.h"

namespace tilescope::host {

// ------------------------------------------------------------------------------ TritonValues

std::optional<Value> TlDTypeObject::compare(Interpreter&, CmpOp op, const Value& other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  auto* o = other.as<TlDTypeObject>();
  const bool eq = o && o->dtype == dtype;
  return Value::boolean(op == CmpOp::Eq ? eq : !eq);
}

std::optional<Value> TlDTypeObject::getAttr(Interpreter&, const std::string& name) {
  if (name == "primitive_bitwidth") return Value::integer(ir::bitWidth(dtype));
  if (name == "name") return makeStr(std::string(ir::dtypeName(dtype)));
  if (name == "is_floating") return makeBuiltin("dtype.is_floating", [t = dtype](Interpreter&, CallArgs&) { return Value::boolean(ir::isFloat(t)); });
  return std::nullopt;
}

std::string ConfigObject::repr(Interpreter& in) const {
  // Triton's Config.__str__: "bm: 128, bn: 256, num_warps: 8, num_ctas: 1, num_stages: 3, ..."
  std::string out;
  for (auto& [k, v] : kwargs.as<DictObject>()->entries()) out += in.str(k) + ": " + in.repr(v) + ", ";
  out += "num_warps: " + std::to_string(numWarps) + ", num_ctas: 1, num_stages: " + std::to_string(numStages);
  return out;
}

std::optional<Value> ConfigObject::getAttr(Interpreter&, const std::string& name) {
  if (name == "kwargs") return kwargs;
  if (name == "num_warps") return Value::integer(numWarps);
  if (name == "num_stages") return Value::integer(numStages);
  if (name == "num_ctas") return Value::integer(1);
  return std::nullopt;
}

namespace {

// A parameter is a constexpr when annotated `tl.constexpr` / `triton.language.constexpr` / `constexpr`.
bool isConstexprAnnotation(const lang::Expr* e) {
  if (!e) return false;
  if (const auto* a = e->as<lang::Attribute>()) return a->attr == "constexpr";
  if (const auto* n = e->as<lang::Name>()) return n->id == "constexpr";
  if (const auto* s = e->as<lang::StringLiteral>()) return s->value == "tl.constexpr" || s->value == "constexpr";
  return false;
}

// do_not_specialize=[...] as one flag per parameter; the list names parameters or gives their indices.
std::vector<bool> parameterFlags(Interpreter& in, const lang::FunctionDef& def, const std::string& option,
                                 const std::optional<Value>& list) {
  const auto& params = def.params.params;
  std::vector<bool> flags(params.size(), false);
  if (!list || list->isNone()) return flags;
  for (const Value& item : in.toList(*list)) {
    if (item.isInt() && !item.isBool()) {
      const int64_t i = item.asInt();
      if (i < 0 || i >= static_cast<int64_t>(params.size()))
        throwValueError("triton.jit(" + option + "=...): kernel '" + def.name + "' has " + std::to_string(params.size()) +
                        " parameters; index " + std::to_string(i) + " is out of range");
      flags[static_cast<size_t>(i)] = true;
      continue;
    }
    const std::string name = in.str(item);
    size_t i = 0;
    while (i < params.size() && params[i].name != name) ++i;
    if (i == params.size()) {
      std::string names;
      for (const lang::Param& p : params) names += (names.empty() ? "" : ", ") + p.name;
      throwValueError("triton.jit(" + option + "=...): kernel '" + def.name + "' has no parameter '" + name +
                      "' (its parameters: " + names + ")");
    }
    flags[i] = true;
  }
  return flags;
}

Value makeJit(Interpreter& in, const Value& fnValue, const std::optional<Value>& doNotSpecialize = std::nullopt,
              const std::optional<Value>& doNotSpecializeOnAlignment = std::nullopt) {
  auto* fn = fnValue.as<FunctionObject>();
  if (!fn || !fn->def) throwTypeError("triton.jit must decorate a function definition (def), not " + fnValue.typeName());
  auto jit = std::make_shared<JitFunction>();
  jit->fn = std::static_pointer_cast<FunctionObject>(fn->shared_from_this());
  for (const lang::Param& p : fn->def->params.params) jit->isConstexpr.push_back(isConstexprAnnotation(p.annotation.get()));
  jit->doNotSpecialize = parameterFlags(in, *fn->def, "do_not_specialize", doNotSpecialize);
  jit->doNotSpecializeOnAlignment = parameterFlags(in, *fn->def, "do_not_specialize_on_alignment", doNotSpecializeOnAlignment);
  KernelLauncher::prefetchRedefined(in, *jit);
  return Value(jit);
}

Value decorator(const std::string& name, std::function<Value(Interpreter&, const Value&)> wrap) {
  return makeBuiltin(name, [wrap](Interpreter& in, CallArgs& a) -> Value {
    if (a.positional.size() != 1) throwTypeError("a decorator takes exactly one function");
    return wrap(in, a.positional[0]);
  });
}

Value tritonModule(Interpreter& in) {
  auto m = std::make_shared<NamespaceObject>("triton");
  auto& t = m->attrs;
  t["__version__"] = makeStr("3.1.0");
  t["runtime"] = tritonRuntimeNamespace(in);
  // @triton.jit and @triton.jit(debug=..., do_not_specialize=...).
  t["jit"] = makeBuiltin("triton.jit", [](Interpreter& in, CallArgs& a) -> Value {
    if (a.positional.size() == 1 && a.keywords.empty()) return makeJit(in, a.positional[0]);
    if (!a.positional.empty()) throwTypeError("triton.jit() takes a function or keyword options only");
    // debug, noinline, repr and launch_metadata change nothing here.
    const std::optional<Value> doNotSpecialize = a.takeKeyword("do_not_specialize");
    const std::optional<Value> onAlignment = a.takeKeyword("do_not_specialize_on_alignment");
    return decorator("triton.jit", [doNotSpecialize, onAlignment](Interpreter& in, const Value& fn) {
      return makeJit(in, fn, doNotSpecialize, onAlignment);
    });
  });
  t["autotune"] = makeBuiltin("triton.autotune",
                              "configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None, "
                              "post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None",
                              [](Interpreter& in, ValueList& a) {
                                ValueList configs = in.toList(a[0]);
                                for (const Value& c : configs)
                                  if (!c.is<ConfigObject>()) throwTypeError("triton.autotune configs must be triton.Config objects, not " + c.typeName());
                                std::vector<std::string> key;
                                for (const Value& k : in.toList(a[1])) key.push_back(in.str(k));
                                return decorator("triton.autotune", [configs, key](Interpreter&, const Value& inner) -> Value {
                                  if (!innermostJit(inner)) throwTypeError("triton.autotune must decorate a @triton.jit function");
                                  auto at = std::make_shared<Autotuner>();
                                  at->inner = inner;
                                  at->configs = configs;
                                  at->key = key;
                                  return Value(at);
                                });
                              });
  t["heuristics"] = makeBuiltin("triton.heuristics", "values", [](Interpreter&, ValueList& a) {
    if (!a[0].is<DictObject>()) throwTypeError("triton.heuristics expects a dict of name -> function");
    Value values = a[0];
    return decorator("triton.heuristics", [values](Interpreter&, const Value& inner) -> Value {
      if (!innermostJit(inner)) throwTypeError("triton.heuristics must decorate a @triton.jit function");
      auto h = std::make_shared<Heuristics>();
      h->inner = inner;
      h->values = values;
      return Value(h);
    });
  });
  t["Config"] = makeObject<TypeObject>(
      "Config", [](Interpreter& in, CallArgs& args) {
        Signature sig = Signature::parse("Config", "kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None");
        ValueList a = sig.bind(in, args);
        if (!a[0].is<DictObject>()) throwTypeError("triton.Config expects a dict of meta-parameters");
        auto c = std::make_shared<ConfigObject>();
        c->kwargs = a[0];
        c->numWarps = static_cast<int>(in.toIndex(a[1], "num_warps"));
        c->numStages = static_cast<int>(in.toIndex(a[2], "num_stages"));
        return Value(c);
      });
  // Triton calls the allocator at launch for kernels needing global scratch (TMA descriptors made on
  // the device). tilescope's descriptors are ordinary masked loads and stores that need none, so the
  // allocator is only checked and kept (as triton._allocator), never called.
  std::weak_ptr<NamespaceObject> self = m;
  t["set_allocator"] = makeBuiltin("triton.set_allocator", "allocator", [self](Interpreter&, ValueList& a) {
    if (!a[0].isNone() && !(a[0].isObject() && a[0].object()->callable()))
      throwTypeError("triton.set_allocator expects a function (size, alignment, stream) -> tensor, e.g. "
                     "lambda size, alignment, stream: torch.empty(size, device='cuda', dtype=torch.int8)");
    if (auto mod = self.lock()) mod->attrs["_allocator"] = a[0];
    return Value();
  });
  t["cdiv"] = makeBuiltin("triton.cdiv", "x, y", [](Interpreter& in, ValueList& a) {
    return in.binary(BinOp::FloorDiv, in.binary(BinOp::Sub, in.binary(BinOp::Add, a[0], a[1]), Value::integer(1)), a[1]);
  });
  t["next_power_of_2"] = makeBuiltin("triton.next_power_of_2", "n", [](Interpreter& in, ValueList& a) {
    int64_t n = in.toIndex(a[0], "n");
    if (n > (int64_t{1} << 62)) throwError("OverflowError", "next_power_of_2: " + std::to_string(n) + " is too large");
    int64_t p = 1;
    while (p < n) p <<= 1;
    return Value::integer(p);
  });
  return Value(m);
}

Value languageModule(Interpreter&) {
  auto m = std::make_shared<NamespaceObject>("triton.language");
  auto& t = m->attrs;
  t["constexpr"] = makeObject<TypeObject>("constexpr", [](Interpreter&, CallArgs& a) {
    return a.positional.empty() ? Value() : a.positional[0];
  });
  static const std::pair<const char*, ir::DType> dtypes[] = {
      {"int1", ir::DType::I1},      {"int8", ir::DType::I8},     {"int16", ir::DType::I16},      {"int32", ir::DType::I32},
      {"int64", ir::DType::I64},    {"uint8", ir::DType::U8},    {"uint16", ir::DType::U16},     {"uint32", ir::DType::U32},
      {"uint64", ir::DType::U64},   {"float16", ir::DType::FP16}, {"bfloat16", ir::DType::BF16}, {"float32", ir::DType::FP32},
      {"float64", ir::DType::FP64}, {"float8e4nv", ir::DType::FP8E4NV}, {"float8e5", ir::DType::FP8E5}};
  for (const auto& [n, d] : dtypes) t[n] = makeObject<TlDTypeObject>(d);
  t["dtype"] = makeObject<TypeObject>("dtype", nullptr);
  return Value(m);
}

}  // namespace

void installTritonModule(Interpreter& in) {
  in.registerModule("triton", tritonModule);
  in.registerModule("triton.language", languageModule);
  in.registerModule("triton.testing", testingModule);
  // CUDA's libdevice, as kernels import it; its functions only mean something inside a kernel, where
  // the checker resolves them (core/kernel/Builtins.cpp). Importing a package attaches its submodules.
  for (const char* name : {"triton.language.extra", "triton.language.extra.cuda", "triton.language.extra.libdevice",
                           "triton.language.extra.cuda.libdevice"}) {
    const std::string dotted = name;
    in.registerModule(dotted, [dotted](Interpreter&) { return Value(std::make_shared<NamespaceObject>(dotted)); });
  }
  // `triton.runtime` is the namespace `import triton` already made.
  in.registerModule("triton.runtime", [](Interpreter& in2) { return in2.getAttr(in2.importModule("triton"), "runtime"); });
}

}  // namespace tilescope::host
