// tl.inline_asm_elementwise: PTX assembly applied to tensors elementwise (ir::InlineAsm). The checker
// validates what Triton would (constant text and constraints, dtypes, pack, one constraint per
// register); only the GPU backend can run it.
#include "core/kernel/BuiltinRegistry.h"
#include "core/ir/TypeRules.h"
#include "core/kernel/Emitter.h"

namespace tilescope::lang {

namespace {

// Comma-separated constraints, e.g. "=r,=r,r" -> 3.
size_t constraintCount(const std::string& constraints) {
  if (constraints.find_first_not_of(" \t\n") == std::string::npos) return 0;
  size_t n = 1;
  for (char c : constraints) n += c == ',';
  return n;
}

Value inlineAsm(ExprChecker& ec, const BoundArgs& a) {
  const std::string text = ec.requireConstString(a.get("asm"), a.range("asm"), "tl.inline_asm_elementwise asm");
  const std::string constraints = ec.requireConstString(a.get("constraints"), a.range("constraints"), "tl.inline_asm_elementwise constraints");
  const bool isPure = ec.requireConstBool(a.get("is_pure"), a.range("is_pure"), "tl.inline_asm_elementwise is_pure");
  const int64_t pack = ec.requireConstInt(a.get("pack"), a.range("pack"), "tl.inline_asm_elementwise pack");
  if (pack < 1 || pack > 16 || (pack & (pack - 1)) != 0)
    ec.error(a.range("pack"), "tl.inline_asm_elementwise pack must be a power of two from 1 to 16 (elements per asm instance), got " +
                                  std::to_string(pack));

  const Value& dt = a.get("dtype");
  const bool tupleResult = dt.isTuple();
  std::vector<ir::DType> dtypes;
  for (const Value& d : tupleResult ? dt.elements : ValueList{dt})
    dtypes.push_back(ec.requireDType(d, a.range("dtype"), "tl.inline_asm_elementwise dtype"));
  if (dtypes.empty())
    ec.error(a.range("dtype"), "tl.inline_asm_elementwise needs at least one result dtype (as in Triton, return a dummy value if you need none)");

  const Value& argsValue = a.get("args");
  std::vector<ir::Expr> args;
  for (const Value& v : argsValue.isTuple() ? argsValue.elements : ValueList{argsValue}) {
    ir::Expr e = ec.tensorOf(v, a.range("args"), "an argument of tl.inline_asm_elementwise");
    if (e.type().isPointer()) ec.error(a.range("args"), "tl.inline_asm_elementwise takes values, not pointers; load them first");
    args.push_back(e);
  }
  // Triton broadcasts the arguments to one shape.
  ir::Shape shape;
  for (const ir::Expr& e : args) {
    auto common = ir::broadcastShapes(shape, e.type().shape());
    if (!common) ec.error(a.range("args"), "tl.inline_asm_elementwise arguments: " + common.error());
    shape = *common;
  }
  if (shape.empty())
    ec.error(a.range("args"), "tl.inline_asm_elementwise needs at least one tensor argument (it runs on tiles)");
  for (ir::Expr& e : args) e = ec.broadcastTo(e, shape, a.range("args"), "an argument of tl.inline_asm_elementwise");
  if (ir::numElements(shape) % pack != 0)
    ec.error(a.range("pack"), "tl.inline_asm_elementwise pack " + std::to_string(pack) + " does not divide the tile's " +
                                  std::to_string(ir::numElements(shape)) + " elements");

  size_t registers = 0;
  for (ir::DType t : dtypes) registers += static_cast<size_t>(ir::InlineAsm::registersFor(t, static_cast<int>(pack)));
  const size_t outputs = registers;
  for (const ir::Expr& e : args) registers += static_cast<size_t>(ir::InlineAsm::registersFor(e.type().dtype(), static_cast<int>(pack)));
  if (constraintCount(constraints) != registers)
    ec.error(a.range("constraints"),
             "tl.inline_asm_elementwise constraints name " + std::to_string(constraintCount(constraints)) + " operands, but with pack=" +
                 std::to_string(pack) + " the asm has " + std::to_string(registers) + " (" + std::to_string(outputs) +
                 " result registers, then the arguments'; elements under 4 bytes share a 32-bit register)");
  if (!isPure && dtypes.size() > 1)
    ec.error(a.range("is_pure"), "tl.inline_asm_elementwise with is_pure=False and several results is not supported by tilescope yet; "
                                 "return one result, or mark the asm pure");

  ValueList results;
  for (size_t i = 0; i < dtypes.size(); ++i) {
    ir::Expr node = ir::InlineAsm::make(text, constraints, args, dtypes, static_cast<int>(i), isPure, static_cast<int>(pack), shape,
                                        a.callRange());
    // An impure asm runs where it is written, once: a Let pins it there.
    if (!isPure) node = ec.emitter().let("asm", node, a.callRange());
    results.push_back(Value::ofTensor(node));
  }
  return tupleResult ? Value::ofTuple(results) : results[0];
}

}  // namespace

void registerInlineAsmBuiltins(BuiltinRegistry& r) {
  r.add("tl.inline_asm_elementwise", "asm, constraints, args, dtype, is_pure, pack", inlineAsm);
}

}  // namespace tilescope::lang
