#pragma once
// The table behind Builtins.h: each builtin (tl.*, tl.math.*, Python builtins allowed in kernels,
// tensor methods) has a Python-style signature and a handler. Call arguments are bound to the
// signature by Python's rule (util::ArgumentBinding, CPython's errors); the handler then
// type-checks and emits IR through the ExprChecker.
//
// Handlers live in <Group>Builtins.cpp files, each registering its group.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel/ExprChecker.h"

namespace tilescope::lang {

// Arguments bound to a builtin's signature.
class BoundArgs {
public:
  BoundArgs(std::string displayName, SourceRange callRange) : name_(std::move(displayName)), callRange_(callRange) {}

  const std::string& name() const { return name_; }  // "tl.load"
  SourceRange callRange() const { return callRange_; }

  // Present (passed explicitly, even as None).
  bool has(const std::string& param) const { return values_.count(param) != 0; }
  // Present and not None.
  bool given(const std::string& param) const;
  const Value& get(const std::string& param) const;  // InternalError when absent
  // The argument's range, or the call's when it was not passed.
  SourceRange range(const std::string& param) const;
  // The argument as written in the source ("n_elements"), or "" when it was not passed.
  std::string text(const std::string& param) const;

  const ValueList& rest() const { return rest_; }
  const std::vector<SourceRange>& restRanges() const { return restRanges_; }

  void set(const std::string& param, Value v, SourceRange r);
  void addRest(Value v, SourceRange r);

private:
  std::string name_;
  SourceRange callRange_;
  std::map<std::string, std::pair<Value, SourceRange>> values_;
  ValueList rest_;
  std::vector<SourceRange> restRanges_;
};

using BuiltinHandler = std::function<Value(ExprChecker&, const BoundArgs&)>;

struct BuiltinEntry {
  std::string name;  // canonical: "tl.load", "min", "tensor.to"
  std::vector<util::ParameterInfo> params;
  BuiltinHandler handler;
  // False for names of Triton's API that are registered only to say they are not supported yet.
  bool implemented = true;
};

class BuiltinRegistry {
public:
  static const BuiltinRegistry& instance();

  const BuiltinEntry* find(const std::string& name) const;
  // Builtins registered under "tl.": the names tl.* offers ("arange", "load", ...).
  std::vector<std::string> tlNames() const;

  // Registration (during construction only). `signature` is Python-like:
  // "pointer, mask=None, *, cache_modifier=''" (util::parseParameterList): '=...' marks optional,
  // '*name' collects the remaining positional arguments, '*' alone starts keyword-only ones.
  void add(const std::string& name, const std::string& signature, BuiltinHandler handler);
  // A name of Triton's API that tilescope does not implement: calling it says so, and
  // docs/KERNEL_LANGUAGE.md's parity table must give the reason (tests/lang/KernelLanguageParityTest).
  void addUnsupported(const std::string& name);

  // Binds call arguments to entry's parameters, reporting Python-style errors through ec.
  static BoundArgs bind(ExprChecker& ec, const BuiltinEntry& entry, const CallArgs& args);

private:
  BuiltinRegistry();
  std::map<std::string, BuiltinEntry> entries_;
};

// Groups of handlers (one file each).
void registerCreationBuiltins(BuiltinRegistry& r);  // program_id, arange, zeros, full, cast, rand...
void registerMemoryBuiltins(BuiltinRegistry& r);    // load, store, atomics
void registerBlockPointerBuiltins(BuiltinRegistry& r);  // make_block_ptr, advance
void registerTensorDescriptorBuiltins(BuiltinRegistry& r);  // make_tensor_descriptor, desc.load/store/atomics
void registerMathBuiltins(BuiltinRegistry& r);      // exp, ..., where, maximum, clamp, cdiv, swizzle2d
void registerShapeBuiltins(BuiltinRegistry& r);     // reshape, trans, permute, expand_dims, broadcast_to
void registerReorderBuiltins(BuiltinRegistry& r);   // flip, cat, sort, gather, histogram
void registerReduceBuiltins(BuiltinRegistry& r);    // sum, max, argmax, cumsum, dot
void registerInlineAsmBuiltins(BuiltinRegistry& r);  // inline_asm_elementwise
void registerDotScaledBuiltins(BuiltinRegistry& r);  // dot_scaled
void registerDebugBuiltins(BuiltinRegistry& r);     // device_print, static_*, device_assert, barrier, hints
void registerPythonBuiltins(BuiltinRegistry& r);    // min, max, float, int, len, print, triton.cdiv, ...

// Helpers shared by the handler files.
namespace builtin {
// The tensor a builtin argument must be (constexpr numbers become typed scalars).
ir::Expr tensorArg(ExprChecker& ec, const BoundArgs& a, const std::string& param);
// A tile (not a scalar) argument.
ir::Expr tileArg(ExprChecker& ec, const BoundArgs& a, const std::string& param);
// The index of the kernel parameter a pointer expression starts from (left-most term of a chain
// of +/- through lets, splats and broadcasts), for checkAllKernels' pointer inference.
std::optional<int> rootParameter(const CheckContext& ctx, const ir::Expr& e);
// "'n_elements' is i32" / "'5' is the constexpr 5": what an argument is, for error messages.
std::string describeArg(const BoundArgs& a, const std::string& param);
// tl.join of two tensors (broadcast to one shape): a new minor dimension of 2 holding a, then b.
ir::Expr joinTiles(ExprChecker& ec, const ir::Expr& a, const ir::Expr& b, SourceRange range);
// tl.split of a tile whose minor dimension is 2: its two halves, bit for bit (ShapeBuiltins.cpp).
std::pair<ir::Expr, ir::Expr> splitTile(ExprChecker& ec, const ir::Expr& x, SourceRange range);
// The integer of x's width holding its bits (bool as i8), and back: an xor over elements of which
// all but one are zero picks that one bit for bit (-0.0 and NaN payloads survive).
ir::Expr asBits(const ir::Expr& x, SourceRange range);
ir::Expr fromBits(const ir::Expr& bits, ir::DType dt, SourceRange range);
}  // namespace builtin

}  // namespace tilescope::lang
