#pragma once
// Builds ir::Kernels by hand for the simulator tests: what the checker makes of a @triton.jit
// function, written with NumPy-style conveniences (scalars splat and size-1 dims broadcast
// automatically, integer literals take the other operand's dtype). Each node gets the source range
// of a snippet of the kernel's Python text (see at()), so diagnostics carry real file:line:col.
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/ir/TypeRules.h"

namespace tilescope::sim::testing {

using namespace tilescope::ir;

class KernelBuilder {
public:
  KernelBuilder(std::string name, std::string pythonSource, std::string fileName = "kernel.py")
      : file_(std::make_shared<lang::SourceFile>(std::move(fileName), std::move(pythonSource))) {
    kernel_.name = std::move(name);
    kernel_.sources.push_back(file_);
    blocks_.emplace_back();
  }

  // --- source ranges ---------------------------------------------------------------------------
  // Nodes created after this call point at the n-th occurrence of `snippet` in the source.
  KernelBuilder& at(std::string_view snippet, int occurrence = 0) {
    size_t pos = 0;
    for (int i = 0; i <= occurrence; ++i) {
      pos = file_->text().find(snippet, i == 0 ? 0 : pos + 1);
      if (pos == std::string::npos) throw std::logic_error("KernelBuilder::at: snippet not in source: " + std::string(snippet));
    }
    range_ = {file_.get(), static_cast<uint32_t>(pos), static_cast<uint32_t>(pos + snippet.size())};
    return *this;
  }
  lang::SourceRange range() const { return range_; }
  // Statement and memory-op forms that take their snippet as an argument: the range is set after
  // the other arguments (which may call at() themselves) have been built, so it is the right one.
  Expr letAt(std::string_view snippet, const std::string& name, Expr value) { return at(snippet).let(name, std::move(value)); }
  VarPtr varAt(std::string_view snippet, const std::string& name, Expr init) { return at(snippet).var(name, std::move(init)); }
  void assignAt(std::string_view snippet, const VarPtr& v, Expr value) { at(snippet).assign(v, std::move(value)); }
  Expr loadAt(std::string_view snippet, Expr ptr, Expr mask = {}, Expr other = {}) {
    return at(snippet).load(std::move(ptr), std::move(mask), std::move(other));
  }
  void storeAt(std::string_view snippet, Expr ptr, Expr value, Expr mask = {}) {
    at(snippet).store(std::move(ptr), std::move(value), std::move(mask));
  }

  // --- parameters ------------------------------------------------------------------------------
  Expr ptrParam(const std::string& name, DType pointee, bool divisibleBy16 = false) {
    return param(name, Type::pointer(pointee), divisibleBy16);
  }
  Expr scalarParam(const std::string& name, DType t = DType::I32) { return param(name, Type::scalar(t), false); }
  void constexprParam(const std::string& name, Constant value) {
    KernelParam p;
    p.name = name;
    p.isConstexpr = true;
    p.value = std::move(value);
    kernel_.params.push_back(std::move(p));
  }

  // --- leaves ----------------------------------------------------------------------------------
  Expr i32(int64_t v) { return IntImm::make(DType::I32, v, range_); }
  Expr lit(DType t, double v) {
    return isFloat(t) ? FloatImm::make(t, v, range_) : IntImm::make(t, static_cast<int64_t>(v), range_);
  }
  Expr f32(double v) { return FloatImm::make(DType::FP32, v, range_); }
  Expr pid(int axis) { return ProgramId::make(axis, range_); }
  Expr nprog(int axis) { return NumPrograms::make(axis, range_); }
  Expr arange(int64_t a, int64_t b) { return Arange::make(a, b, range_); }
  Expr zeros(Shape shape, DType t) { return Splat::make(lit(t, 0), std::move(shape), range_); }
  Expr full(Shape shape, DType t, double v) { return Splat::make(lit(t, v), std::move(shape), range_); }

  // --- shapes ----------------------------------------------------------------------------------
  Expr expand(Expr e, int axis) { return ExpandDims::make(std::move(e), axis, range_); }
  Expr broadcastTo(Expr e, const Shape& shape) {
    if (e.type().shape() == shape) return e;
    if (e.type().isScalar()) return Splat::make(std::move(e), shape, range_);
    return Broadcast::make(std::move(e), shape, range_);
  }
  Expr trans(Expr e) { return Permute::make(std::move(e), {1, 0}, range_); }
  Expr reshape(Expr e, Shape shape) { return Reshape::make(std::move(e), std::move(shape), false, range_); }

  // --- elementwise -----------------------------------------------------------------------------
  Expr cast(Expr e, DType t) {
    if (e.type().dtype() == t && !e.type().isPointer()) return e;
    return Cast::make(std::move(e), t, false, false, RoundingMode::None, range_);
  }
  Expr bitcast(Expr e, DType t) { return Cast::make(std::move(e), t, false, true, RoundingMode::None, range_); }
  Expr bin(BinaryOp op, Expr a, Expr b, bool propagateNan = false) {
    Shape s;
    auto r = broadcastShapes(a.type().shape(), b.type().shape());
    if (!r) throw std::logic_error("KernelBuilder: " + r.error());
    s = *r;
    a = broadcastTo(std::move(a), s);
    b = broadcastTo(std::move(b), s);
    if (a.type().isPointer() && !b.type().isPointer() && b.type().dtype() != DType::I64 && b.type().dtype() != DType::I32)
      b = cast(std::move(b), DType::I32);
    return Binary::make(op, std::move(a), std::move(b), range_, propagateNan);
  }
  // Integer literal operands take the other side's dtype.
  Expr bin(BinaryOp op, Expr a, int64_t b) {
    Expr literal = lit(a.type().isPointer() ? DType::I32 : a.type().dtype(), static_cast<double>(b));
    return bin(op, std::move(a), std::move(literal));
  }
  Expr add(Expr a, Expr b) { return bin(BinaryOp::Add, std::move(a), std::move(b)); }
  Expr add(Expr a, int64_t b) { return bin(BinaryOp::Add, std::move(a), b); }
  Expr sub(Expr a, Expr b) { return bin(BinaryOp::Sub, std::move(a), std::move(b)); }
  Expr mul(Expr a, Expr b) { return bin(BinaryOp::Mul, std::move(a), std::move(b)); }
  Expr mul(Expr a, int64_t b) { return bin(BinaryOp::Mul, std::move(a), b); }
  Expr div(Expr a, Expr b) {
    const BinaryOp op = isFloat(a.type().dtype()) ? BinaryOp::TrueDiv : BinaryOp::Div;
    return bin(op, std::move(a), std::move(b));
  }
  Expr mod(Expr a, Expr b) { return bin(BinaryOp::Mod, std::move(a), std::move(b)); }
  Expr lt(Expr a, Expr b) { return bin(BinaryOp::Lt, std::move(a), std::move(b)); }
  Expr lt(Expr a, int64_t b) { return bin(BinaryOp::Lt, std::move(a), b); }
  Expr gt(Expr a, Expr b) { return bin(BinaryOp::Gt, std::move(a), std::move(b)); }
  Expr eq(Expr a, int64_t b) { return bin(BinaryOp::Eq, std::move(a), b); }
  Expr and_(Expr a, Expr b) { return bin(BinaryOp::And, std::move(a), std::move(b)); }
  Expr minimum(Expr a, Expr b) { return bin(BinaryOp::Min, std::move(a), std::move(b)); }
  Expr maximum(Expr a, Expr b) { return bin(BinaryOp::Max, std::move(a), std::move(b)); }
  Expr where(Expr c, Expr a, Expr b) {
    Shape s = c.type().shape();
    if (a.type().rank() > static_cast<int>(s.size())) s = a.type().shape();
    return Select::make(broadcastTo(std::move(c), s), broadcastTo(std::move(a), s), broadcastTo(std::move(b), s), range_);
  }
  Expr math(MathFn fn, Expr a) { return MathCall::make(fn, {std::move(a)}, range_); }

  // --- memory ----------------------------------------------------------------------------------
  Expr load(Expr ptr, Expr mask = {}, Expr other = {}) {
    const Shape s = ptr.type().shape();
    if (mask) mask = broadcastTo(std::move(mask), s);
    if (other) other = broadcastTo(cast(std::move(other), ptr.type().dtype()), s);
    return Load::make(std::move(ptr), std::move(mask), std::move(other), range_);
  }
  void store(Expr ptr, Expr value, Expr mask = {}) {
    const Shape s = ptr.type().shape();
    value = broadcastTo(cast(std::move(value), ptr.type().dtype()), s);
    if (mask) mask = broadcastTo(std::move(mask), s);
    emit(Store::make(std::move(ptr), std::move(value), std::move(mask), range_));
  }
  Expr atomicAdd(Expr ptr, Expr value, Expr mask = {}) {
    const Shape s = ptr.type().shape();
    value = broadcastTo(cast(std::move(value), ptr.type().dtype()), s);
    if (mask) mask = broadcastTo(std::move(mask), s);
    return AtomicRMW::make(AtomicOp::Add, std::move(ptr), std::move(value), std::move(mask), range_);
  }

  // --- reductions and dot ----------------------------------------------------------------------
  Expr reduce(ReduceOp op, Expr x, std::optional<int> axis, bool keepDims = false) {
    return Reduce::make(op, std::move(x), axis, keepDims, range_);
  }
  Expr dot(Expr a, Expr b, Expr acc = {}, DType out = DType::FP32, InputPrecision p = InputPrecision::IEEE) {
    return Dot::make(std::move(a), std::move(b), std::move(acc), out, p, range_);
  }
  Expr rand(RandKind kind, Expr seed, Expr offset) { return Rand::make(kind, std::move(seed), std::move(offset), 10, 0, range_); }

  // --- statements ------------------------------------------------------------------------------
  Expr let(const std::string& name, Expr value) {
    VarPtr v = Var::make(name, kernel_.varCount++, value.type(), range_);
    emit(Let::make(v, std::move(value), range_));
    return VarRef::make(v, range_);
  }
  VarPtr var(const std::string& name, Expr init) {
    VarPtr v = Var::make(name, kernel_.varCount++, init.type(), range_, true);
    emit(Let::make(v, std::move(init), range_));
    return v;
  }
  Expr ref(const VarPtr& v) { return VarRef::make(v, range_); }
  void assign(const VarPtr& v, Expr value) { emit(Assign::make(v, broadcastTo(std::move(value), v->type.shape()), range_)); }

  // for <name> in range(start, end, step): body(iv)
  void forRange(const std::string& name, Expr start, Expr end, Expr step, const std::function<void(Expr)>& body) {
    VarPtr iv = Var::make(name, kernel_.varCount++, start.type(), range_);
    const lang::SourceRange loopRange = range_;
    blocks_.emplace_back();
    body(VarRef::make(iv, range_));
    Stmt b = Seq::make(std::move(blocks_.back()), loopRange);
    blocks_.pop_back();
    emit(For::make(iv, std::move(start), std::move(end), std::move(step), std::move(b), LoopKind::Range, {}, loopRange));
  }
  // while cond(): body()   (lowered as the checker does: Let c = cond; While c { body; c = cond })
  void whileLoop(const std::function<Expr()>& cond, const std::function<void()>& body) {
    const lang::SourceRange loopRange = range_;
    VarPtr c = var("while_cond", cond());
    blocks_.emplace_back();
    body();
    emit(Assign::make(c, cond(), loopRange));
    Stmt b = Seq::make(std::move(blocks_.back()), loopRange);
    blocks_.pop_back();
    emit(While::make(c, std::move(b), loopRange));
  }
  void ifThen(Expr cond, const std::function<void()>& thenBody, const std::function<void()>& elseBody = {}) {
    const lang::SourceRange r = range_;
    blocks_.emplace_back();
    thenBody();
    Stmt t = Seq::make(std::move(blocks_.back()), r);
    blocks_.pop_back();
    Stmt e;
    if (elseBody) {
      blocks_.emplace_back();
      elseBody();
      e = Seq::make(std::move(blocks_.back()), r);
      blocks_.pop_back();
    }
    emit(If::make(std::move(cond), std::move(t), std::move(e), r));
  }
  void print(const std::string& prefix, std::vector<Expr> args, bool device = true) {
    emit(Print::make(prefix, std::move(args), false, device, range_));
  }
  void deviceAssert(Expr cond, const std::string& message) { emit(Assert::make(std::move(cond), message, range_)); }
  void hostCall(const std::string& callee, std::vector<HostArg> args) { emit(HostCall::make(callee, std::move(args), {}, range_)); }
  void ret() { emit(Return::make(range_)); }
  void emit(Stmt s) { blocks_.back().push_back(std::move(s)); }

  std::shared_ptr<const Kernel> build() {
    kernel_.body = Seq::make(std::move(blocks_.front()), range_);
    return std::make_shared<const Kernel>(std::move(kernel_));
  }

private:
  Expr param(const std::string& name, Type t, bool divisibleBy16) {
    KernelParam p;
    p.name = name;
    p.type = t;
    p.divisibleBy16 = divisibleBy16;
    p.range = range_;
    const int index = static_cast<int>(kernel_.params.size());
    kernel_.params.push_back(std::move(p));
    return ParamRef::make(index, name, t, range_);
  }

  std::shared_ptr<lang::SourceFile> file_;
  Kernel kernel_;
  lang::SourceRange range_;
  std::vector<std::vector<Stmt>> blocks_;
};

}  // namespace tilescope::sim::testing
