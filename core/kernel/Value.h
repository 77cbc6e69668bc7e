#pragma once
// What a Python expression inside a @triton.jit function evaluates to while the checker runs:
// a constexpr, a runtime tensor (an IR expression: scalar or tile), a tuple of values, or one of the
// callables and namespaces a kernel can mention (modules, jit helpers, plain Python functions,
// builtins, bound tensor methods). Values are cheap to copy.
#include <memory>
#include <string>
#include <vector>

#include "core/ir/Expr.h"
#include "core/ir/Stmt.h"
#include "core/syntax/Ast.h"
#include "core/kernel/ConstValue.h"

namespace tilescope::lang {

struct Value;
using ValueList = std::vector<Value>;

struct Value {
  enum class Kind : uint8_t {
    Const,        // constexpr (Python scalar or dtype)
    Tensor,       // runtime value: `expr` (scalar or tile)
    Tuple,        // `elements`
    Module,       // `name`: "triton", "triton.language", "triton.language.math", or another import
    JitFunction,  // `name`, `function` (a @triton.jit def)
    HostFunction, // `name`: a plain Python function (or an unknown import) - becomes a HostCall
    Builtin,      // `name`: qualified builtin, e.g. "tl.arange", "range", "min"
    Method,       // `name` bound to `elements[0]`: `x.to`, `x.sum`, `dtype.is_floating`
    Format,       // an f-string with runtime fields: `parts` (only host calls and print take it)
    BlockPointer, // tl.make_block_ptr's result: `elements` laid out as BlockPointer.h says
    TensorDescriptor, // tl.make_tensor_descriptor's result: `elements` laid out as TensorDescriptor.h says
    Undefined,    // a name that may not be read (`message` says why), e.g. defined in one branch only
  };

  Kind kind = Kind::Const;
  ConstValue constant;
  ir::Expr expr;
  ValueList elements;
  std::string name;
  const FunctionDef* function = nullptr;
  std::vector<ir::FormatPart> parts;
  std::string message;

  static Value ofConst(ConstValue c);
  static Value ofTensor(ir::Expr e);
  static Value ofTuple(ValueList elements);
  static Value ofModule(std::string name);
  static Value ofJitFunction(std::string name, const FunctionDef* def);
  static Value ofHostFunction(std::string name);
  static Value ofBuiltin(std::string name);
  static Value ofMethod(std::string name, Value self);
  static Value ofFormat(std::vector<ir::FormatPart> parts);
  static Value ofBlockPointer(ValueList elements);
  static Value ofTensorDescriptor(ValueList elements);
  static Value undefined(std::string message);

  bool isConst() const { return kind == Kind::Const; }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isTuple() const { return kind == Kind::Tuple; }
  bool isBlockPointer() const { return kind == Kind::BlockPointer; }
  bool isTensorDescriptor() const { return kind == Kind::TensorDescriptor; }
  bool isNone() const { return isConst() && constant.isNone(); }
  // A constexpr number (bool/int/float): weakly typed in arithmetic with tensors.
  bool isNumber() const { return isConst() && constant.isNumber(); }
  // Every element a constexpr (recursively): a constexpr tuple such as a shape.
  bool isConstTree() const;

  // How a user would name what this is: "a tensor of type tensor<64xfp32>", "the constexpr 16",
  // "a tuple", "the module 'triton.language'", "the function 'foo'".
  std::string describe() const;

  // Identity for the purpose of "did this name change": same IR node / same constant / ...
  bool sameAs(const Value& other) const;
};

}  // namespace tilescope::lang
