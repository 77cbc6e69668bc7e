#include "core/ir/IRPrinter.h"

#include <unordered_map>

#include "core/base/Diagnostic.h"

namespace tilescope::ir {

namespace {

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

std::string joinInts(const std::vector<int64_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

class Printer {
public:
  explicit Printer(IRPrinter::Options options) : options_(options) {}

  std::string out;

  void kernelHeader(const Kernel& k) {
    out += "kernel " + k.name + "(";
    for (size_t i = 0; i < k.params.size(); ++i) {
      const KernelParam& p = k.params[i];
      if (i) out += ", ";
      if (p.isConstexpr) {
        out += p.name + ": constexpr = " + p.value.repr();
      } else {
        out += "%" + p.name + ": " + p.type.str();
        if (p.divisibleBy16) out += " {divisible=16}";
      }
    }
    out += ") {\n";
  }

  void stmt(const Stmt& s, int depth) {
    if (!s) return;
    memo_.clear();
    switch (s.kind()) {
      case StmtKind::Let: {
        const auto& n = *s.as<Let>();
        const std::string value = rootText(n.value, depth);
        const std::string name = declare(n.var);
        line(depth, std::string(n.var->isMutable ? "var " : "let ") + name + ": " + n.var->type.str() + " = " + value,
             s.range());
        return;
      }
      case StmtKind::Assign: {
        const auto& n = *s.as<Assign>();
        const std::string value = rootText(n.value, depth);
        line(depth, "assign " + varName(n.var) + " = " + value, s.range());
        return;
      }
      case StmtKind::Store: {
        const auto& n = *s.as<Store>();
        const std::string ptr = operand(n.ptr, depth);
        const std::string value = operand(n.value, depth);
        std::string text = "store " + ptr + ", " + value;
        if (n.mask) text += ", mask=" + operand(n.mask, depth);
        if (n.cache != CacheModifier::None) text += ", cache=" + std::string(cacheModifierName(n.cache));
        if (n.eviction != EvictionPolicy::Normal) text += ", eviction=" + std::string(evictionPolicyName(n.eviction));
        line(depth, text, s.range());
        return;
      }
      case StmtKind::Seq:
        for (const Stmt& c : s.as<Seq>()->stmts) stmt(c, depth);
        return;
      case StmtKind::If: {
        const auto& n = *s.as<If>();
        line(depth, "if " + operand(n.cond, depth) + " {", s.range());
        stmt(n.thenBody, depth + 1);
        if (n.elseBody) {
          line(depth, "} else {", {});
          stmt(n.elseBody, depth + 1);
        }
        line(depth, "}", {});
        return;
      }
      case StmtKind::For: {
        const auto& n = *s.as<For>();
        const std::string start = operand(n.start, depth);
        const std::string end = operand(n.end, depth);
        const std::string step = operand(n.step, depth);
        std::string head = "for " + declare(n.iv) + ": " + n.iv->type.str() + " in " +
                           std::string(loopKindName(n.loopKind)) + "(" + start + ", " + end + ", " + step;
        if (n.hints.numStages) head += ", num_stages=" + std::to_string(*n.hints.numStages);
        if (n.hints.loopUnrollFactor) head += ", loop_unroll_factor=" + std::to_string(*n.hints.loopUnrollFactor);
        if (n.hints.disallowAccMultiBuffer) head += ", disallow_acc_multi_buffer=True";
        if (n.hints.flatten) head += ", flatten=True";
        if (n.hints.warpSpecialize) head += ", warp_specialize=True";
        line(depth, head + ") {", s.range());
        stmt(n.body, depth + 1);
        line(depth, "}", {});
        return;
      }
      case StmtKind::While: {
        const auto& n = *s.as<While>();
        line(depth, "while " + varName(n.cond) + " {", s.range());
        stmt(n.body, depth + 1);
        line(depth, "}", {});
        return;
      }
      case StmtKind::Print: {
        const auto& n = *s.as<Print>();
        std::string text = std::string(n.isDevicePrint ? "device_print " : "print ") + quote(n.prefix);
        for (const Expr& a : n.args) text += ", " + operand(a, depth);
        if (n.hex) text += ", hex=True";
        line(depth, text, s.range());
        return;
      }
      case StmtKind::Assert: {
        const auto& n = *s.as<Assert>();
        line(depth, "device_assert " + operand(n.cond, depth) + ", " + quote(n.message), s.range());
        return;
      }
      case StmtKind::Barrier: line(depth, "barrier", s.range()); return;
      case StmtKind::HostCall: {
        const auto& n = *s.as<HostCall>();
        std::string text = "host_call " + n.callee + "(";
        bool first = true;
        for (const HostArg& a : n.args) {
          text += (first ? "" : ", ") + hostArg(a, depth);
          first = false;
        }
        for (const auto& [name, a] : n.kwargs) {
          text += (first ? "" : ", ") + name + "=" + hostArg(a, depth);
          first = false;
        }
        line(depth, text + ")", s.range());
        return;
      }
      case StmtKind::Return: line(depth, "return", s.range()); return;
    }
    throw lang::InternalError("IRPrinter: unknown statement kind");
  }

  // An expression printed on its own: its interior nodes as temporaries, then "result = ...".
  void standaloneExpr(const Expr& e) {
    memo_.clear();
    if (!e) {
      out += "<undefined>\n";
      return;
    }
    const std::string text = rootText(e, -1);
    line(-1, "result = " + text + " : " + e.type().str(), e.range());
  }

private:
  IRPrinter::Options options_;
  std::unordered_map<const ExprNode*, std::string> memo_;  // temporaries of the current statement
  std::unordered_map<const Var*, std::string> varNames_;
  std::unordered_map<std::string, int> nameUses_;
  int nextTemp_ = 0;

  void line(int depth, const std::string& text, const SourceRange& range) {
    out.append(static_cast<size_t>(depth + 1) * 2, ' ');
    out += text;
    if (options_.locations && range.valid()) {
      const lang::LineColumn lc = range.start();
      out += "  loc(" + quote(range.file->name()) + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) + ")";
    }
    out += "\n";
  }

  std::string declare(const VarPtr& v) {
    auto it = varNames_.find(v.get());
    if (it != varNames_.end()) return it->second;
    const int uses = nameUses_[v->name]++;
    std::string name = uses == 0 ? v->name : v->name + "." + std::to_string(uses);
    varNames_.emplace(v.get(), name);
    return name;
  }

  std::string varName(const VarPtr& v) {
    auto it = varNames_.find(v.get());
    // A var used before its Let (the verifier rejects that) still prints recognisably.
    return it != varNames_.end() ? it->second : v->name + "?" + std::to_string(v->id);
  }

  static bool isLeaf(const Expr& e) {
    switch (e.kind()) {
      case ExprKind::IntImm:
      case ExprKind::FloatImm:
      case ExprKind::ParamRef:
      case ExprKind::VarRef: return true;
      default: return false;
    }
  }

  std::string leafText(const Expr& e) {
    switch (e.kind()) {
      case ExprKind::IntImm: {
        const auto& n = *e.as<IntImm>();
        if (n.type.dtype() == DType::I1) return n.value ? "true" : "false";
        if (n.type.dtype() == DType::U64 && n.value < 0) return std::to_string(static_cast<uint64_t>(n.value)) + ":u64";
        return std::to_string(n.value) + ":" + std::string(dtypeName(n.type.dtype()));
      }
      case ExprKind::FloatImm: {
        const auto& n = *e.as<FloatImm>();
        return pythonFloatRepr(n.value) + ":" + std::string(dtypeName(n.type.dtype()));
      }
      case ExprKind::ParamRef: return "%" + e.as<ParamRef>()->name;
      case ExprKind::VarRef: return varName(e.as<VarRef>()->var);
      default: throw lang::InternalError("IRPrinter: not a leaf");
    }
  }

  // The operand spelling of e: a leaf inline, else a temporary (printed first, once per statement).
  std::string operand(const Expr& e, int depth) {
    if (!e) return "<undefined>";
    if (isLeaf(e)) return leafText(e);
    auto it = memo_.find(e.get());
    if (it != memo_.end()) return it->second;
    const std::string text = nodeText(e, depth);
    std::string temp = "%" + std::to_string(nextTemp_++);
    line(depth, temp + " = " + text + " : " + e.type().str(), e.range());
    memo_.emplace(e.get(), temp);
    return temp;
  }

  // The root of a Let/Assign: its children as temporaries, the node itself inline.
  std::string rootText(const Expr& e, int depth) {
    if (!e) return "<undefined>";
    return isLeaf(e) ? leafText(e) : nodeText(e, depth);
  }

  std::string hostArg(const HostArg& a, int depth) {
    switch (a.kind) {
      case HostArg::Kind::Value: return operand(a.value, depth);
      case HostArg::Kind::Constant: return a.constant.repr();
      case HostArg::Kind::Format: {
        std::string s = "f\"";
        for (const FormatPart& p : a.parts) {
          for (char c : p.literal) s += (c == '{' || c == '}') ? std::string(2, c) : std::string(1, c);
          if (!p.value) continue;
          s += "{" + operand(p.value, depth);
          if (p.conversion) s += std::string("!") + p.conversion;
          if (!p.formatSpec.empty()) s += ":" + p.formatSpec;
          s += "}";
        }
        return s + "\"";
      }
    }
    return "?";
  }

  std::string memoryOptions(CacheModifier cache, EvictionPolicy eviction) {
    std::string s;
    if (cache != CacheModifier::None) s += ", cache=" + std::string(cacheModifierName(cache));
    if (eviction != EvictionPolicy::Normal) s += ", eviction=" + std::string(evictionPolicyName(eviction));
    return s;
  }

  std::string atomicOptions(MemSemantic sem, MemScope scope) {
    std::string s;
    if (sem != MemSemantic::AcqRel) s += ", sem=" + std::string(memSemanticName(sem));
    if (scope != MemScope::Gpu) s += ", scope=" + std::string(memScopeName(scope));
    return s;
  }

  std::string nodeText(const Expr& e, int depth) {
    auto op = [&](const Expr& x) { return operand(x, depth); };
    switch (e.kind()) {
      case ExprKind::IntImm:
      case ExprKind::FloatImm:
      case ExprKind::ParamRef:
      case ExprKind::VarRef: return leafText(e);
      case ExprKind::ProgramId: return "program_id " + std::to_string(e.as<ProgramId>()->axis);
      case ExprKind::NumPrograms: return "num_programs " + std::to_string(e.as<NumPrograms>()->axis);
      case ExprKind::Arange: {
        const auto& n = *e.as<Arange>();
        return "arange " + std::to_string(n.start) + ", " + std::to_string(n.end);
      }
      case ExprKind::Splat: return "splat " + op(e.as<Splat>()->value);
      case ExprKind::Broadcast: return "broadcast " + op(e.as<Broadcast>()->value);
      case ExprKind::ExpandDims: {
        const auto& n = *e.as<ExpandDims>();
        const std::string v = op(n.value);
        return "expand_dims " + v + ", axis=" + std::to_string(n.axis);
      }
      case ExprKind::Reshape: {
        const auto& n = *e.as<Reshape>();
        return "reshape " + op(n.value) + (n.canReorder ? ", can_reorder=True" : "");
      }
      case ExprKind::Permute: {
        const auto& n = *e.as<Permute>();
        const std::string v = op(n.value);
        return "permute " + v + ", order=" + joinInts(std::vector<int64_t>(n.order.begin(), n.order.end()));
      }
      case ExprKind::Cast: {
        const auto& n = *e.as<Cast>();
        std::string s = std::string(n.bitcast ? "bitcast " : "cast ") + op(n.value);
        if (n.rounding != RoundingMode::None) s += ", rounding=" + std::string(roundingModeName(n.rounding));
        return s;
      }
      case ExprKind::Unary: {
        const auto& n = *e.as<Unary>();
        return std::string(unaryOpName(n.op)) + " " + op(n.value);
      }
      case ExprKind::Binary: {
        const auto& n = *e.as<Binary>();
        const std::string a = op(n.a);
        const std::string b = op(n.b);
        std::string s = std::string(binaryOpName(n.op)) + " " + a + ", " + b;
        if (n.propagateNan) s += ", propagate_nan=True";
        return s;
      }
      case ExprKind::Select: {
        const auto& n = *e.as<Select>();
        const std::string c = op(n.cond);
        const std::string a = op(n.a);
        const std::string b = op(n.b);
        return "select " + c + ", " + a + ", " + b;
      }
      case ExprKind::MathCall: {
        const auto& n = *e.as<MathCall>();
        std::string s(mathFnName(n.fn));
        for (size_t i = 0; i < n.args.size(); ++i) s += (i ? ", " : " ") + op(n.args[i]);
        return s;
      }
      case ExprKind::Load: {
        const auto& n = *e.as<Load>();
        std::string s = "load " + op(n.ptr);
        if (n.mask) s += ", mask=" + op(n.mask);
        if (n.other) s += ", other=" + op(n.other);
        s += memoryOptions(n.cache, n.eviction);
        if (n.isVolatile) s += ", volatile=True";
        if (n.box) {
          // The descriptor box the same elements are (a bulk tensor copy on the GPU).
          auto list = [&](const std::vector<Expr>& xs) {
            std::string l;
            for (const Expr& x : xs) l += (l.empty() ? "" : ", ") + op(x);
            return "[" + l + "]";
          };
          s += ", box=(" + op(n.box->base) + ", shape=" + list(n.box->shape) + ", strides=" + list(n.box->strides) +
               ", at=" + list(n.box->offsets) + ", block=" + shapeString(n.box->block) + (n.box->padNan ? ", pad=nan" : "") + ")";
        }
        return s;
      }
      case ExprKind::AtomicRMW: {
        const auto& n = *e.as<AtomicRMW>();
        const std::string p = op(n.ptr);
        const std::string v = op(n.val);
        std::string s = "atomic_" + std::string(atomicOpName(n.op)) + " " + p + ", " + v;
        if (n.mask) s += ", mask=" + op(n.mask);
        return s + atomicOptions(n.sem, n.scope);
      }
      case ExprKind::AtomicCAS: {
        const auto& n = *e.as<AtomicCAS>();
        const std::string p = op(n.ptr);
        const std::string c = op(n.cmp);
        const std::string v = op(n.val);
        return "atomic_cas " + p + ", " + c + ", " + v + atomicOptions(n.sem, n.scope);
      }
      case ExprKind::Reduce: {
        const auto& n = *e.as<Reduce>();
        std::string s = "reduce_" + std::string(reduceOpName(n.op)) + " " + op(n.value) +
                        ", axis=" + (n.axis ? std::to_string(*n.axis) : std::string("all"));
        if (n.keepDims) s += ", keep_dims=True";
        if ((n.op == ReduceOp::ArgMax || n.op == ReduceOp::ArgMin) && !n.tieBreakLeft) s += ", tie_break_left=False";
        return s;
      }
      case ExprKind::InlineAsm: {
        const auto& n = *e.as<InlineAsm>();
        std::string s = "inline_asm " + quote(n.asmText) + ", " + quote(n.constraints);
        for (const Expr& a : n.args) s += ", " + op(a);
        s += ", dtypes=(";
        for (size_t i = 0; i < n.resultDTypes.size(); ++i) s += (i ? ", " : "") + std::string(dtypeName(n.resultDTypes[i]));
        s += "), output=" + std::to_string(n.output) + ", pack=" + std::to_string(n.pack);
        if (!n.isPure) s += ", is_pure=False";
        return s;
      }
      case ExprKind::Combine: {
        const auto& n = *e.as<Combine>();
        std::string s = n.scan ? "scan_combine " : "reduce_combine ";
        for (size_t i = 0; i < n.inputs.size(); ++i) s += (i ? ", " : "") + op(n.inputs[i]);
        s += ", axis=" + (n.axis ? std::to_string(*n.axis) : std::string("all"));
        if (n.keepDims) s += ", keep_dims=True";
        if (n.reverse) s += ", reverse=True";
        std::string params;
        for (size_t i = 0; i < n.params.size(); ++i) params += (i ? ", " : "") + declare(n.params[i]);
        line(depth, "combine(" + params + "):", n.range);
        std::string results;
        for (size_t i = 0; i < n.results.size(); ++i) results += (i ? ", " : "") + operand(n.results[i], depth + 1);
        line(depth + 1, "yield " + results, n.range);
        return s + ", output=" + std::to_string(n.output);
      }
      case ExprKind::Scan: {
        const auto& n = *e.as<Scan>();
        std::string s = "scan_" + std::string(scanOpName(n.op)) + " " + op(n.value) + ", axis=" + std::to_string(n.axis);
        if (n.reverse) s += ", reverse=True";
        return s;
      }
      case ExprKind::Dot: {
        const auto& n = *e.as<Dot>();
        const std::string a = op(n.a);
        const std::string b = op(n.b);
        std::string s = "dot " + a + ", " + b;
        if (n.acc) s += ", acc=" + op(n.acc);
        s += ", input_precision=" + std::string(inputPrecisionName(n.precision));
        if (n.maxNumImpreciseAcc) s += ", max_num_imprecise_acc=" + std::to_string(n.maxNumImpreciseAcc);
        return s;
      }
      case ExprKind::Rand: {
        const auto& n = *e.as<Rand>();
        const std::string seed = op(n.seed);
        const std::string offset = op(n.offset);
        std::string s = std::string(randKindName(n.kind)) + " " + seed + ", " + offset + ", n_rounds=" + std::to_string(n.nRounds);
        if (n.kind == RandKind::Int4x) s += ", component=" + std::to_string(n.component);
        return s;
      }
      case ExprKind::Hint: {
        const auto& n = *e.as<Hint>();
        return std::string(hintKindName(n.hint)) + " " + op(n.value) + ", " + joinInts(n.values);
      }
      case ExprKind::ConvertLayout: {
        const auto& n = *e.as<ConvertLayout>();
        return "convert_layout " + op(n.value) + ", " + n.layout.str();
      }
    }
    throw lang::InternalError("IRPrinter: unknown expression kind");
  }
};

}  // namespace

std::string IRPrinter::print(const Kernel& kernel) const {
  Printer p(options_);
  p.kernelHeader(kernel);
  p.stmt(kernel.body, 0);
  p.out += "}\n";
  return p.out;
}

std::string IRPrinter::print(const Stmt& stmt) const {
  Printer p(options_);
  p.stmt(stmt, -1);
  return p.out;
}

std::string IRPrinter::print(const Expr& expr) const {
  Printer p(options_);
  p.standaloneExpr(expr);
  return p.out;
}

}  // namespace tilescope::ir
