// tl.make_tensor_descriptor and the accesses through a descriptor (desc.load / desc.store /
// desc.atomic_*, tl.load_tensor_descriptor, tl.store_tensor_descriptor), with Triton 3.6's checks:
// rank 1..5, a contiguous last dim, power-of-two block dims of at least 16 bytes in the last one.
// What TMA needs of the runtime values (a 16-byte aligned base, 16-byte multiples as leading
// strides) is checked by device assertions at the make_tensor_descriptor call.
#include <cmath>

#include "core/kernel/BuiltinRegistry.h"
#include "core/kernel/TensorDescriptor.h"

namespace tilescope::lang {

namespace {

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// A list/tuple of constexpr ints or integer scalars with `rank` entries (any count when rank is 0).
ValueList integerList(ExprChecker& ec, const BoundArgs& a, const std::string& param, size_t rank) {
  const Value& v = a.get(param);
  if (!v.isTuple())
    ec.error(a.range(param), a.name() + " " + param + " must be a list with one entry per dimension, not " + v.describe());
  if (rank != 0 && v.elements.size() != rank)
    ec.error(a.range(param), a.name() + " " + param + " has " + std::to_string(v.elements.size()) +
                                 (v.elements.size() == 1 ? " entry" : " entries") + " but the descriptor has " + std::to_string(rank) +
                                 " dimensions; give one per dimension");
  for (const Value& e : v.elements) {
    const bool constInt = e.isConst() && e.constant.isIntegral();
    const bool scalarInt = e.isTensor() && e.expr.type().isScalar() && ir::isInt(e.expr.type().dtype());
    if (!constInt && !scalarInt)
      ec.error(a.range(param), a.name() + " " + param + " entries must be integers (constexprs or integer scalars), not " +
                                   e.describe());
  }
  return v.elements;
}

// A device assertion that `cond` holds, reported at the call with `message`.
void assertAtCall(ExprChecker& ec, const BoundArgs& a, const Value& cond, const std::string& message) {
  ec.emitter().emit(ir::Assert::make(ec.toBool(cond.expr, a.callRange()), message, a.callRange()));
}

Value makeTensorDescriptor(ExprChecker& ec, const BoundArgs& a) {
  const std::string name = a.name();
  TensorDescriptor td;
  td.base = a.get("base");
  if (!td.base.isTensor() || !td.base.expr.type().isPointer() || !td.base.expr.type().isScalar()) {
    // `tilescope-cli check` infers parameter kinds: this parameter should have been a pointer.
    if (td.base.isTensor() && !td.base.expr.type().isPointer())
      if (auto p = builtin::rootParameter(ec.ctx(), td.base.expr)) ec.ctx().pointerDemand = *p;
    ec.error(a.range("base"), name + " base must be a pointer (a kernel's tensor argument), not " + td.base.describe());
  }
  td.blockShape = ec.requireShape(a.get("block_shape"), a.range("block_shape"), name + " block_shape");
  const size_t rank = td.blockShape.size();
  if (rank < 1 || rank > 5)
    ec.error(a.range("block_shape"), name + " supports 1 to 5 dimensions, as in Triton; block_shape has " + std::to_string(rank));
  for (int64_t d : td.blockShape)
    if (!isPowerOfTwo(d))
      ec.error(a.range("block_shape"), name + " block_shape " + ir::shapeString(td.blockShape) +
                                           " must have power-of-two dimensions, like every Triton block");
  if (std::string err = ir::tileSizeError(td.blockShape, "a tensor descriptor's block"); !err.empty()) ec.error(a.range("block_shape"), err);
  const int64_t elemBytes = ir::bitWidth(td.dtype()) / 8;
  if (elemBytes == 0) ec.error(a.range("base"), name + " needs byte-sized elements, not " + std::string(ir::dtypeName(td.dtype())));
  if (td.blockShape.back() * elemBytes < 16)
    ec.error(a.range("block_shape"), name + " block_shape needs at least 16 bytes in the last dimension (TMA's minimum), but " +
                                         std::to_string(td.blockShape.back()) + " * " + std::to_string(elemBytes) + " = " +
                                         std::to_string(td.blockShape.back() * elemBytes) + " bytes; make block_shape[-1] at least " +
                                         std::to_string(16 / elemBytes));
  td.shape = integerList(ec, a, "shape", rank);
  td.strides = integerList(ec, a, "strides", rank);
  const std::string padding = a.given("padding_option") ? ec.requireConstString(a.get("padding_option"), a.range("padding_option"),
                                                                                  name + " padding_option")
                                                        : "zero";
  if (padding != "zero" && padding != "nan")
    ec.error(a.range("padding_option"), name + " padding_option must be 'zero' or 'nan', not '" + padding + "'");
  if (padding == "nan" && !ir::isFloat(td.dtype()))
    ec.error(a.range("padding_option"), name + " padding_option 'nan' needs floating-point elements, not " +
                                            std::string(ir::dtypeName(td.dtype())));
  td.padNan = padding == "nan";

  // The last dim must be contiguous; the other strides must keep rows 16-byte aligned.
  const Value& last = td.strides.back();
  if (last.isConst() && last.constant.asInt() != 1)
    ec.error(a.range("strides"), name + " strides[-1] must be 1 (the last dimension contiguous), but it is " +
                                     std::to_string(last.constant.asInt()) + "; transpose the tensor or describe it with its contiguous dimension last");
  const Value zero = Value::ofConst(ConstValue::integer(0)), sixteen = Value::ofConst(ConstValue::integer(16));
  if (!last.isConst())
    assertAtCall(ec, a, ec.compare(ir::BinaryOp::Eq, last, Value::ofConst(ConstValue::integer(1)), a.callRange()),
                 name + ": strides[-1] must be 1 (the last dimension contiguous); transpose the tensor or describe it with its contiguous dimension last");
  for (size_t d = 0; d + 1 < rank; ++d) {
    const Value& s = td.strides[d];
    const std::string what = "strides[" + std::to_string(d) + "] * " + std::to_string(elemBytes) +
                             " bytes must be a multiple of 16 (TMA's row alignment); pad the rows of the tensor to a multiple of " +
                             std::to_string(16 / std::max<int64_t>(elemBytes, 1)) + " elements";
    if (s.isConst()) {
      if (s.constant.asInt() * elemBytes % 16 != 0) ec.error(a.range("strides"), name + " " + what);
      continue;
    }
    const Value bytes = ec.binary(ir::BinaryOp::Mul, Value::ofTensor(ec.tensorAs(s, ir::DType::I64, a.range("strides"), "a stride")),
                                  Value::ofConst(ConstValue::integer(elemBytes)), a.callRange());
    assertAtCall(ec, a, ec.compare(ir::BinaryOp::Eq, ec.binary(ir::BinaryOp::Mod, bytes, sixteen, a.callRange()), zero, a.callRange()),
                 name + ": " + what);
  }
  const Value address = Value::ofTensor(ir::Cast::make(td.base.expr, ir::DType::I64, false, false, ir::RoundingMode::None, a.range("base")));
  assertAtCall(ec, a, ec.compare(ir::BinaryOp::Eq, ec.binary(ir::BinaryOp::Mod, address, sixteen, a.callRange()), zero, a.callRange()),
               name + ": base must be 16-byte aligned (TMA needs it); pass a tensor (or an offset into one) whose address is a multiple of 16");
  return td.toValue();
}

TensorDescriptor descriptorArg(ExprChecker& ec, const BoundArgs& a) {
  const Value& v = a.get("desc");
  if (!v.isTensorDescriptor())
    ec.error(a.range("desc"), a.name() + " needs a tensor descriptor made by tl.make_tensor_descriptor, not " + v.describe());
  return TensorDescriptor::of(v);
}

// The box at `offsets`: its pointer tile and the mask of its in-bounds elements.
BlockAccess boxAccess(ExprChecker& ec, const BoundArgs& a, const TensorDescriptor& td) {
  const ValueList offsets = integerList(ec, a, "offsets", td.rank());
  std::vector<int64_t> allDims;
  for (size_t d = 0; d < td.rank(); ++d) allDims.push_back(static_cast<int64_t>(d));
  return lowerBlockPointer(ec, td.box(offsets), allDims, a.callRange());
}

// The box as the IR describes it for TMA (ir::TensorBox): the same elements as the access.
std::shared_ptr<const ir::TensorBox> boxOf(ExprChecker& ec, const BoundArgs& a, const TensorDescriptor& td) {
  auto box = std::make_shared<ir::TensorBox>();
  box->base = td.base.expr;
  box->block = td.blockShape;
  box->padNan = td.padNan;
  const ValueList offsets = integerList(ec, a, "offsets", td.rank());
  for (size_t d = 0; d < td.rank(); ++d) {
    box->shape.push_back(ec.tensorAs(td.shape[d], ir::DType::I64, a.range("desc"), "a descriptor's shape"));
    box->strides.push_back(ec.tensorAs(td.strides[d], ir::DType::I64, a.range("desc"), "a descriptor's stride"));
    box->offsets.push_back(ec.tensorAs(offsets[d], ir::DType::I64, a.range("offsets"), "a box offset"));
  }
  return box;
}

Value descriptorLoad(ExprChecker& ec, const BoundArgs& a) {
  const TensorDescriptor td = descriptorArg(ec, a);
  const BlockAccess access = boxAccess(ec, a, td);
  const Value fill = Value::ofConst(td.padNan ? ConstValue::floating(std::nan("")) : ConstValue::integer(0));
  ir::Expr other = Emitter::broadcastTo(ec.tensorAs(fill, td.dtype(), a.callRange(), "the padding"), td.blockShape, a.callRange());
  ir::Expr load = ir::Load::make(access.pointers, access.mask, other, a.callRange(), ir::CacheModifier::None,
                                 ir::EvictionPolicy::Normal, false, boxOf(ec, a, td));
  return Value::ofTensor(ec.emitter().effect(load, a.callRange()));
}

// The value a store or atomic writes: exactly the block's shape (Triton does not broadcast it),
// cast to the descriptor's dtype.
ir::Expr boxValue(ExprChecker& ec, const BoundArgs& a, const TensorDescriptor& td) {
  ir::Expr v = ec.tensorAs(a.get("value"), td.dtype(), a.range("value"), a.name() + " value");
  if (v.type().shape() != td.blockShape)
    ec.error(a.range("value"), a.name() + " value has shape " + ir::shapeString(v.type().shape()) + " but the descriptor's block_shape is " +
                                   ir::shapeString(td.blockShape) + "; store a whole block");
  return v;
}

Value descriptorStore(ExprChecker& ec, const BoundArgs& a) {
  const TensorDescriptor td = descriptorArg(ec, a);
  const BlockAccess access = boxAccess(ec, a, td);
  ec.emitter().emit(ir::Store::make(access.pointers, boxValue(ec, a, td), access.mask, a.callRange()));
  return Value::ofConst(ConstValue::none());
}

void addDescriptorAtomic(BuiltinRegistry& r, const std::string& op, ir::AtomicOp atomic, std::vector<ir::DType> dtypes) {
  r.add("tensor_descriptor." + op, "desc, offsets, value", [atomic, dtypes, op](ExprChecker& ec, const BoundArgs& a) {
    const TensorDescriptor td = descriptorArg(ec, a);
    if (std::find(dtypes.begin(), dtypes.end(), td.dtype()) == dtypes.end()) {
      std::string names;
      for (ir::DType t : dtypes) names += (names.empty() ? "" : ", ") + std::string(ir::dtypeName(t));
      ec.error(a.callRange(), "tensor descriptor " + op + " supports " + names + " elements, not " + std::string(ir::dtypeName(td.dtype())));
    }
    const BlockAccess access = boxAccess(ec, a, td);
    ir::Expr rmw = ir::AtomicRMW::make(atomic, access.pointers, boxValue(ec, a, td), access.mask, a.callRange());
    ec.emitter().effect(rmw, a.callRange());
    return Value::ofConst(ConstValue::none());
  });
}

}  // namespace

void registerTensorDescriptorBuiltins(BuiltinRegistry& r) {
  r.add("tl.make_tensor_descriptor", "base, shape, strides, block_shape, padding_option='zero'", makeTensorDescriptor);
  r.add("tl.load_tensor_descriptor", "desc, offsets", descriptorLoad);
  r.add("tl.store_tensor_descriptor", "desc, offsets, value", descriptorStore);
  r.add("tensor_descriptor.load", "desc, offsets", descriptorLoad);
  r.add("tensor_descriptor.store", "desc, offsets, value", descriptorStore);
  using ir::DType;
  // Triton 3.6's dtype sets (semantic.py); fp16/bf16 min/max need native TMA there and are left out.
  addDescriptorAtomic(r, "atomic_add", ir::AtomicOp::Add, {DType::U32, DType::I32, DType::U64, DType::FP32, DType::FP16, DType::BF16});
  for (auto [op, atomic] : {std::pair{"atomic_min", ir::AtomicOp::Min}, std::pair{"atomic_max", ir::AtomicOp::Max},
                            std::pair{"atomic_and", ir::AtomicOp::And}, std::pair{"atomic_or", ir::AtomicOp::Or},
                            std::pair{"atomic_xor", ir::AtomicOp::Xor}})
    addDescriptorAtomic(r, op, atomic, {DType::U32, DType::I32, DType::U64, DType::I64});
}

}  // namespace tilescope::lang
