#include "core/kernel/ExprChecker.h"

#include "core/kernel/Builtins.h"
#include "core/kernel/FunctionChecker.h"
#include "core/kernel/TensorDescriptor.h"
#include "core/base/Suggest.h"

namespace tilescope::lang {

namespace {

std::optional<ConstOp> constOpFor(ir::BinaryOp op) {
  switch (op) {
    case ir::BinaryOp::Add: return ConstOp::Add;
    case ir::BinaryOp::Sub: return ConstOp::Sub;
    case ir::BinaryOp::Mul: return ConstOp::Mul;
    case ir::BinaryOp::TrueDiv: return ConstOp::TrueDiv;
    case ir::BinaryOp::Div: return ConstOp::FloorDiv;
    case ir::BinaryOp::Mod: return ConstOp::Mod;
    case ir::BinaryOp::And: return ConstOp::BitAnd;
    case ir::BinaryOp::Or: return ConstOp::BitOr;
    case ir::BinaryOp::Xor: return ConstOp::BitXor;
    case ir::BinaryOp::Shl: return ConstOp::LShift;
    case ir::BinaryOp::Shr: return ConstOp::RShift;
    default: return std::nullopt;
  }
}

std::optional<ConstCmp> constCmpFor(ir::BinaryOp op) {
  switch (op) {
    case ir::BinaryOp::Eq: return ConstCmp::Eq;
    case ir::BinaryOp::Ne: return ConstCmp::Ne;
    case ir::BinaryOp::Lt: return ConstCmp::Lt;
    case ir::BinaryOp::Le: return ConstCmp::Le;
    case ir::BinaryOp::Gt: return ConstCmp::Gt;
    case ir::BinaryOp::Ge: return ConstCmp::Ge;
    default: return std::nullopt;
  }
}

std::optional<ir::BinaryOp> irCompareOp(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return ir::BinaryOp::Eq;
    case CompareOp::NotEq: return ir::BinaryOp::Ne;
    case CompareOp::Lt: return ir::BinaryOp::Lt;
    case CompareOp::LtE: return ir::BinaryOp::Le;
    case CompareOp::Gt: return ir::BinaryOp::Gt;
    case CompareOp::GtE: return ir::BinaryOp::Ge;
    default: return std::nullopt;
  }
}

std::string unsupportedMessage(const Expr& e) {
  switch (e.kind()) {
    case Node::Kind::Lambda: return "lambda expressions are not supported inside a @triton.jit function";
    case Node::Kind::ListComp:
    case Node::Kind::SetComp:
    case Node::Kind::DictComp:
    case Node::Kind::GeneratorExp:
      return "comprehensions are not supported inside a @triton.jit function; use a tl.static_range loop";
    case Node::Kind::Dict: return "dicts are not supported inside a @triton.jit function";
    case Node::Kind::Set: return "sets are not supported inside a @triton.jit function";
    case Node::Kind::Yield: return "'yield' is not supported inside a @triton.jit function";
    case Node::Kind::Starred: return "'*' unpacking is only supported in call arguments";
    case Node::Kind::Slice: return "slices are only supported as tensor indices (x[:, None])";
    case Node::Kind::Ellipsis: return "'...' is not supported inside a @triton.jit function";
    default: return std::string(e.kindName()) + " expressions are not supported inside a @triton.jit function";
  }
}

}  // namespace

std::optional<ir::BinaryOp> irBinaryOp(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return ir::BinaryOp::Add;
    case BinaryOp::Sub: return ir::BinaryOp::Sub;
    case BinaryOp::Mult: return ir::BinaryOp::Mul;
    case BinaryOp::Div: return ir::BinaryOp::TrueDiv;
    case BinaryOp::FloorDiv: return ir::BinaryOp::Div;
    case BinaryOp::Mod: return ir::BinaryOp::Mod;
    case BinaryOp::BitAnd: return ir::BinaryOp::And;
    case BinaryOp::BitOr: return ir::BinaryOp::Or;
    case BinaryOp::BitXor: return ir::BinaryOp::Xor;
    case BinaryOp::LShift: return ir::BinaryOp::Shl;
    case BinaryOp::RShift: return ir::BinaryOp::Shr;
    case BinaryOp::Pow:
    case BinaryOp::MatMult: return std::nullopt;
  }
  return std::nullopt;
}

Scope& ExprChecker::scope() { return fn_.scope(); }

// ------------------------------------------------------------------------------------------ dispatch

Value ExprChecker::check(const Expr& e) {
  Value v = checkUnlimited(e);
  requireTileSize(v, e.range);
  return v;
}

void ExprChecker::requireTileSize(const Value& v, SourceRange range) {
  if (v.isTuple()) {
    for (const Value& element : v.elements) requireTileSize(element, range);
    return;
  }
  if (!v.isTensor() || v.expr.type().numel() <= ir::kMaxTileNumel) return;
  std::string text(range.text());
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  error(range, ir::tileSizeError(v.expr.type().shape(), "'" + text + "' makes a tile whose"));
}

Value ExprChecker::checkUnlimited(const Expr& e) {
  switch (e.kind()) {
    case Node::Kind::Name: return checkName(*e.as<Name>());
    case Node::Kind::IntLiteral: {
      const auto& lit = *e.as<IntLiteral>();
      if (!lit.value) error(e.range, "integer literal " + lit.text + " does not fit in 64 bits");
      return Value::ofConst(ConstValue::integer(*lit.value));
    }
    case Node::Kind::FloatLiteral: return Value::ofConst(ConstValue::floating(e.as<FloatLiteral>()->value));
    case Node::Kind::StringLiteral: {
      const auto& lit = *e.as<StringLiteral>();
      if (lit.isBytes) error(e.range, "bytes literals are not supported inside a @triton.jit function");
      return Value::ofConst(ConstValue::string(lit.value));
    }
    case Node::Kind::FString: return checkFString(*e.as<FString>());
    case Node::Kind::BoolLiteral: return Value::ofConst(ConstValue::boolean(e.as<BoolLiteral>()->value));
    case Node::Kind::NoneLiteral: return Value::ofConst(ConstValue::none());
    case Node::Kind::Tuple:
    case Node::Kind::List: {
      const ExprList& elements = e.is<Tuple>() ? e.as<Tuple>()->elements : e.as<List>()->elements;
      ValueList out;
      for (const ExprPtr& el : elements) {
        if (const auto* star = el->as<Starred>()) {
          Value v = check(*star->value);
          if (!v.isTuple()) error(el->range, "only tuples can be unpacked with '*', not " + v.describe());
          out.insert(out.end(), v.elements.begin(), v.elements.end());
        } else {
          out.push_back(check(*el));
        }
      }
      return Value::ofTuple(std::move(out));
    }
    case Node::Kind::Attribute: return checkAttribute(*e.as<Attribute>());
    case Node::Kind::Subscript: return checkSubscript(*e.as<Subscript>());
    case Node::Kind::Call: return checkCall(*e.as<Call>());
    case Node::Kind::Unary: {
      const auto& u = *e.as<Unary>();
      return unary(u.op, check(*u.operand), e.range);
    }
    case Node::Kind::Binary: return checkBinary(*e.as<Binary>());
    case Node::Kind::BoolOp: return checkBoolOp(*e.as<BoolOp>());
    case Node::Kind::Compare: return checkCompare(*e.as<Compare>());
    case Node::Kind::IfExp: return checkIfExp(*e.as<IfExp>());
    default: error(e.range, unsupportedMessage(e));
  }
}

Value ExprChecker::checkValue(const Expr& e, std::string_view what) {
  Value v = check(e);
  switch (v.kind) {
    case Value::Kind::Const:
    case Value::Kind::Tensor:
    case Value::Kind::Tuple: return v;
    default: error(e.range, std::string(what) + " must be a value, not " + v.describe());
  }
}

// ------------------------------------------------------------------------------------------ names

std::vector<std::string> ExprChecker::visibleNames() const {
  std::vector<std::string> names = fn_.scope().names();
  for (const std::string& g : ctx_.program.globalNames()) names.push_back(g);
  for (const std::string& b : pythonBuiltinNames()) names.push_back(b);
  return names;
}

Value ExprChecker::lookupName(const std::string& name, SourceRange range) {
  if (const Binding* b = scope().find(name)) {
    if (b->value.kind == Value::Kind::Undefined) error(range, b->value.message);
    return b->value;
  }
  if (const Value* g = ctx_.program.lookupGlobal(name)) {
    if (g->kind == Value::Kind::Undefined) error(range, g->message);
    return *g;
  }
  if (auto builtin = pythonBuiltin(name)) return *builtin;
  std::string msg = "unknown name '" + name + "'";
  if (auto s = closestMatch(name, visibleNames())) msg += "; did you mean '" + *s + "'?";
  error(range, msg);
}

Value ExprChecker::checkName(const Name& e) { return lookupName(e.id, e.range); }

// ------------------------------------------------------------------------------------------ attributes

Value ExprChecker::checkAttribute(const Attribute& e) {
  Value base = check(*e.value);
  switch (base.kind) {
    case Value::Kind::Module: {
      if (auto member = moduleMember(base.name, e.attr)) return *member;
      const std::string written(e.range.text());
      if (base.name == "triton.language.extra.libdevice") {
        std::string known;
        for (const std::string& n : moduleMemberNames(base.name)) known += (known.empty() ? "" : ", ") + n;
        error(e.range, "libdevice." + e.attr + " is not supported by tilescope yet; the libdevice functions it has are " +
                           known + " (or write it with tl.* operations)");
      }
      std::string msg = "unknown name '" + written + "'";
      if (auto s = closestMatch(e.attr, moduleMemberNames(base.name)))
        msg += "; did you mean '" + std::string(e.value->range.text()) + "." + *s + "'?";
      else if (!isKnownModule(base.name))
        msg += " (tilescope only knows triton, triton.language and torch dtypes inside kernels)";
      error(e.range, msg);
    }
    case Value::Kind::Tensor: return tensorAttribute(base, e.attr, e.range, e.attrRange);
    case Value::Kind::TensorDescriptor: return tensorDescriptorAttribute(*this, base, e.attr, e.attrRange.valid() ? e.attrRange : e.range);
    case Value::Kind::Const:
      if (base.constant.isDType()) {
        if (e.attr == "element_ty" && !base.constant.asDType().isPointer) {
          // `x.dtype.element_ty` on a scalar parameter: record that x should be a pointer.
          if (const auto* inner = e.value->as<Attribute>(); inner && inner->attr == "dtype") {
            if (const auto* nm = inner->value->as<Name>()) {
              const Binding* b = scope().find(nm->id);
              if (b && b->value.isTensor())
                if (const auto* p = b->value.expr.as<ir::ParamRef>()) ctx_.pointerDemand = p->index;
            }
          }
        }
        return dtypeAttribute(base.constant, e.attr, e.range, e.attrRange);
      }
      error(e.range, "'" + base.constant.typeName() + "' object has no attribute '" + e.attr + "'");
    default: error(e.range, base.describe() + " has no attribute '" + e.attr + "'");
  }
}

Value ExprChecker::tensorAttribute(const Value& self, const std::string& attr, SourceRange range, SourceRange attrRange) {
  const ir::Type& t = self.expr.type();
  if (attr == "dtype") return Value::ofConst(ConstValue::dtype(t.dtype(), t.isPointer()));
  if (attr == "shape") {
    ValueList dims;
    for (int64_t d : t.shape()) dims.push_back(Value::ofConst(ConstValue::integer(d)));
    return Value::ofTuple(std::move(dims));
  }
  if (attr == "numel") return Value::ofConst(ConstValue::integer(t.numel()));
  if (attr == "ndim") return Value::ofConst(ConstValue::integer(t.rank()));
  if (attr == "T") {
    if (t.rank() != 2) error(range, "'.T' needs a 2-D tensor; this one is " + t.str() + " (use tl.permute for other ranks)");
    return Value::ofTensor(ir::Permute::make(self.expr, {1, 0}, range));
  }
  if (isTensorMethod(attr)) return Value::ofMethod(attr, self);
  std::vector<std::string> candidates = tensorMethodNames();
  for (const char* a : {"dtype", "shape", "numel", "ndim", "T"}) candidates.emplace_back(a);
  std::string msg = "tensor has no attribute '" + attr + "'";
  if (auto s = closestMatch(attr, candidates)) msg += "; did you mean '" + *s + "'?";
  error(attrRange.valid() ? attrRange : range, msg);
}

Value ExprChecker::dtypeAttribute(const ConstValue& self, const std::string& attr, SourceRange range, SourceRange) {
  const DTypeValue& d = self.asDType();
  if (attr == "element_ty") {
    if (!d.isPointer)
      error(range, "'.element_ty' is only defined on pointer dtypes, and this dtype is " + self.str() +
                       "; it reads the element type of a pointer argument, e.g. Out.dtype.element_ty");
    return Value::ofConst(ConstValue::dtype(d.dtype));
  }
  if (attr == "primitive_bitwidth" || attr == "int_bitwidth")
    return Value::ofConst(ConstValue::integer(d.isPointer ? 64 : ir::bitWidth(d.dtype)));
  if (attr == "fp_mantissa_width") return Value::ofConst(ConstValue::integer(ir::mantissaWidth(d.dtype)));
  if (attr == "name") return Value::ofConst(ConstValue::string(self.str()));
  if (isDTypeMethod(attr)) return Value::ofMethod(attr, Value::ofConst(self));
  error(range, "dtype has no attribute '" + attr + "'");
}

// ------------------------------------------------------------------------------------------ subscripts

Value ExprChecker::checkSubscript(const Subscript& e) {
  Value base = check(*e.value);
  if (base.isTensor()) return indexTensor(base, *e.index, e.range);
  if (base.isTuple()) {
    const int64_t n = static_cast<int64_t>(base.elements.size());
    if (const auto* sl = e.index->as<Slice>()) {
      auto part = [&](const ExprPtr& p, int64_t dflt) -> int64_t {
        if (!p) return dflt;
        Value v = check(*p);
        if (v.isNone()) return dflt;
        return requireConstInt(v, p->range, "a tuple slice bound");
      };
      const int64_t step = part(sl->step, 1);
      if (step == 0) error(e.index->range, "slice step cannot be zero");
      auto clamp = [&](int64_t i, int64_t lo, int64_t hi) {
        if (i < 0) i += n;
        return std::max(lo, std::min(i, hi));
      };
      const int64_t start = clamp(part(sl->lower, step > 0 ? 0 : n - 1), step > 0 ? 0 : -1, step > 0 ? n : n - 1);
      const int64_t stop = clamp(part(sl->upper, step > 0 ? n : -n - 1), step > 0 ? 0 : -1, step > 0 ? n : n - 1);
      ValueList out;
      for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(base.elements[i]);
      return Value::ofTuple(std::move(out));
    }
    Value idx = check(*e.index);
    int64_t i = requireConstInt(idx, e.index->range, "a tuple index");
    if (i < -n || i >= n)
      error(e.index->range, "tuple index " + std::to_string(i) + " is out of range (the tuple has " + std::to_string(n) +
                                " element" + (n == 1 ? "" : "s") + ")");
    return base.elements[i < 0 ? i + n : i];
  }
  error(e.value->range, base.describe() + " cannot be indexed");
}

Value ExprChecker::indexTensor(const Value& self, const Expr& index, SourceRange range) {
  std::vector<const Expr*> items;
  if (const auto* tup = index.as<Tuple>()) {
    for (const ExprPtr& el : tup->elements) items.push_back(el.get());
  } else {
    items.push_back(&index);
  }
  ir::Expr ret = self.expr;
  int dim = 0;
  for (const Expr* item : items) {
    if (const auto* sl = item->as<Slice>()) {
      if (sl->lower || sl->upper || sl->step)
        error(item->range, "tensors can only be indexed with ':' and None (to insert a dimension); slicing a range is "
                           "not supported - load the elements you need with tl.load and offsets");
      if (dim >= ret.type().rank())
        error(item->range, "too many indices for a " + std::to_string(self.expr.type().rank()) + "-D tensor");
    } else {
      Value v = check(*item);
      if (!v.isNone())
        error(item->range, "tensors can only be indexed with ':' and None (to insert a dimension), not " + v.describe() +
                               "; read single elements with tl.load, or select with tl.where");
      if (ret.type().isScalar()) {
        if (dim != 0) error(item->range, "too many indices for a scalar");
        ret = ir::Splat::make(ret, {1}, range);
      } else {
        if (dim > ret.type().rank()) error(item->range, "too many indices for a " + std::to_string(self.expr.type().rank()) + "-D tensor");
        ret = ir::ExpandDims::make(ret, dim, range);
      }
    }
    ++dim;
  }
  return Value::ofTensor(ret);
}

// ------------------------------------------------------------------------------------------ operators

Value ExprChecker::checkBinary(const Binary& e) {
  Value l = check(*e.left);
  Value r = check(*e.right);
  if (e.op == BinaryOp::Pow) {
    if (l.isNumber() && r.isNumber()) {
      std::string err;
      auto v = foldBinary(ConstOp::Pow, l.constant, r.constant, err);
      if (!v) error(e.range, err);
      return Value::ofConst(*v);
    }
    error(e.range, "'**' is not supported on tensors; multiply explicitly (x * x) or use tl.exp2 and tl.log2");
  }
  if (e.op == BinaryOp::MatMult) error(e.range, "'@' is not supported on Triton tensors; use tl.dot(a, b)");
  return binary(*irBinaryOp(e.op), l, r, e.range);
}

Value ExprChecker::binary(ir::BinaryOp op, const Value& a, const Value& b, SourceRange range) {
  const std::string sym(ir::binaryOpSymbol(op));
  if (a.isConst() && b.isConst()) {
    std::string err;
    std::optional<ConstValue> v;
    if (auto cop = constOpFor(op)) v = foldBinary(*cop, a.constant, b.constant, err);
    else if (auto cmp = constCmpFor(op)) v = foldCompare(*cmp, a.constant, b.constant, err);
    else err = "unsupported constexpr operator '" + sym + "'";
    if (!v) error(range, err);
    return Value::ofConst(*v);
  }
  if (a.isTuple() || b.isTuple()) {
    if (op == ir::BinaryOp::Add && a.isTuple() && b.isTuple()) {
      ValueList out = a.elements;
      out.insert(out.end(), b.elements.begin(), b.elements.end());
      return Value::ofTuple(std::move(out));
    }
    if (op == ir::BinaryOp::Mul && (a.isTuple() != b.isTuple())) {
      const Value& t = a.isTuple() ? a : b;
      const Value& n = a.isTuple() ? b : a;
      const int64_t times = requireConstInt(n, range, "a tuple repeat count");
      ValueList out;
      for (int64_t i = 0; i < times; ++i) out.insert(out.end(), t.elements.begin(), t.elements.end());
      return Value::ofTuple(std::move(out));
    }
    if ((op == ir::BinaryOp::Eq || op == ir::BinaryOp::Ne) && a.isTuple() && b.isTuple() && a.isConstTree() && b.isConstTree()) {
      const bool equal = a.sameAs(b);
      return Value::ofConst(ConstValue::boolean(op == ir::BinaryOp::Eq ? equal : !equal));
    }
    error(range, "unsupported operand types for '" + sym + "': " + a.describe() + " and " + b.describe());
  }
  for (const Value* v : {&a, &b}) {
    if (v->isTensor() || v->isNumber()) continue;
    error(range, "unsupported operand types for '" + sym + "': " + a.describe() + " and " + b.describe());
  }
  return tensorBinary(op, a, b, range);
}

Value ExprChecker::tensorBinary(ir::BinaryOp op, const Value& a, const Value& b, SourceRange range) {
  const ir::Operand oa = operandOf(a, range, "an operand");
  const ir::Operand ob = operandOf(b, range, "an operand");
  auto typing = ir::binaryTyping(op, oa, ob);
  if (!typing) error(range, typing.error());
  if (typing->pointerArith) {
    const Value& ptr = typing->pointerOnRight ? b : a;
    const Value& off = typing->pointerOnRight ? a : b;
    ir::Expr offE = tensorAs(off, typing->operandDType, range, "a pointer offset");
    offE = Emitter::cast(offE, typing->offsetDType, range);
    auto [p, o] = broadcastPair(ptr.expr, offE, range);
    return Value::ofTensor(ir::Binary::make(op, p, o, range));
  }
  ir::Expr ea, eb;
  if (op == ir::BinaryOp::LogicalAnd || op == ir::BinaryOp::LogicalOr) {
    // Python truthiness per element (x != 0), not a cast of the literal into i1.
    ea = toBool(tensorOf(a, range, "an operand"), range);
    eb = toBool(tensorOf(b, range, "an operand"), range);
  } else {
    ea = tensorAs(a, typing->operandDType, range, "an operand");
    eb = tensorAs(b, typing->operandDType, range, "an operand");
  }
  auto [x, y] = broadcastPair(ea, eb, range);
  return Value::ofTensor(ir::Binary::make(op, x, y, range));
}

Value ExprChecker::logical(bool isAnd, const Value& a, const Value& b, SourceRange range) {
  if (a.isConst() && b.isConst()) {
    if (isAnd) return a.constant.truthy() ? b : a;
    return a.constant.truthy() ? a : b;
  }
  return tensorBinary(isAnd ? ir::BinaryOp::LogicalAnd : ir::BinaryOp::LogicalOr, a, b, range);
}

Value ExprChecker::compare(ir::BinaryOp op, const Value& a, const Value& b, SourceRange range) {
  return binary(op, a, b, range);
}

Value ExprChecker::unary(UnaryOp op, const Value& a, SourceRange range) {
  if (a.isConst()) {
    std::string err;
    const ConstUnary cop = op == UnaryOp::Neg ? ConstUnary::Neg : op == UnaryOp::Pos ? ConstUnary::Pos
                           : op == UnaryOp::Invert ? ConstUnary::Invert : ConstUnary::Not;
    auto v = foldUnary(cop, a.constant, err);
    if (!v) error(range, err);
    return Value::ofConst(*v);
  }
  if (!a.isTensor()) error(range, "bad operand for unary '" + std::string(spelling(op)) + "': " + a.describe());
  const ir::Expr& e = a.expr;
  if (e.type().isPointer()) error(range, "bad operand for unary '" + std::string(spelling(op)) + "': pointers only support '+' and '-' with integer offsets");
  switch (op) {
    case UnaryOp::Pos: return a;
    case UnaryOp::Neg: return Value::ofTensor(ir::Unary::make(ir::UnaryOp::Neg, e, range));
    case UnaryOp::Invert:
      if (!e.type().isInt()) error(range, "'~' needs an integer operand, got " + e.type().str());
      return Value::ofTensor(ir::Unary::make(ir::UnaryOp::Invert, e, range));
    case UnaryOp::Not: return Value::ofTensor(ir::Unary::make(ir::UnaryOp::Invert, toBool(e, range), range));
  }
  error(range, "unknown unary operator");
}

Value ExprChecker::checkBoolOp(const BoolOp& e) {
  const bool isAnd = e.op == BoolOpKind::And;
  Value acc = check(*e.values[0]);
  for (size_t i = 1; i < e.values.size(); ++i) {
    // Python short-circuits on constexprs: the rest is not evaluated (nor checked).
    if (acc.isConst() && (isAnd ? !acc.constant.truthy() : acc.constant.truthy())) return acc;
    Value next = check(*e.values[i]);
    acc = logical(isAnd, acc, next, SourceRange::merge(e.values[0]->range, e.values[i]->range));
  }
  return acc;
}

Value ExprChecker::checkCompare(const Compare& e) {
  Value left = check(*e.left);
  if (e.ops.size() > 1) {
    // Chains are fine on constexprs; on tensors Triton refuses them.
    Value result = Value::ofConst(ConstValue::boolean(true));
    for (size_t i = 0; i < e.ops.size(); ++i) {
      Value right = check(*e.comparators[i]);
      auto op = irCompareOp(e.ops[i]);
      if (!left.isConst() || !right.isConst() || !op)
        error(e.range, "chained comparisons such as a < b < c are not supported on tensors; write (a < b) & (b < c)");
      Value r = binary(*op, left, right, e.range);
      if (!r.constant.truthy()) return r;
      left = right;
      result = r;
    }
    return result;
  }
  Value right = check(*e.comparators[0]);
  const CompareOp op = e.ops[0];
  if (op == CompareOp::Is || op == CompareOp::IsNot) {
    bool same;
    if (left.isConst() && right.isConst()) {
      same = left.constant.typeName() == right.constant.typeName() && left.constant == right.constant;
    } else if (left.isNone() || right.isNone()) {
      same = false;  // a tensor (or tuple, function, ...) is never None
    } else {
      same = left.sameAs(right);
    }
    return Value::ofConst(ConstValue::boolean(op == CompareOp::Is ? same : !same));
  }
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    if (!right.isTuple() || !left.isConst())
      error(e.range, "'in' is only supported for a constexpr value and a tuple of constexprs");
    bool found = false;
    for (const Value& el : right.elements)
      if (el.isConst() && el.constant == left.constant) found = true;
    return Value::ofConst(ConstValue::boolean(op == CompareOp::In ? found : !found));
  }
  return compare(*irCompareOp(op), left, right, e.range);
}

Value ExprChecker::checkIfExp(const IfExp& e) {
  Value test = check(*e.test);
  if (test.isConst()) return check(test.constant.truthy() ? *e.body : *e.orelse);
  if (!test.isTensor()) error(e.test->range, "a condition must be a scalar or a constexpr, not " + test.describe());
  if (test.expr.type().isTile())
    error(e.test->range, "a conditional expression needs a scalar condition, got " + test.expr.type().str() +
                             "; use tl.where(cond, a, b) to choose per element");
  const ir::Expr cond = toBool(test.expr, e.test->range);
  emitter().pushBlock();
  const ir::Expr a = tensorOf(check(*e.body), e.body->range, "a conditional expression's branch");
  ir::Stmt thenBlock = emitter().popBlock(e.body->range);
  emitter().pushBlock();
  const ir::Expr b = tensorOf(check(*e.orelse), e.orelse->range, "a conditional expression's branch");
  ir::Stmt elseBlock = emitter().popBlock(e.orelse->range);
  if (a.type() != b.type())
    error(e.range, "the branches of this conditional expression have different types (" + a.type().str() + " and " +
                       b.type().str() + "); convert one with .to() so that both match");
  const bool pure = thenBlock.as<ir::Seq>()->stmts.empty() && elseBlock.as<ir::Seq>()->stmts.empty();
  if (pure) {
    const ir::Expr c = a.type().isTile() ? ir::Splat::make(cond, a.type().shape(), e.range) : cond;
    return Value::ofTensor(ir::Select::make(c, a, b, e.range));
  }
  // A branch loads or calls: evaluate only the taken one, through a mutable temporary.
  ir::VarPtr result = emitter().newVar("ifexp", a.type(), e.range, true);
  emitter().emit(ir::Let::make(result, fn_.zeroOf(a.type(), e.range), e.range));
  auto withAssign = [&](const ir::Stmt& block, const ir::Expr& v) {
    std::vector<ir::Stmt> stmts = block.as<ir::Seq>()->stmts;
    stmts.push_back(ir::Assign::make(result, v, e.range));
    return ir::Seq::make(std::move(stmts), block.range());
  };
  emitter().emit(ir::If::make(cond, withAssign(thenBlock, a), withAssign(elseBlock, b), e.range));
  return Value::ofTensor(ir::VarRef::make(result, e.range));
}

Value ExprChecker::checkFString(const FString& e) {
  std::vector<ir::FormatPart> parts;
  std::string pending;
  bool allConst = true;
  for (const FStringPart& p : e.parts) {
    if (p.kind == FStringPart::Kind::Literal) {
      pending += p.text;
      continue;
    }
    if (p.selfDocumenting) pending += std::string(p.expr->range.text()) + "=";
    Value v = check(*p.expr);
    std::string spec;
    for (const FStringPart& s : p.formatSpec) {
      if (s.kind != FStringPart::Kind::Literal) error(s.range, "nested replacement fields in a format spec are not supported in kernels");
      spec += s.text;
    }
    char conversion = p.conversion;
    if (p.selfDocumenting && conversion == 0 && !p.hasFormatSpec) conversion = 'r';
    if (v.isConst() && spec.empty()) {
      pending += conversion == 'r' ? v.constant.repr() : v.constant.str();
      continue;
    }
    if (!v.isTensor() && !v.isConst()) error(p.expr->range, "f-string fields must be tensors or constexprs, not " + v.describe());
    allConst = false;
    ir::FormatPart part;
    part.literal = pending;
    pending.clear();
    part.value = tensorOf(v, p.expr->range, "an f-string field");
    part.conversion = conversion;
    part.formatSpec = spec;
    parts.push_back(std::move(part));
  }
  if (allConst) return Value::ofConst(ConstValue::string(pending));
  if (!pending.empty()) {
    ir::FormatPart tail;
    tail.literal = pending;
    parts.push_back(std::move(tail));
  }
  return Value::ofFormat(std::move(parts));
}

Value ExprChecker::select(const Value& cond, const Value& a, const Value& b, SourceRange range) {
  ir::Expr c = toBool(tensorOf(cond, range, "the condition of tl.where"), range);
  ir::Expr ea, eb;
  const bool pa = a.isTensor() && a.expr.type().isPointer();
  const bool pb = b.isTensor() && b.expr.type().isPointer();
  if (pa || pb) {
    if (!(pa && pb) || a.expr.type().dtype() != b.expr.type().dtype())
      error(range, "tl.where cannot choose between " + a.describe() + " and " + b.describe());
    ea = a.expr;
    eb = b.expr;
  } else {
    auto dt = ir::computationDType(operandOf(a, range, "tl.where's x"), operandOf(b, range, "tl.where's y"), false);
    if (!dt) error(range, dt.error());
    ea = tensorAs(a, *dt, range, "tl.where's x");
    eb = tensorAs(b, *dt, range, "tl.where's y");
  }
  auto shape = ir::broadcastShapes(c.type().shape(), ea.type().shape());
  if (!shape) error(range, shape.error());
  auto shape2 = ir::broadcastShapes(*shape, eb.type().shape());
  if (!shape2) error(range, shape2.error());
  c = Emitter::broadcastTo(c, *shape2, range);
  ea = Emitter::broadcastTo(ea, *shape2, range);
  eb = Emitter::broadcastTo(eb, *shape2, range);
  return Value::ofTensor(ir::Select::make(c, ea, eb, range));
}

Value ExprChecker::minMax(bool isMax, const Value& a, const Value& b, bool propagateNan, SourceRange range) {
  const ir::BinaryOp op = isMax ? ir::BinaryOp::Max : ir::BinaryOp::Min;
  if (a.isConst() && b.isConst()) {
    if (!a.isNumber() || !b.isNumber()) error(range, "tl.maximum/tl.minimum need numbers");
    std::string err;
    auto lt = foldCompare(ConstCmp::Lt, a.constant, b.constant, err);
    const bool aLess = lt && lt->asBool();
    return isMax ? (aLess ? b : a) : (aLess ? a : b);
  }
  auto typing = ir::binaryTyping(op, operandOf(a, range, "an operand"), operandOf(b, range, "an operand"));
  if (!typing) error(range, typing.error());
  ir::Expr ea = tensorAs(a, typing->operandDType, range, "an operand");
  ir::Expr eb = tensorAs(b, typing->operandDType, range, "an operand");
  auto [x, y] = broadcastPair(ea, eb, range);
  return Value::ofTensor(ir::Binary::make(op, x, y, range, propagateNan));
}

// ------------------------------------------------------------------------------------------ conversions

ir::Expr ExprChecker::tensorOf(const Value& v, SourceRange range, std::string_view what) {
  if (v.isTensor()) return v.expr;
  if (v.isConst()) {
    const ConstValue& c = v.constant;
    if (c.isBool()) return ir::IntImm::make(ir::DType::I1, c.asBool() ? 1 : 0, range);
    if (c.isInt()) return ir::IntImm::make(ir::literalIntDType(c.asInt()), c.asInt(), range);
    if (c.isFloat()) return ir::FloatImm::make(ir::literalFloatDType(c.asFloat()), c.asFloat(), range);
  }
  error(range, std::string(what) + " must be a tensor or a number, not " + v.describe());
}

ir::Expr ExprChecker::tensorAs(const Value& v, ir::DType t, SourceRange range, std::string_view what) {
  if (v.isNumber()) {
    const ConstValue& c = v.constant;
    if (c.isFloat()) return Emitter::constant(t, c.asFloat(), range);
    return Emitter::intConstant(t, c.toInt(), range);
  }
  ir::Expr e = tensorOf(v, range, what);
  if (e.type().isPointer()) error(range, std::string(what) + " must be a value, not the pointer " + e.type().str());
  return Emitter::cast(e, t, range);
}

ir::Expr ExprChecker::toBool(const ir::Expr& e, SourceRange range) {
  if (e.type().isBool()) return e;
  if (e.type().isPointer()) error(range, "a pointer cannot be used as a condition");
  return ir::Cast::make(e, ir::DType::I1, false, false, ir::RoundingMode::None, range);
}

ir::Operand ExprChecker::operandOf(const Value& v, SourceRange range, std::string_view what) {
  if (v.isTensor()) return ir::Operand::tensor(v.expr.type().dtype(), v.expr.type().isPointer());
  if (v.isConst()) {
    const ConstValue& c = v.constant;
    if (c.isBool()) return ir::Operand::literalBool(c.asBool());
    if (c.isInt()) return ir::Operand::literalInt(c.asInt());
    if (c.isFloat()) return ir::Operand::literalFloat(c.asFloat());
  }
  error(range, std::string(what) + " must be a tensor or a number, not " + v.describe());
}

std::pair<ir::Expr, ir::Expr> ExprChecker::broadcastPair(const ir::Expr& a, const ir::Expr& b, SourceRange range) {
  auto shape = ir::broadcastShapes(a.type().shape(), b.type().shape());
  if (!shape) error(range, shape.error());
  if (std::string err = ir::tileSizeError(*shape, "broadcasting " + ir::shapeString(a.type().shape()) + " with " +
                                                     ir::shapeString(b.type().shape()) + " gives a tile whose");
      !err.empty())
    error(range, err);
  return {Emitter::broadcastTo(a, *shape, range), Emitter::broadcastTo(b, *shape, range)};
}

ir::Expr ExprChecker::broadcastTo(const ir::Expr& e, const ir::Shape& shape, SourceRange range, std::string_view what) {
  auto common = ir::broadcastShapes(e.type().shape(), shape);
  if (!common || *common != shape)
    error(range, "cannot broadcast " + std::string(what) + " of shape " + ir::shapeString(e.type().shape()) + " to " +
                     ir::shapeString(shape));
  if (std::string err = ir::tileSizeError(shape, "broadcasting " + std::string(what) + " to"); !err.empty()) error(range, err);
  return Emitter::broadcastTo(e, shape, range);
}

const ConstValue& ExprChecker::requireConst(const Value& v, SourceRange range, std::string_view what) {
  if (!v.isConst()) error(range, std::string(what) + " must be a constexpr, not " + v.describe());
  return v.constant;
}

int64_t ExprChecker::requireConstInt(const Value& v, SourceRange range, std::string_view what) {
  if (v.isConst() && v.constant.isIntegral()) return v.constant.toInt();
  if (v.isTensor()) error(range, std::string(what) + " must be a constexpr int, not a runtime " + v.expr.type().str());
  error(range, std::string(what) + " must be a constexpr int, not " + v.describe());
}

bool ExprChecker::requireConstBool(const Value& v, SourceRange range, std::string_view what) {
  if (v.isConst() && (v.constant.isIntegral() || v.constant.isNone())) return v.constant.truthy();
  error(range, std::string(what) + " must be a constexpr bool, not " + v.describe());
}

std::string ExprChecker::requireConstString(const Value& v, SourceRange range, std::string_view what) {
  if (v.isConst() && v.constant.isString()) return v.constant.asString();
  if (v.isNone()) return {};
  error(range, std::string(what) + " must be a constexpr string, not " + v.describe());
}

ir::DType ExprChecker::requireDType(const Value& v, SourceRange range, std::string_view what) {
  if (v.isConst() && v.constant.isDType() && !v.constant.asDType().isPointer) return v.constant.asDType().dtype;
  if (v.isConst() && v.constant.isString()) {
    if (auto t = ir::parseDType(v.constant.asString())) return *t;
  }
  error(range, std::string(what) + " must be a dtype such as tl.float32, not " + v.describe());
}

ir::Shape ExprChecker::requireShape(const Value& v, SourceRange range, std::string_view what) {
  ir::Shape shape;
  if (v.isConst()) {
    shape.push_back(requireConstInt(v, range, what));
  } else if (v.isTuple()) {
    for (const Value& d : v.elements) shape.push_back(requireConstInt(d, range, std::string(what) + " dimensions"));
  } else {
    error(range, std::string(what) + " must be a tuple of constexpr ints, not " + v.describe());
  }
  for (int64_t d : shape)
    if (d <= 0) error(range, std::string(what) + " " + ir::shapeString(shape) + " has a dimension that is not positive");
  return shape;
}

// ------------------------------------------------------------------------------------------ calls

util::ArgumentBinding bindCallArgs(CheckContext& ctx, std::string_view name, const std::vector<util::ParameterInfo>& params,
                                   const CallArgs& args) {
  std::vector<std::string_view> keywords;
  keywords.reserve(args.kwargs.size());
  for (const auto& kw : args.kwargs) keywords.emplace_back(kw.first);
  util::ArgumentBinding binding = util::ArgumentBinding::bind(name, params, args.args.size(), keywords);
  if (!binding.ok()) {
    const util::BindingError& e = binding.error();
    SourceRange at = args.range;
    if (e.at == util::BindingError::At::Positional && e.index < args.argRanges.size()) at = args.argRanges[e.index];
    if (e.at == util::BindingError::At::Keyword && e.index < args.kwargRanges.size()) at = args.kwargRanges[e.index];
    ctx.error(at, bindingMessage(e));
  }
  return binding;
}

CallArgs ExprChecker::evaluateArgs(const Call& call) {
  CallArgs out;
  out.range = call.range;
  out.calleeRange = call.func->range;
  out.calleeText = std::string(call.func->range.text());
  for (const ExprPtr& a : call.args) {
    if (const auto* star = a->as<Starred>()) {
      Value v = check(*star->value);
      if (!v.isTuple()) error(a->range, "only tuples can be unpacked with '*', not " + v.describe());
      for (const Value& el : v.elements) {
        out.args.push_back(el);
        out.argRanges.push_back(a->range);
      }
      continue;
    }
    out.args.push_back(check(*a));
    out.argRanges.push_back(a->range);
  }
  for (const Keyword& k : call.keywords) {
    if (k.isDoubleStar()) error(k.range, "'**' unpacking of keyword arguments is not supported inside a kernel");
    out.kwargs.emplace_back(k.arg, check(*k.value));
    out.kwargRanges.push_back(k.range);
  }
  return out;
}

Value ExprChecker::checkCall(const Call& e) {
  Value callee = check(*e.func);
  if (callee.kind == Value::Kind::Builtin && (callee.name == "range" || callee.name == "tl.range" || callee.name == "tl.static_range"))
    error(e.range, std::string(e.func->range.text()) + "() can only be used as the iterable of a for loop");
  CallArgs args = evaluateArgs(e);
  return call(callee, args);
}

Value ExprChecker::call(const Value& callee, CallArgs& args) {
  switch (callee.kind) {
    case Value::Kind::Builtin: return callBuiltin(*this, callee.name, args);
    case Value::Kind::Method: return callMethod(callee, args);
    case Value::Kind::JitFunction: return fn_.callHelper(callee, args);
    case Value::Kind::HostFunction: return callHost(callee, args);
    default: error(args.calleeRange, "'" + args.calleeText + "' is not callable; it is " + callee.describe());
  }
}

Value ExprChecker::callMethod(const Value& method, CallArgs& args) {
  const Value& self = method.elements[0];
  if (self.isConst() && self.constant.isDType()) {
    if (!args.args.empty() || !args.kwargs.empty()) error(args.range, "dtype." + method.name + "() takes no arguments");
    return Value::ofConst(ConstValue::boolean(dtypePredicate(self.constant.asDType(), method.name)));
  }
  args.args.insert(args.args.begin(), self);
  args.argRanges.insert(args.argRanges.begin(), args.calleeRange);
  if (self.isTensorDescriptor()) return callBuiltin(*this, tensorDescriptorMethodBuiltin(method.name), args);
  return callBuiltin(*this, tensorMethodBuiltin(method.name), args);
}

Value ExprChecker::callHost(const Value& fn, CallArgs& args) {
  auto toArg = [&](const Value& v, SourceRange r) {
    switch (v.kind) {
      case Value::Kind::Tensor: return ir::HostArg::ofValue(v.expr);
      case Value::Kind::Const: return ir::HostArg::ofConstant(v.constant.toIR());
      case Value::Kind::Format: return ir::HostArg::ofFormat(v.parts);
      default: error(r, "cannot pass " + v.describe() + " to the Python function '" + fn.name + "'");
    }
  };
  std::vector<ir::HostArg> hostArgs;
  for (size_t i = 0; i < args.args.size(); ++i) hostArgs.push_back(toArg(args.args[i], args.argRanges[i]));
  std::vector<std::pair<std::string, ir::HostArg>> kw;
  for (size_t i = 0; i < args.kwargs.size(); ++i) kw.emplace_back(args.kwargs[i].first, toArg(args.kwargs[i].second, args.kwargRanges[i]));
  emitter().emit(ir::HostCall::make(fn.name, std::move(hostArgs), std::move(kw), args.range));
  return Value::ofConst(ConstValue::none());
}

}  // namespace tilescope::lang
