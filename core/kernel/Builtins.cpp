#include "core/kernel/Builtins.h"

#include <algorithm>

#include "core/kernel/BuiltinRegistry.h"

namespace tilescope::lang {

namespace {

constexpr const char* kTritonLanguage = "triton.language";
constexpr const char* kMath = "triton.language.math";
constexpr const char* kPropagateNan = "triton.language.PropagateNan";
constexpr const char* kExtra = "triton.language.extra";
constexpr const char* kExtraCuda = "triton.language.extra.cuda";
constexpr const char* kLibdevice = "triton.language.extra.libdevice";

// CUDA libdevice functions (`tl.extra.cuda.libdevice.tanh`, `from triton.language.extra import
// libdevice`): tl builtins under another name, and libdevice's own.
const std::vector<std::pair<std::string, std::string>>& libdeviceNames() {
  static const std::vector<std::pair<std::string, std::string>> names = [] {
    std::vector<std::pair<std::string, std::string>> v = {
      {"exp", "tl.exp"},       {"exp2", "tl.exp2"},         {"log", "tl.log"},        {"log2", "tl.log2"},
      {"sqrt", "tl.sqrt_rn"},  {"sqrt_rn", "tl.sqrt_rn"},   {"rsqrt", "tl.rsqrt"},    {"sin", "tl.sin"},
      {"cos", "tl.cos"},       {"tanh", "tl.math.tanh"},    {"floor", "tl.floor"},    {"ceil", "tl.ceil"},
      {"erf", "tl.erf"},       {"fabs", "tl.abs"},          {"abs", "tl.abs"},        {"fma", "tl.fma"},
      {"fmin", "tl.minimum"},  {"fmax", "tl.maximum"},      {"div_rn", "tl.div_rn"},  {"fast_dividef", "tl.fdiv"},
      {"umulhi", "tl.umulhi"},
      // Round-to-nearest forms of the operators, which round to nearest already.
      {"add_rn", "tl.add"},    {"sub_rn", "tl.sub"},        {"mul_rn", "tl.mul"},     {"fma_rn", "tl.fma"},
      // Fast-math variants: tilescope computes them as accurately as the plain functions.
      {"fast_expf", "tl.exp"}, {"fast_logf", "tl.log"},     {"fast_log2f", "tl.log2"}, {"fast_sinf", "tl.sin"},
      {"fast_cosf", "tl.cos"}, {"fast_tanhf", "tl.math.tanh"}, {"fast_tanf", "libdevice.tan"},
      {"fast_exp10f", "libdevice.exp10"}, {"fast_log10f", "libdevice.log10"}, {"fast_powf", "libdevice.pow"},
      // Composed of other ops (MathBuiltins.cpp).
      {"isnan", "libdevice.isnan"}, {"isinf", "libdevice.isinf"}, {"signbit", "libdevice.signbit"},
      {"finitef", "libdevice.finitef"}, {"isfinited", "libdevice.isfinited"}, {"rcp_rn", "libdevice.rcp_rn"},
      {"llrint", "libdevice.llrint"}, {"llround", "libdevice.llround"}, {"popc", "libdevice.popc"}, {"clz", "libdevice.clz"},
      {"ffs", "libdevice.ffs"}, {"brev", "libdevice.brev"}, {"saturatef", "libdevice.saturatef"}, {"hadd", "libdevice.hadd"},
      {"rhadd", "libdevice.rhadd"}, {"mul24", "libdevice.mul24"}, {"mulhi", "libdevice.mulhi"}, {"ldexp", "libdevice.ldexp"},
      {"scalbn", "libdevice.scalbn"}, {"double2float_rn", "libdevice.double2float_rn"}, {"double2hiint", "libdevice.double2hiint"}, {"double2int_rn", "libdevice.double2int_rn"}, {"double2ll_rn", "libdevice.double2ll_rn"}, {"double2loint", "libdevice.double2loint"}, {"double2uint_rn", "libdevice.double2uint_rn"}, {"double2ull_rn", "libdevice.double2ull_rn"}, {"double_as_longlong", "libdevice.double_as_longlong"}, {"float2int_rn", "libdevice.float2int_rn"}, {"float2ll_rn", "libdevice.float2ll_rn"}, {"float2uint_rn", "libdevice.float2uint_rn"}, {"float2ull_rn", "libdevice.float2ull_rn"}, {"float_as_int", "libdevice.float_as_int"}, {"float_as_uint", "libdevice.float_as_uint"}, {"hiloint2double", "libdevice.hiloint2double"}, {"int2double_rn", "libdevice.int2double_rn"}, {"int2float_rn", "libdevice.int2float_rn"}, {"int_as_float", "libdevice.int_as_float"}, {"ll2double_rn", "libdevice.ll2double_rn"}, {"ll2float_rn", "libdevice.ll2float_rn"}, {"longlong_as_double", "libdevice.longlong_as_double"}, {"uint2double_rn", "libdevice.uint2double_rn"}, {"uint2float_rn", "libdevice.uint2float_rn"}, {"uint_as_float", "libdevice.uint_as_float"}, {"ull2double_rn", "libdevice.ull2double_rn"}, {"ull2float_rn", "libdevice.ull2float_rn"}, {"ilogb", "libdevice.ilogb"}, {"norm3d", "libdevice.norm3d"}, {"norm4d", "libdevice.norm4d"}, {"rnorm3d", "libdevice.rnorm3d"}, {"rnorm4d", "libdevice.rnorm4d"}};
    // libdevice's own math (MathBuiltins.cpp registers them as libdevice.<name>).
    for (int f = static_cast<int>(ir::MathFn::Acos); f <= static_cast<int>(ir::MathFn::Rhypot); ++f) {
      const std::string n(ir::mathFnName(static_cast<ir::MathFn>(f)));
      v.emplace_back(n, "libdevice." + n);
    }
    return v;
  }();
  return names;
}

const std::vector<std::string>& tlDTypeNames() {
  static const std::vector<std::string> names = {"int1",   "int8",   "int16",      "int32",    "int64",
                                                 "uint8",  "uint16", "uint32",     "uint64",   "float8e4nv",
                                                 "float8e5", "float16", "bfloat16", "float32", "float64"};
  return names;
}

const std::vector<std::string>& mathNames() {
  static const std::vector<std::string> names = {"exp",  "exp2",  "log",   "log2", "sqrt", "sqrt_rn", "rsqrt",
                                                 "abs",  "sin",   "cos",   "floor", "ceil", "erf",    "fma",
                                                 "fdiv", "div_rn", "umulhi", "tanh", "cdiv"};
  return names;
}

const std::vector<std::pair<std::string, ir::DType>>& torchDTypes() {
  using ir::DType;
  static const std::vector<std::pair<std::string, DType>> names = {
      {"bool", DType::I1},          {"int8", DType::I8},       {"int16", DType::I16},   {"short", DType::I16},
      {"int32", DType::I32},        {"int", DType::I32},       {"int64", DType::I64},   {"long", DType::I64},
      {"uint8", DType::U8},         {"uint16", DType::U16},    {"uint32", DType::U32},  {"uint64", DType::U64},
      {"float16", DType::FP16},     {"half", DType::FP16},     {"bfloat16", DType::BF16}, {"float32", DType::FP32},
      {"float", DType::FP32},       {"float64", DType::FP64},  {"double", DType::FP64},
      {"float8_e4m3fn", DType::FP8E4NV}, {"float8_e5m2", DType::FP8E5},
  };
  return names;
}

const std::vector<std::string>& methodNames() {
  static const std::vector<std::string> names = {
      "to",         "cast",       "sum",        "max",        "min",        "argmax",     "argmin",
      "xor_sum",    "cumsum",     "cumprod",    "exp",        "exp2",       "log",        "log2",
      "sqrt",       "sqrt_rn",    "rsqrt",      "abs",        "sin",        "cos",        "floor",
      "ceil",       "erf",        "sigmoid",    "ravel",      "reshape",    "view",       "trans",
      "permute",    "expand_dims", "broadcast_to", "cdiv",    "atomic_add", "atomic_max", "atomic_min",
      "atomic_xchg", "atomic_and", "atomic_or", "atomic_xor", "atomic_cas"};
  return names;
}

const std::vector<std::string>& dtypeMethodNames() {
  static const std::vector<std::string> names = {
      "is_floating", "is_int",  "is_int_signed", "is_int_unsigned", "is_bool", "is_fp8",  "is_fp16",
      "is_bf16",     "is_fp32", "is_fp64",       "is_int1",         "is_int8", "is_int16", "is_int32",
      "is_int64",    "is_uint8", "is_uint16",    "is_uint32",       "is_uint64", "is_ptr", "is_standard_floating"};
  return names;
}

}  // namespace

bool isKnownModule(const std::string& module) {
  return module == "triton" || module == kTritonLanguage || module == kMath || module == kPropagateNan ||
         module == kExtra || module == kExtraCuda || module == kLibdevice || module == "triton.language.extra.cuda.libdevice" ||
         module == "torch";
}

Value moduleValue(const std::string& dotted) {
  if (dotted == "triton.language.core" || dotted == "triton.language.standard") return Value::ofModule(kTritonLanguage);
  if (dotted == "triton.language.extra.cuda.libdevice") return Value::ofModule(kLibdevice);
  return Value::ofModule(dotted);
}

std::optional<Value> moduleMember(const std::string& module, const std::string& attr) {
  if (module == kTritonLanguage) {
    for (const std::string& d : tlDTypeNames())
      if (d == attr) return Value::ofConst(ConstValue::dtype(*ir::parseDType(d)));
    if (attr == "math") return Value::ofModule(kMath);
    if (attr == "extra") return Value::ofModule(kExtra);
    if (attr == "core" || attr == "standard") return Value::ofModule(kTritonLanguage);
    if (attr == "PropagateNan") return Value::ofModule(kPropagateNan);
    if (attr == "TRITON_MAX_TENSOR_NUMEL") return Value::ofConst(ConstValue::integer(ir::kMaxTileNumel));
    if (BuiltinRegistry::instance().find("tl." + attr)) return Value::ofBuiltin("tl." + attr);
    return std::nullopt;
  }
  if (module == kMath) {
    if (std::find(mathNames().begin(), mathNames().end(), attr) == mathNames().end()) return std::nullopt;
    const std::string name = attr == "tanh" ? "tl.math.tanh" : "tl." + attr;
    return Value::ofBuiltin(name);
  }
  if (module == kPropagateNan) {
    if (attr == "ALL" || attr == "NONE") return Value::ofConst(ConstValue::string("PropagateNan." + attr));
    return std::nullopt;
  }
  if (module == kExtra || module == kExtraCuda) {
    if (attr == "cuda" && module == kExtra) return Value::ofModule(kExtraCuda);
    if (attr == "libdevice") return Value::ofModule(kLibdevice);
    return std::nullopt;
  }
  if (module == kLibdevice) {
    for (const auto& [name, builtin] : libdeviceNames())
      if (name == attr) return Value::ofBuiltin(builtin);
    return std::nullopt;
  }
  if (module == "triton") {
    if (attr == "language") return Value::ofModule(kTritonLanguage);
    if (attr == "testing" || attr == "runtime" || attr == "compiler") return Value::ofModule("triton." + attr);
    for (const char* n : {"jit", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2"})
      if (attr == n) return Value::ofBuiltin("triton." + attr);
    return std::nullopt;
  }
  if (module == "torch") {
    for (const auto& [n, t] : torchDTypes())
      if (n == attr) return Value::ofConst(ConstValue::dtype(t));
    return std::nullopt;
  }
  // A module tilescope does not know: its functions run on the host when a kernel calls them.
  return Value::ofHostFunction(module + "." + attr);
}

std::vector<std::string> moduleMemberNames(const std::string& module) {
  std::vector<std::string> out;
  if (module == kTritonLanguage) {
    out = BuiltinRegistry::instance().tlNames();
    out.erase(std::remove_if(out.begin(), out.end(), [](const std::string& s) { return s.find('.') != std::string::npos; }),
              out.end());
    out.insert(out.end(), tlDTypeNames().begin(), tlDTypeNames().end());
    for (const char* n : {"math", "PropagateNan", "TRITON_MAX_TENSOR_NUMEL"}) out.emplace_back(n);
  } else if (module == kMath) {
    out = mathNames();
  } else if (module == "triton") {
    out = {"jit", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2", "language", "testing"};
  } else if (module == "torch") {
    for (const auto& [n, t] : torchDTypes()) out.push_back(n);
  } else if (module == kPropagateNan) {
    out = {"ALL", "NONE"};
  } else if (module == kExtra || module == kExtraCuda) {
    out = {"libdevice"};
    if (module == kExtra) out.emplace_back("cuda");
  } else if (module == kLibdevice) {
    for (const auto& [name, builtin] : libdeviceNames()) out.push_back(name);
  }
  return out;
}

std::optional<Value> pythonBuiltin(const std::string& name) {
  for (const std::string& n : pythonBuiltinNames())
    if (n == name) return Value::ofBuiltin(name);
  return std::nullopt;
}

std::vector<std::string> pythonBuiltinNames() {
  return {"range", "min", "max", "float", "int", "bool", "len", "print", "abs"};
}

bool isTensorMethod(const std::string& name) {
  return std::find(methodNames().begin(), methodNames().end(), name) != methodNames().end();
}

std::vector<std::string> tensorMethodNames() { return methodNames(); }

std::string tensorMethodBuiltin(const std::string& method) {
  if (method == "to") return "tensor.to";
  return "tl." + method;
}

bool isDTypeMethod(const std::string& name) {
  return std::find(dtypeMethodNames().begin(), dtypeMethodNames().end(), name) != dtypeMethodNames().end();
}

bool dtypePredicate(const DTypeValue& d, const std::string& m) {
  using ir::DType;
  if (m == "is_ptr") return d.isPointer;
  if (d.isPointer) return false;
  const DType t = d.dtype;
  if (m == "is_floating") return ir::isFloat(t);
  if (m == "is_standard_floating") return t == DType::FP16 || t == DType::BF16 || t == DType::FP32 || t == DType::FP64;
  if (m == "is_int") return ir::isInt(t);
  if (m == "is_int_signed") return ir::isSignedInt(t);
  if (m == "is_int_unsigned") return ir::isUnsignedInt(t);
  if (m == "is_bool" || m == "is_int1") return t == DType::I1;
  if (m == "is_fp8") return ir::isFp8(t);
  const std::string suffix = m.substr(3);  // "fp16", "int8", "uint32", ...
  if (auto parsed = ir::parseDType(suffix)) return *parsed == t;
  return false;
}

Value callBuiltin(ExprChecker& ec, const std::string& name, CallArgs& args) {
  const BuiltinEntry* entry = BuiltinRegistry::instance().find(name);
  if (!entry) throw InternalError("no builtin named " + name);
  BoundArgs bound = BuiltinRegistry::bind(ec, *entry, args);
  return entry->handler(ec, bound);
}

}  // namespace tilescope::lang
