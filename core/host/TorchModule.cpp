#include "core/host/TorchModule.h"

#include <limits>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/host/Builtins.h"
#include "core/host/Containers.h"
#include "core/host/ExecutionBackend.h"
#include "core/host/Function.h"
#include "core/host/GpuMatmul.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"
#include "core/tensor/TensorCompare.h"
#include "core/tensor/TensorReorder.h"
#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorLinalg.h"
#include "core/tensor/TensorNN.h"
#include "core/host/TensorObject.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorReduce.h"
#include "core/host/TorchConvert.h"
#include "core/tensor/TorchRandom.h"

namespace tilescope::host {

namespace {

void add(std::map<std::string, Value>& attrs, const std::string& name, const std::string& spec,
         std::function<Value(Interpreter&, ValueList&)> fn) {
  attrs[name] = makeBuiltin("torch." + name, spec, std::move(fn));
}

std::optional<DType> optDType(const Value& v) { return v.isNone() ? std::nullopt : std::optional<DType>(requireDType(v, "dtype")); }

Value reduceWithDims(Interpreter& in, const Tensor& t, const Value& dim, bool keepdim, const Value& dtype, bool mean) {
  if (dim.isNone()) return makeTensor(mean ? host::mean(t, optDType(dtype)) : host::sum(t, optDType(dtype)));
  const std::vector<int64_t> dims = toIntList(in, dim, "dim");
  return makeTensor(mean ? host::mean(t, dims, keepdim, optDType(dtype)) : host::sum(t, dims, keepdim, optDType(dtype)));
}

// torch.max / torch.min: whole tensor, along a dim (values, indices), or elementwise with a tensor.
Value maxMin(Interpreter& in, ValueList& a, bool isMax) {
  const Tensor& t = requireTensor(a[0], isMax ? "max(): argument 'input'" : "min(): argument 'input'");
  if (a[1].isNone()) return makeTensor(isMax ? host::max(t) : host::min(t));
  if (const Tensor* other = tensorOf(a[1])) return makeTensor(isMax ? maximum(t, *other) : minimum(t, *other));
  const ValuesIndices vi = isMax ? host::max(t, in.toIndex(a[1], "dim"), in.truthy(a[2])) : host::min(t, in.toIndex(a[1], "dim"), in.truthy(a[2]));
  return makeObject<NamedTupleObject>(std::string("torch.return_types.") + (isMax ? "max" : "min"),
                                      std::vector<std::string>{"values", "indices"},
                                      ValueList{makeTensor(vi.values), makeTensor(vi.indices)});
}

Value unaryFn(UnaryOp op, ValueList& a) { return makeTensor(host::unary(op, requireTensor(a[0], "input"))); }

Value binaryFn(host::BinaryOp op, ValueList& a) {
  std::optional<TensorOrScalar> x = toOperand(a[0]), y = toOperand(a[1]);
  if (!x || !y || (!x->isTensor() && !y->isTensor())) throwTypeError("expected Tensor as an argument");
  return makeTensor(host::binary(op, *x, *y));
}

// Functions shared by torch.* and the tensor methods: name -> (spec, fn), input first.
const std::map<std::string, std::pair<std::string, std::function<Value(Interpreter&, ValueList&)>>>& tensorFunctions() {
  static const std::map<std::string, std::pair<std::string, std::function<Value(Interpreter&, ValueList&)>>> fns = [] {
    std::map<std::string, std::pair<std::string, std::function<Value(Interpreter&, ValueList&)>>> m;
    m["sum"] = {"input, dim=None, keepdim=False, *, dtype=None", [](Interpreter& in, ValueList& a) {
                  return reduceWithDims(in, requireTensor(a[0], "input"), a[1], in.truthy(a[2]), a[3], false);
                }};
    m["mean"] = {"input, dim=None, keepdim=False, *, dtype=None", [](Interpreter& in, ValueList& a) {
                   return reduceWithDims(in, requireTensor(a[0], "input"), a[1], in.truthy(a[2]), a[3], true);
                 }};
    m["max"] = {"input, dim=None, keepdim=False", [](Interpreter& in, ValueList& a) { return maxMin(in, a, true); }};
    m["min"] = {"input, dim=None, keepdim=False", [](Interpreter& in, ValueList& a) { return maxMin(in, a, false); }};
    m["argmax"] = {"input, dim=None, keepdim=False", [](Interpreter& in, ValueList& a) {
                     return makeTensor(argmax(requireTensor(a[0], "input"), a[1].isNone() ? std::nullopt : std::optional<int64_t>(in.toIndex(a[1], "dim")),
                                              in.truthy(a[2])));
                   }};
    m["argmin"] = {"input, dim=None, keepdim=False", [](Interpreter& in, ValueList& a) {
                     return makeTensor(argmin(requireTensor(a[0], "input"), a[1].isNone() ? std::nullopt : std::optional<int64_t>(in.toIndex(a[1], "dim")),
                                              in.truthy(a[2])));
                   }};
    for (const char* n : {"all", "any"}) {
      const bool isAll = std::string(n) == "all";
      m[n] = {"input, dim=None, keepdim=False", [isAll](Interpreter& in, ValueList& a) {
                const Tensor& t = requireTensor(a[0], "input");
                if (a[1].isNone()) return makeTensor(isAll ? host::all(t) : host::any(t));
                const int64_t d = in.toIndex(a[1], "dim");
                return makeTensor(isAll ? host::all(t, d, in.truthy(a[2])) : host::any(t, d, in.truthy(a[2])));
              }};
    }
    static const std::pair<const char*, UnaryOp> unaries[] = {
        {"abs", UnaryOp::Abs},     {"neg", UnaryOp::Neg},       {"exp", UnaryOp::Exp},     {"exp2", UnaryOp::Exp2},
        {"log", UnaryOp::Log},     {"log2", UnaryOp::Log2},     {"sqrt", UnaryOp::Sqrt},   {"rsqrt", UnaryOp::Rsqrt},
        {"sin", UnaryOp::Sin},     {"cos", UnaryOp::Cos},       {"tanh", UnaryOp::Tanh},   {"sigmoid", UnaryOp::Sigmoid},
        {"reciprocal", UnaryOp::Reciprocal}, {"floor", UnaryOp::Floor}, {"ceil", UnaryOp::Ceil}, {"trunc", UnaryOp::Trunc},
        {"logical_not", UnaryOp::LogicalNot}, {"bitwise_not", UnaryOp::BitNot}};
    for (const auto& [n, op] : unaries) {
      const UnaryOp o = op;
      m[n] = {"input", [o](Interpreter&, ValueList& a) { return unaryFn(o, a); }};
    }
    // NaN is the one value unequal to itself; infinities are the values whose magnitude is inf.
    m["isnan"] = {"input", [](Interpreter&, ValueList& a) {
                    ValueList self{a[0], a[0]};
                    return binaryFn(host::BinaryOp::Ne, self);
                  }};
    m["isinf"] = {"input", [](Interpreter&, ValueList& a) {
                    ValueList magnitude{unaryFn(UnaryOp::Abs, a), Value::real(std::numeric_limits<double>::infinity())};
                    return binaryFn(host::BinaryOp::Eq, magnitude);
                  }};
    m["isfinite"] = {"input", [](Interpreter&, ValueList& a) {
                       ValueList self{a[0], a[0]};
                       ValueList magnitude{unaryFn(UnaryOp::Abs, a), Value::real(std::numeric_limits<double>::infinity())};
                       ValueList both{binaryFn(host::BinaryOp::Eq, self), binaryFn(host::BinaryOp::Ne, magnitude)};
                       return binaryFn(host::BinaryOp::LogicalAnd, both);
                     }};
    m["flip"] = {"input, dims", [](Interpreter& in, ValueList& a) {
                   std::vector<int64_t> list;
                   if (a[1].isInt()) list.push_back(in.toIndex(a[1], "dims"));
                   else
                     for (const Value& d : in.toList(a[1])) list.push_back(in.toIndex(d, "dims"));
                   return makeTensor(host::flip(requireTensor(a[0], "input"), list));
                 }};
    m["sort"] = {"input, dim=-1, descending=False, stable=False", [](Interpreter& in, ValueList& a) {
                   const ValuesIndices vi = host::sort(requireTensor(a[0], "input"), in.toIndex(a[1], "dim"), in.truthy(a[2]));
                   return makeObject<NamedTupleObject>("torch.return_types.sort", std::vector<std::string>{"values", "indices"},
                                                       ValueList{makeTensor(vi.values), makeTensor(vi.indices)});
                 }};
    m["topk"] = {"input, k, dim=-1, largest=True, sorted=True", [](Interpreter& in, ValueList& a) {
                   const ValuesIndices vi =
                       host::topk(requireTensor(a[0], "input"), in.toIndex(a[1], "k"), in.toIndex(a[2], "dim"), in.truthy(a[3]));
                   return makeObject<NamedTupleObject>("torch.return_types.topk", std::vector<std::string>{"values", "indices"},
                                                       ValueList{makeTensor(vi.values), makeTensor(vi.indices)});
                 }};
    m["argsort"] = {"input, dim=-1, descending=False, stable=False", [](Interpreter& in, ValueList& a) {
                      return makeTensor(host::sort(requireTensor(a[0], "input"), in.toIndex(a[1], "dim"), in.truthy(a[2])).indices);
                    }};
    m["round"] = {"input, *, decimals=0", [](Interpreter& in, ValueList& a) {
                    if (in.toIndex(a[1], "decimals") != 0) throw PyError("RuntimeError", "round(decimals=...) is not supported by tilescope");
                    return unaryFn(UnaryOp::Round, a);
                  }};
    static const std::pair<const char*, host::BinaryOp> binaries[] = {
        {"add", host::BinaryOp::Add},       {"sub", host::BinaryOp::Sub},           {"mul", host::BinaryOp::Mul},
        {"div", host::BinaryOp::Div},       {"floor_divide", host::BinaryOp::FloorDiv}, {"remainder", host::BinaryOp::Mod},
        {"pow", host::BinaryOp::Pow},       {"eq", host::BinaryOp::Eq},             {"ne", host::BinaryOp::Ne},
        {"lt", host::BinaryOp::Lt},         {"le", host::BinaryOp::Le},             {"gt", host::BinaryOp::Gt},
        {"ge", host::BinaryOp::Ge},         {"maximum", host::BinaryOp::Maximum},   {"minimum", host::BinaryOp::Minimum},
        {"logical_and", host::BinaryOp::LogicalAnd}, {"logical_or", host::BinaryOp::LogicalOr},
        {"bitwise_and", host::BinaryOp::BitAnd}, {"bitwise_or", host::BinaryOp::BitOr}, {"bitwise_xor", host::BinaryOp::BitXor}};
    for (const auto& [n, op] : binaries) {
      const host::BinaryOp o = op;
      m[n] = {"input, other", [o](Interpreter&, ValueList& a) { return binaryFn(o, a); }};
    }
    m["matmul"] = {"input, other", [](Interpreter& in, ValueList& a) {
                     const Tensor& x = requireTensor(a[0], "input");
                     const Tensor& y = requireTensor(a[1], "other");
                     if (std::optional<Tensor> onGpu = gpuMatmul(in, x, y)) return makeTensor(std::move(*onGpu));
                     return makeTensor(matmul(x, y));
                   }};
    m["mm"] = m["matmul"];
    m["softmax"] = {"input, dim=None, dtype=None, *, axis=None", [](Interpreter& in, ValueList& a) {
                      const Value& dim = a[1].isNone() ? a[3] : a[1];
                      if (dim.isNone()) throwTypeError("softmax() missing 1 required positional argument: 'dim'");
                      return makeTensor(softmax(requireTensor(a[0], "input"), in.toIndex(dim, "dim"), optDType(a[2])));
                    }};
    m["log_softmax"] = {"input, dim, dtype=None", [](Interpreter& in, ValueList& a) {
                          return makeTensor(logSoftmax(requireTensor(a[0], "input"), in.toIndex(a[1], "dim"), optDType(a[2])));
                        }};
    m["clamp"] = {"input, min=None, max=None", [](Interpreter& in, ValueList& a) {
                    std::optional<Scalar> lo, hi;
                    if (!a[1].isNone()) lo = requireScalar(in, a[1], "min");
                    if (!a[2].isNone()) hi = requireScalar(in, a[2], "max");
                    if (!lo && !hi) throw PyError("RuntimeError", "torch.clamp: At least one of 'min' or 'max' must not be None");
                    return makeTensor(clamp(requireTensor(a[0], "input"), lo, hi));
                  }};
    m["clip"] = m["clamp"];
    for (const char* n : {"cumsum", "cumprod"}) {
      const bool product = std::string(n) == "cumprod";
      m[n] = {"input, dim, *, dtype=None", [product](Interpreter& in, ValueList& a) {
                const Tensor& x = requireTensor(a[0], "input");
                const int64_t d = in.toIndex(a[1], "dim");
                return makeTensor(product ? cumprod(x, d, optDType(a[2])) : cumsum(x, d, optDType(a[2])));
              }};
    }
    m["gather"] = {"input, dim, index, *, sparse_grad=False", [](Interpreter& in, ValueList& a) {
                     return makeTensor(gather(requireTensor(a[0], "input"), in.toIndex(a[1], "dim"), requireTensor(a[2], "index")));
                   }};
    m["masked_fill"] = {"input, mask, value", [](Interpreter& in, ValueList& a) {
                          return makeTensor(maskedFill(requireTensor(a[0], "input"), requireTensor(a[1], "mask"),
                                                       requireScalar(in, a[2], "masked_fill() value")));
                        }};
    for (const char* n : {"triu", "tril"}) {
      const bool upper = std::string(n) == "triu";
      m[n] = {"input, diagonal=0", [upper](Interpreter& in, ValueList& a) {
                return makeTensor(triangle(requireTensor(a[0], "input"), in.toIndex(a[1], "diagonal"), upper));
              }};
    }
    m["allclose"] = {"input, other, rtol=1e-05, atol=1e-08, equal_nan=False", [](Interpreter& in, ValueList& a) {
                       return Value::boolean(allclose(requireTensor(a[0], "input"), requireTensor(a[1], "other"), in.toFloat(a[2], "rtol"),
                                                      in.toFloat(a[3], "atol"), in.truthy(a[4])));
                     }};
    m["isclose"] = {"input, other, rtol=1e-05, atol=1e-08, equal_nan=False", [](Interpreter& in, ValueList& a) {
                      return makeTensor(isclose(requireTensor(a[0], "input"), requireTensor(a[1], "other"), in.toFloat(a[2], "rtol"),
                                                in.toFloat(a[3], "atol"), in.truthy(a[4])));
                    }};
    m["equal"] = {"input, other", [](Interpreter&, ValueList& a) {
                    return Value::boolean(equal(requireTensor(a[0], "input"), requireTensor(a[1], "other")));
                  }};
    m["numel"] = {"input", [](Interpreter&, ValueList& a) { return Value::integer(requireTensor(a[0], "input").numel()); }};
    m["nonzero"] = {"input", [](Interpreter&, ValueList& a) { return makeTensor(nonzero(requireTensor(a[0], "input"))); }};
    return m;
  }();
  return fns;
}

Value factory(Interpreter& in, CallArgs& args, const std::string& name, const std::function<Tensor(const Shape&, TensorOptions)>& make) {
  const std::optional<Value> dtype = args.takeKeyword("dtype");
  const std::optional<Value> device = args.takeKeyword("device");
  args.takeKeyword("requires_grad");
  args.takeKeyword("pin_memory");
  std::optional<Value> size = args.takeKeyword("size");
  if (!args.keywords.empty()) throwTypeError(name + "() got an unexpected keyword argument '" + args.keywords[0].first + "'");
  const Shape shape = size ? toShape(in, *size, name) : toShape(in, args.positional, name);
  return makeTensor(make(shape, toOptions(in, dtype.value_or(Value()), device.value_or(Value()))));
}

Value likeFactory(const std::string& name, std::function<Tensor(const Tensor&, TensorOptions, ValueList&)> make,
                  const std::string& extraSpec = "") {
  return makeBuiltin("torch." + name, "input, " + extraSpec + (extraSpec.empty() ? "" : ", ") + "*, dtype=None, device=None, requires_grad=False, memory_format=None",
                     [make, extraSpec](Interpreter& in, ValueList& a) {
                       const size_t n = a.size();
                       return makeTensor(make(requireTensor(a[0], "input"), toOptions(in, a[n - 4], a[n - 3]), a));
                     });
}

Value torchModule(Interpreter& in) {
  auto module = std::make_shared<NamespaceObject>("torch");
  auto& t = module->attrs;
  static const std::pair<const char*, DType> dtypes[] = {
      {"float16", DType::FP16}, {"half", DType::FP16},   {"bfloat16", DType::BF16}, {"float32", DType::FP32},
      {"float", DType::FP32},   {"float64", DType::FP64}, {"double", DType::FP64},  {"int8", DType::I8},
      {"int16", DType::I16},    {"short", DType::I16},    {"int32", DType::I32},    {"int", DType::I32},
      {"int64", DType::I64},    {"long", DType::I64},     {"uint8", DType::U8},     {"bool", DType::I1}};
  for (const auto& [n, d] : dtypes) t[n] = makeDType(d);
  t["Tensor"] = makeObject<TypeObject>("Tensor", nullptr);
  t["dtype"] = makeObject<TypeObject>("dtype", nullptr);
  t["Size"] = makeObject<TypeObject>("Size", [](Interpreter& in2, CallArgs& a) {
    ValueList items;
    if (!a.positional.empty())
      for (int64_t d : toShape(in2, a.positional[0], "Size")) items.push_back(Value::integer(d));
    return makeObject<TupleObject>(std::move(items), true);
  });
  t["device"] = makeObject<TypeObject>("device", [](Interpreter& in2, CallArgs& a) {
    if (a.positional.empty()) throwTypeError("device() missing required argument 'type'");
    std::optional<Device> d = toDevice(in2, a.positional[0]);
    if (a.positional.size() > 1 && d->isCuda()) d = Device(Device::Type::CUDA, static_cast<int>(in2.toIndex(a.positional[1], "index")));
    return makeDevice(*d);
  });

  for (const auto& [name, entry] : tensorFunctions()) add(t, name, entry.first, entry.second);
  add(t, "where", "condition, input=None, other=None", [](Interpreter&, ValueList& a) {
    const Tensor& cond = requireTensor(a[0], "condition");
    if (a[1].isNone() && a[2].isNone()) throw PyError("RuntimeError", "torch.where(condition) is not supported by tilescope; use torch.nonzero");
    std::optional<TensorOrScalar> x = toOperand(a[1]), y = toOperand(a[2]);
    if (!x || !y) throwTypeError("where(): expected Tensor or number for 'input' and 'other'");
    return makeTensor(where(cond, *x, *y));
  });
  add(t, "is_tensor", "obj", [](Interpreter&, ValueList& a) { return Value::boolean(tensorOf(a[0]) != nullptr); });
  add(t, "manual_seed", "seed", [](Interpreter& in2, ValueList& a) {
    manualSeed(in2.toIndex(a[0], "seed"));
    return Value();
  });

  // --- factories
  t["tensor"] = makeBuiltin("torch.tensor", "data, *, dtype=None, device=None, requires_grad=False, pin_memory=False",
                            [](Interpreter& in2, ValueList& a) {
                              return makeTensor(host::tensor(valueToNested(in2, a[0]), toOptions(in2, a[1], a[2])));
                            });
  t["as_tensor"] = t["tensor"];
  for (const char* n : {"zeros", "ones", "empty", "rand", "randn"}) {
    const std::string name = n;
    t[name] = makeBuiltin("torch." + name, [name](Interpreter& in2, CallArgs& args) {
      return factory(in2, args, name, [name](const Shape& s, TensorOptions o) {
        if (name == "zeros") return zeros(s, o);
        if (name == "ones") return ones(s, o);
        if (name == "empty") return empty(s, o);
        if (name == "rand") return rand(s, o);
        return randn(s, o);
      });
    });
  }
  t["full"] = makeBuiltin("torch.full", "size, fill_value, *, dtype=None, device=None, requires_grad=False", [](Interpreter& in2, ValueList& a) {
    return makeTensor(full(toShape(in2, a[0], "full"), requireScalar(in2, a[1], "fill_value"), toOptions(in2, a[2], a[3])));
  });
  auto tensorList = [](Interpreter& in, const Value& v) {
    std::vector<Tensor> out;
    for (const Value& item : in.toList(v)) out.push_back(requireTensor(item, "tensors"));
    return out;
  };
  t["cat"] = makeBuiltin("torch.cat", "tensors, dim=0, *, out=None", [tensorList](Interpreter& in, ValueList& a) {
    if (!a[2].isNone()) throw PyError("TypeError", "torch.cat(out=...) is not supported by tilescope; assign the result");
    return makeTensor(host::cat(tensorList(in, a[0]), in.toIndex(a[1], "dim")));
  });
  t["concat"] = t["cat"];
  t["concatenate"] = t["cat"];
  t["stack"] = makeBuiltin("torch.stack", "tensors, dim=0, *, out=None", [tensorList](Interpreter& in, ValueList& a) {
    if (!a[2].isNone()) throw PyError("TypeError", "torch.stack(out=...) is not supported by tilescope; assign the result");
    return makeTensor(host::stack(tensorList(in, a[0]), in.toIndex(a[1], "dim")));
  });
  t["arange"] = makeBuiltin("torch.arange", "start, end=None, step=1, *, dtype=None, device=None, requires_grad=False",
                            [](Interpreter& in2, ValueList& a) {
                              const TensorOptions o = toOptions(in2, a[3], a[4]);
                              if (a[1].isNone()) return makeTensor(arange(requireScalar(in2, a[0], "end"), o));
                              return makeTensor(arange(requireScalar(in2, a[0], "start"), requireScalar(in2, a[1], "end"),
                                                       requireScalar(in2, a[2], "step"), o));
                            });
  t["linspace"] = makeBuiltin("torch.linspace", "start, end, steps, *, dtype=None, device=None, requires_grad=False",
                              [](Interpreter& in2, ValueList& a) {
                                return makeTensor(linspace(in2.toFloat(a[0], "start"), in2.toFloat(a[1], "end"),
                                                           in2.toIndex(a[2], "steps"), toOptions(in2, a[3], a[4])));
                              });
  t["randint"] = makeBuiltin("torch.randint", [](Interpreter& in2, CallArgs& args) {
    const std::optional<Value> dtype = args.takeKeyword("dtype");
    const std::optional<Value> device = args.takeKeyword("device");
    std::optional<Value> size = args.takeKeyword("size");
    std::optional<Value> low = args.takeKeyword("low"), high = args.takeKeyword("high");
    ValueList& p = args.positional;
    if (!size && !p.empty() && !p.back().isIntLike()) {
      size = p.back();
      p.pop_back();
    }
    if (high) p.insert(p.begin(), *high);
    if (low) p.insert(p.begin(), *low);
    if (!size) throwTypeError("randint() missing 1 required positional argument: 'size'");
    const TensorOptions o = toOptions(in2, dtype.value_or(Value()), device.value_or(Value()));
    const Shape shape = toShape(in2, *size, "randint");
    if (p.size() == 1) return makeTensor(randint(in2.toIndex(p[0], "high"), shape, o));
    if (p.size() == 2) return makeTensor(randint(in2.toIndex(p[0], "low"), in2.toIndex(p[1], "high"), shape, o));
    throwTypeError("randint() received an invalid combination of arguments");
  });
  t["zeros_like"] = likeFactory("zeros_like", [](const Tensor& x, TensorOptions o, ValueList&) { return zerosLike(x, o); });
  t["ones_like"] = likeFactory("ones_like", [](const Tensor& x, TensorOptions o, ValueList&) { return onesLike(x, o); });
  t["empty_like"] = likeFactory("empty_like", [](const Tensor& x, TensorOptions o, ValueList&) { return emptyLike(x, o); });
  t["rand_like"] = likeFactory("rand_like", [](const Tensor& x, TensorOptions o, ValueList&) { return randLike(x, o); });
  t["randn_like"] = likeFactory("randn_like", [](const Tensor& x, TensorOptions o, ValueList&) { return randnLike(x, o); });
  t["full_like"] = makeBuiltin("torch.full_like", "input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None",
                               [](Interpreter& in2, ValueList& a) {
                                 return makeTensor(fullLike(requireTensor(a[0], "input"), requireScalar(in2, a[1], "fill_value"),
                                                            toOptions(in2, a[2], a[3])));
                               });
  t["randint_like"] = makeBuiltin("torch.randint_like", "input, low=0, high=None, *, dtype=None, device=None",
                                  [](Interpreter& in2, ValueList& a) {
                                    int64_t low = in2.toIndex(a[1], "low"), high = 0;
                                    if (a[2].isNone()) std::swap(low, high);
                                    else high = in2.toIndex(a[2], "high");
                                    return makeTensor(randintLike(requireTensor(a[0], "input"), low, high, toOptions(in2, a[3], a[4])));
                                  });
  t["no_grad"] = makeBuiltin("torch.no_grad", [](Interpreter&, CallArgs&) {
    auto ctx = std::make_shared<NamespaceObject>("no_grad", "no_grad");
    ctx->attrs["__enter__"] = makeBuiltin("no_grad.__enter__", [](Interpreter&, CallArgs&) { return Value(); });
    return Value(ctx);
  });
  t["inference_mode"] = t["no_grad"];
  (void)in;
  return Value(module);
}

Value cudaModule(Interpreter&) {
  auto m = std::make_shared<NamespaceObject>("torch.cuda");
  // Tensors on device='cuda' work on every backend (see Device.h), so scripts that pick their device
  // with is_available() take the cuda path everywhere.
  m->attrs["is_available"] = makeBuiltin("torch.cuda.is_available", "", [](Interpreter&, ValueList&) { return Value::boolean(true); });
  // Launches are synchronous already; like torch's, the first call also initialises the GPU (the
  // context), so a timer started after it measures only what follows.
  m->attrs["synchronize"] = makeBuiltin("torch.cuda.synchronize", "device=None", [](Interpreter& in, ValueList&) {
    backendOf(in).synchronize("torch.cuda.synchronize()");
    return Value();
  });
  m->attrs["device_count"] = makeBuiltin("torch.cuda.device_count", "", [](Interpreter&, ValueList&) { return Value::integer(1); });
  m->attrs["current_device"] = makeBuiltin("torch.cuda.current_device", "", [](Interpreter&, ValueList&) { return Value::integer(0); });
  m->attrs["manual_seed"] = makeBuiltin("torch.cuda.manual_seed", "seed", [](Interpreter& in, ValueList& a) {
    manualSeed(in.toIndex(a[0], "seed"));
    return Value();
  });
  return Value(m);
}

Value testingModule(Interpreter&) {
  auto m = std::make_shared<NamespaceObject>("torch.testing");
  m->attrs["assert_close"] = makeBuiltin("torch.testing.assert_close",
                                         "actual, expected, *, rtol=None, atol=None, equal_nan=False, check_device=True, check_dtype=True, msg=None",
                                         [](Interpreter& in, ValueList& a) {
                                           AssertCloseOptions o;
                                           if (!a[2].isNone()) o.rtol = in.toFloat(a[2], "rtol");
                                           if (!a[3].isNone()) o.atol = in.toFloat(a[3], "atol");
                                           o.equalNan = in.truthy(a[4]);
                                           o.checkDevice = in.truthy(a[5]);
                                           o.checkDtype = in.truthy(a[6]);
                                           const Tensor& actual = requireTensor(a[0], "actual");
                                           const Tensor& expected = requireTensor(a[1], "expected");
                                           if (auto msg = assertCloseMessage(actual, expected, o)) {
                                             throw PyError("AssertionError", a[7].isNone() ? *msg : in.str(a[7]));
                                           }
                                           return Value();
                                         });
  return Value(m);
}

Value functionalModule(Interpreter&) {
  auto m = std::make_shared<NamespaceObject>("torch.nn.functional");
  const auto& fns = tensorFunctions();
  m->attrs["softmax"] = makeBuiltin("torch.nn.functional.softmax", fns.at("softmax").first, fns.at("softmax").second);
  m->attrs["log_softmax"] = makeBuiltin("torch.nn.functional.log_softmax", fns.at("log_softmax").first, fns.at("log_softmax").second);
  m->attrs["sigmoid"] = makeBuiltin("torch.nn.functional.sigmoid", fns.at("sigmoid").first, fns.at("sigmoid").second);
  m->attrs["tanh"] = makeBuiltin("torch.nn.functional.tanh", fns.at("tanh").first, fns.at("tanh").second);
  m->attrs["relu"] = makeBuiltin("torch.nn.functional.relu", "input, inplace=False", [](Interpreter&, ValueList& a) {
    return makeTensor(clamp(requireTensor(a[0], "input"), Scalar(int64_t{0}), std::nullopt));
  });
  m->attrs["layer_norm"] = makeBuiltin("torch.nn.functional.layer_norm", "input, normalized_shape, weight=None, bias=None, eps=1e-05",
                                       [](Interpreter& in, ValueList& a) {
                                         std::optional<Tensor> w, b;
                                         if (!a[2].isNone()) w = requireTensor(a[2], "weight");
                                         if (!a[3].isNone()) b = requireTensor(a[3], "bias");
                                         return makeTensor(layerNorm(requireTensor(a[0], "input"), toShape(in, a[1], "normalized_shape"), w, b,
                                                                     in.toFloat(a[4], "eps")));
                                       });
  return Value(m);
}

}  // namespace

std::optional<Value> torchFunctionAsMethod(Interpreter&, const std::string& name) {
  static std::map<std::string, Value> cache;
  const auto& fns = tensorFunctions();
  auto it = fns.find(name);
  if (it == fns.end()) return std::nullopt;
  auto [slot, inserted] = cache.try_emplace(name);
  if (inserted) slot->second = makeBuiltin("Tensor." + name, it->second.first, it->second.second);
  return slot->second;
}

void installTorchModule(Interpreter& in) {
  in.registerModule("torch", torchModule);
  in.registerModule("torch.cuda", cudaModule);
  in.registerModule("torch.testing", testingModule);
  in.registerModule("torch.nn", [](Interpreter&) { return makeObject<NamespaceObject>("torch.nn"); });
  in.registerModule("torch.nn.functional", functionalModule);
}

}  // namespace tilescope::host
