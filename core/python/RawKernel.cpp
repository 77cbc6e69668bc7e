#include "core/python/RawKernel.h"

#include <cstring>
#include <regex>
#include <sstream>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/Containers.h"
#include "core/python/DeviceMemory.h"
#include "core/python/ExecutionBackend.h"
#include "core/python/LaunchContext.h"
#include "core/python/PyError.h"
#include "core/python/TorchConvert.h"

namespace tilescope::host {

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// Drops // and /* */ comments so they cannot hide or fake a signature.
std::string withoutComments(const std::string& code) {
  std::string out;
  for (size_t i = 0; i < code.size(); ++i) {
    if (code.compare(i, 2, "//") == 0) {
      while (i < code.size() && code[i] != '\n') ++i;
      out += '\n';
    } else if (code.compare(i, 2, "/*") == 0) {
      const size_t end = code.find("*/", i + 2);
      i = end == std::string::npos ? code.size() : end + 1;
      out += ' ';
    } else {
      out += code[i];
    }
  }
  return out;
}

std::optional<RawKernelParam> parseParam(const std::string& declaration) {
  RawKernelParam p;
  p.text = trim(declaration);
  std::string d = p.text;
  for (char& c : d)
    if (c == '*' || c == '&') c = c == '*' ? '*' : ' ';
  const bool pointer = d.find('*') != std::string::npos;
  for (char& c : d)
    if (c == '*') c = ' ';
  std::istringstream words(d);
  std::vector<std::string> type;
  for (std::string w; words >> w;) {
    if (w == "const" || w == "volatile" || w == "__restrict__" || w == "__restrict" || w == "restrict") continue;
    type.push_back(w);
  }
  if (type.empty()) return std::nullopt;
  // The last word is the name unless the declaration is unnamed ("int", "float*").
  static const std::vector<std::string> typeWords = {"int", "unsigned", "signed", "long", "short", "char", "float", "double",
                                                     "bool", "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t",
                                                     "uint8_t", "uint16_t", "uint32_t", "uint64_t", "__half", "half",
                                                     "__nv_bfloat16", "void"};
  if (type.size() > 1 && std::find(typeWords.begin(), typeWords.end(), type.back()) == typeWords.end()) {
    p.name = type.back();
    type.pop_back();
  }
  if (pointer) {
    p.kind = RawKernelParam::Kind::Pointer;
    p.bytes = 8;
    return p;
  }
  auto has = [&](const char* w) { return std::find(type.begin(), type.end(), w) != type.end(); };
  const int longs = static_cast<int>(std::count(type.begin(), type.end(), std::string("long")));
  const std::string& t = type.back();
  using K = RawKernelParam::Kind;
  if (has("float")) p = {K::Float, 4, p.name, p.text};
  else if (has("double")) p = {K::Float, 8, p.name, p.text};
  else if (has("bool")) p = {K::Bool, 1, p.name, p.text};
  else if (t == "size_t" || t == "uint64_t") p = {K::UnsignedInt, 8, p.name, p.text};
  else if (t == "ptrdiff_t" || t == "int64_t") p = {K::SignedInt, 8, p.name, p.text};
  else if (t == "int32_t") p = {K::SignedInt, 4, p.name, p.text};
  else if (t == "uint32_t") p = {K::UnsignedInt, 4, p.name, p.text};
  else if (t == "int16_t") p = {K::SignedInt, 2, p.name, p.text};
  else if (t == "uint16_t") p = {K::UnsignedInt, 2, p.name, p.text};
  else if (t == "int8_t") p = {K::SignedInt, 1, p.name, p.text};
  else if (t == "uint8_t") p = {K::UnsignedInt, 1, p.name, p.text};
  else if (has("char")) p = {has("unsigned") ? K::UnsignedInt : K::SignedInt, 1, p.name, p.text};
  else if (has("short")) p = {has("unsigned") ? K::UnsignedInt : K::SignedInt, 2, p.name, p.text};
  else if (longs >= 1) p = {has("unsigned") ? K::UnsignedInt : K::SignedInt, 8, p.name, p.text};  // LP64: long is 8 bytes
  else if (has("int") || has("unsigned") || has("signed")) p = {has("unsigned") ? K::UnsignedInt : K::SignedInt, 4, p.name, p.text};
  else return std::nullopt;  // a struct or half by value: not supported
  return p;
}

}  // namespace

std::optional<std::vector<RawKernelParam>> parseRawKernelSignature(const std::string& code, const std::string& name,
                                                                   std::string* error) {
  const std::string clean = withoutComments(code);
  const std::regex head("__global__\\s+(?:__launch_bounds__\\s*\\([^)]*\\)\\s*)?void\\s+(?:__launch_bounds__\\s*\\([^)]*\\)\\s*)?" +
                        name + "\\s*\\(([^)]*)\\)");
  std::smatch m;
  if (name.empty() || !std::regex_search(clean, m, head)) {
    if (error) *error = "the code has no `__global__ void " + name + "(...)`";
    return std::nullopt;
  }
  std::vector<RawKernelParam> params;
  const std::string list = trim(m[1].str());
  if (list.empty() || list == "void") return params;
  std::stringstream ss(list);
  for (std::string part; std::getline(ss, part, ',');) {
    std::optional<RawKernelParam> p = parseParam(part);
    if (!p) {
      if (error) *error = "parameter `" + trim(part) + "` of '" + name + "' has a type RawKernel cannot pass (use a pointer or a scalar number type)";
      return std::nullopt;
    }
    params.push_back(*p);
  }
  return params;
}

namespace {

std::vector<int64_t> dims3(LaunchContext& in, const Value& v, const char* what) {
  std::vector<int64_t> d;
  if (v.isIntLike()) d.push_back(v.asInt());
  else
    for (const Value& x : in.toList(v)) d.push_back(in.toIndex(x, what));
  if (d.empty() || d.size() > 3) throwValueError(std::string("RawKernel: ") + what + " must be an int or a tuple of 1 to 3 ints");
  for (int64_t x : d)
    if (x <= 0) throwValueError(std::string("RawKernel: every ") + what + " dimension must be positive, got " + std::to_string(x));
  while (d.size() < 3) d.push_back(1);
  return d;
}

class RawKernelObject : public Object {
public:
  RawKernelObject(std::string code, std::string name, std::vector<std::string> options)
      : code_(std::move(code)), name_(std::move(name)), options_(std::move(options)) {}
  std::string typeName() const override { return "RawKernel"; }
  std::string repr(LaunchContext&) const override { return "<cupy.RawKernel '" + name_ + "'>"; }
  bool callable() const override { return true; }

  std::optional<Value> getAttr(LaunchContext& in, const std::string& attr) override {
    if (attr == "name") return makeStr(name_);
    if (attr == "code") return makeStr(code_);
    if (attr == "options") {
      ValueList o;
      for (const std::string& s : options_) o.push_back(makeStr(s));
      return makeTuple(std::move(o));
    }
    return Object::getAttr(in, attr);
  }

  // kernel(grid, block, args, shared_mem=0)
  Value call(LaunchContext& in, CallArgs& args) override {
    std::optional<Value> sharedArg = args.takeKeyword("shared_mem");
    std::optional<Value> gridArg = args.takeKeyword("grid"), blockArg = args.takeKeyword("block"), argsArg = args.takeKeyword("args");
    ValueList& pos = args.positional;
    if (!gridArg && !pos.empty()) gridArg = pos.size() > 0 ? pos[0] : Value();
    if (!blockArg && pos.size() > 1) blockArg = pos[1];
    if (!argsArg && pos.size() > 2) argsArg = pos[2];
    if (!args.keywords.empty()) throwTypeError("RawKernel.__call__() got an unexpected keyword argument '" + args.keywords[0].first + "'");
    if (!gridArg || !blockArg || !argsArg) throwTypeError("RawKernel.__call__() takes (grid, block, args, shared_mem=0)");
    const std::vector<int64_t> grid = dims3(in, *gridArg, "grid"), block = dims3(in, *blockArg, "block");
    const int shared = sharedArg ? static_cast<int>(in.toIndex(*sharedArg, "shared_mem")) : 0;
    const ValueList values = in.toList(*argsArg);

    gpu::GpuRuntime* runtime = backendOf(in).gpuRuntime();
    if (!runtime)
      throw PyError("RuntimeError",
                    "cupy.RawKernel '" + name_ + "' is CUDA C++ and runs only on the GPU backend; the simulator runs "
                    "@triton.jit kernels. " +
                        (gpuUsable() ? std::string("Choose the GPU backend (tilescope-cli run --backend gpu, or the toolbar's backend menu).")
                                     : "This machine has no usable GPU: " + gpuUnusableReason()));
    if (!signatureParsed_) {  // once per kernel object: the code never changes
      params_ = parseRawKernelSignature(code_, name_, &signatureError_);
      signatureParsed_ = true;
    }
    const std::optional<std::vector<RawKernelParam>>& params = params_;
    if (!params) throwValueError("RawKernel '" + name_ + "': " + signatureError_);
    if (params->size() != values.size())
      throwTypeError("RawKernel '" + name_ + "' takes " + std::to_string(params->size()) + " arguments (" + signature(*params) +
                     "), " + std::to_string(values.size()) + " given");
    if (block[0] * block[1] * block[2] > 1024)
      throwValueError("RawKernel '" + name_ + "': a block has at most 1024 threads, got " +
                      std::to_string(block[0] * block[1] * block[2]));

    std::vector<std::vector<unsigned char>> bytes;
    std::vector<std::shared_ptr<Storage>> written;
    try {
      const auto module = runtime->compileRaw(code_, name_, options_);
      for (size_t i = 0; i < values.size(); ++i) bytes.push_back(argumentBytes(in, (*params)[i], values[i], i, written));
      runtime->launchRaw(*module, grid.data(), block.data(), shared, bytes);
    } catch (const gpu::GpuError& e) {
      throw PyError("RuntimeError", e.what());
    }
    for (const auto& s : written) {
      DeviceMemory::markDeviceNewer(*s);
      if (!s->fullyInitialised()) s->markAllWritten();
    }
    return Value();
  }

private:
  static std::string signature(const std::vector<RawKernelParam>& params) {
    std::string s;
    for (const RawKernelParam& p : params) s += (s.empty() ? "" : ", ") + p.text;
    return s;
  }

  std::vector<unsigned char> argumentBytes(LaunchContext& in, const RawKernelParam& p, const Value& v, size_t index,
                                           std::vector<std::shared_ptr<Storage>>& written) {
    const std::string what = "argument " + std::to_string(index) + " (`" + p.text + "`) of RawKernel '" + name_ + "'";
    std::vector<unsigned char> out(static_cast<size_t>(p.bytes), 0);
    if (p.kind == RawKernelParam::Kind::Pointer) {
      const Tensor* t = tensorOf(v);
      if (!t) throwTypeError(what + " is a pointer: pass a tensor, not " + in.repr(v));
      if (!t->device().isCuda())
        throwValueError(what + " is on the " + t->device().str() + "; create it with device='cuda'");
      const uint64_t address = DeviceMemory::addressFor(*t->storage(), "RawKernel '" + name_ + "'") +
                               static_cast<uint64_t>(t->storageOffset() * t->elementSize());
      written.push_back(t->storage());
      std::memcpy(out.data(), &address, 8);
      return out;
    }
    if (!v.isNumber()) throwTypeError(what + " is a number: pass an int or float, not " + in.repr(v));
    switch (p.kind) {
      case RawKernelParam::Kind::Float:
        if (p.bytes == 4) {
          const float f = static_cast<float>(v.asFloat());
          std::memcpy(out.data(), &f, 4);
        } else {
          const double d = v.asFloat();
          std::memcpy(out.data(), &d, 8);
        }
        break;
      case RawKernelParam::Kind::Bool: out[0] = v.asFloat() != 0; break;
      default: {
        if (v.isFloat()) throwTypeError(what + " is an integer: pass an int, not " + in.repr(v));
        const int64_t x = v.asInt();
        const int bits = p.bytes * 8;
        const bool fits = p.bytes == 8 ? (p.kind == RawKernelParam::Kind::SignedInt || x >= 0)
                          : p.kind == RawKernelParam::Kind::SignedInt
                              ? x >= -(int64_t{1} << (bits - 1)) && x < (int64_t{1} << (bits - 1))
                              : x >= 0 && x < (int64_t{1} << bits);
        if (!fits) throwValueError(what + ": " + std::to_string(x) + " does not fit");
        std::memcpy(out.data(), &x, static_cast<size_t>(p.bytes));  // little-endian
      }
    }
    return out;
  }

  std::string code_, name_;
  std::vector<std::string> options_;
  bool signatureParsed_ = false;
  std::optional<std::vector<RawKernelParam>> params_;  // the __global__ function's parameters
  std::string signatureError_;                         // why they could not be read
};

}  // namespace

Value makeRawKernel(const std::string& code, const std::string& name, std::vector<std::string> options) {
  return Value(std::make_shared<RawKernelObject>(code, name, std::move(options)));
}

}  // namespace tilescope::host
