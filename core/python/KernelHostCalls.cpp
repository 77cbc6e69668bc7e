#include "core/python/KernelHostCalls.h"

#include "core/python/Containers.h"
#include "core/python/LaunchContext.h"
#include "core/sim/TileFormat.h"

namespace tilescope::host {

namespace {

struct HostCallState {
  std::optional<PyError> pending;
  std::string kernel;
};

Value constantToValue(const ir::Constant& c) {
  if (c.isBool()) return Value::boolean(c.asBool());
  if (c.isInt()) return Value::integer(c.asInt());
  if (c.isFloat()) return Value::real(c.asFloat());
  if (c.isString()) return makeStr(c.asString());
  if (c.isDType()) return makeStr(std::string(ir::dtypeName(c.asDType())));
  return Value();
}

Value argValue(const sim::HostCallValue& v) {
  switch (v.kind) {
    case ir::HostArg::Kind::Value: return makeObject<TileArray>(v.value);
    case ir::HostArg::Kind::Constant: return constantToValue(v.constant);
    case ir::HostArg::Kind::Format: return makeStr(v.text);
  }
  return Value();
}

std::string formatted(const sim::Tile& t) {
  sim::TileFormatOptions o;
  // Triton's interpreter gives programs 1-element arrays for scalars (pid prints as "[0]").
  o.scalarAsArray = true;
  return sim::formatTile(t, o);
}

}  // namespace

// ------------------------------------------------------------------------------ TileArray

std::string TileArray::str(LaunchContext&) const { return formatted(*tile); }

std::string TileArray::repr(LaunchContext&) const {
  // numpy: array([0, 1]) - the str form with commas between elements.
  std::string s = formatted(*tile), out = "array(";
  for (size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if (s[i] != ' ' && s[i] != '[' && i + 1 < s.size() && s[i + 1] == ' ') out += ',';
  }
  return out + ")";
}

bool TileArray::truthy(LaunchContext&) const {
  if (tile->numel() != 1) {
    throw PyError("ValueError", "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  }
  return tile->asBool(0);
}

std::optional<Value> TileArray::number(LaunchContext&) const {
  if (tile->numel() != 1) return std::nullopt;
  if (tile->hasFloatStorage()) return Value::real(tile->asDouble(0));
  if (tile->dtype() == ir::DType::I1 && !tile->isPointer()) return Value::boolean(tile->asBool(0));
  return Value::integer(tile->asInt(0));
}

std::optional<Value> TileArray::getItem(LaunchContext& in, const Value& index) {
  // pid_0[0] in the seed's test_pid_conds: element access on a 1-D (or scalar) array.
  const int64_t n = tile->numel();
  const int64_t i = normalizeIndex(in, index, tile->isScalar() ? 1 : tile->shape()[0], "index");
  if (tile->rank() > 1) throw PyError("IndexError", "indexing multi-dimensional tiles from host code is not supported");
  (void)n;
  if (tile->hasFloatStorage()) return Value::real(tile->asDouble(i));
  if (tile->dtype() == ir::DType::I1) return Value::boolean(tile->asBool(i));
  return Value::integer(tile->asInt(i));
}

std::optional<int64_t> TileArray::length(LaunchContext&) const { return tile->isScalar() ? 1 : tile->shape()[0]; }

std::optional<Value> TileArray::getAttr(LaunchContext&, const std::string& name) {
  if (name == "shape") {
    ValueList dims;
    if (tile->isScalar()) dims.push_back(Value::integer(1));
    for (int64_t d : tile->shape()) dims.push_back(Value::integer(d));
    return makeTuple(std::move(dims));
  }
  if (name == "dtype") return makeStr(std::string(ir::dtypePythonName(tile->dtype())));
  return std::nullopt;
}

std::optional<Value> TileArray::compare(LaunchContext& in, CmpOp op, const Value& other) {
  if (tile->numel() != 1) return std::nullopt;
  return in.compare(op, *number(in), other);
}

// ------------------------------------------------------------------------------ host calls

void KernelHostCalls::setCurrentKernel(LaunchContext& in, const std::string& name) { in.extension<HostCallState>().kernel = name; }

std::optional<PyError> KernelHostCalls::takePendingError(LaunchContext& in) {
  HostCallState& s = in.extension<HostCallState>();
  std::optional<PyError> e = std::move(s.pending);
  s.pending.reset();
  return e;
}

std::string KernelHostCalls::call(LaunchContext& in, const sim::HostCallEvent& event) {
  HostCallState& state = in.extension<HostCallState>();
  const Value* callee = in.hostFunction(event.callee);
  if (!callee) return "name '" + event.callee + "' is not defined (a kernel can call plain Python functions defined in the notebook)";
  CallArgs args;
  for (const sim::HostCallValue& a : event.args) args.positional.push_back(argValue(a));
  for (const auto& [k, a] : event.kwargs) args.keywords.emplace_back(k, argValue(a));
  try {
    in.call(*callee, args);
    return "";
  } catch (PyError& e) {
    const std::string message = e.type() + ": " + e.message();
    state.pending = std::move(e);
    return message;
  }
}

}  // namespace tilescope::host
