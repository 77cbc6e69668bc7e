#include "core/sim/ExprEvaluator.h"

#include "core/sim/DeviceAddress.h"
#include "core/sim/MemoryAccess.h"
#include "core/sim/SimulationError.h"
#include "core/sim/TileDot.h"
#include "core/sim/TileOps.h"
#include "core/sim/TileRandom.h"
#include "core/sim/TileReduce.h"
#include "core/sim/TraceRecorder.h"

namespace tilescope::sim {

namespace {

[[noreturn]] void internal(const std::string& what) { throw lang::InternalError("simulator: " + what); }

ReduceKind traceKind(ir::ReduceOp op) {
  switch (op) {
    case ir::ReduceOp::Sum: return ReduceKind::Sum;
    case ir::ReduceOp::Max: return ReduceKind::Max;
    case ir::ReduceOp::Min: return ReduceKind::Min;
    case ir::ReduceOp::ArgMax: return ReduceKind::ArgMax;
    case ir::ReduceOp::ArgMin: return ReduceKind::ArgMin;
    case ir::ReduceOp::XorSum: return ReduceKind::XorSum;
  }
  internal("unknown reduction");
}

// Element i of t as a scalar tile, and back.
TileRef elementOf(const Tile& t, int64_t i) {
  Tile s(t.dtype(), false, {});
  if (t.hasFloatStorage()) s.floats()[0] = t.floats()[i];
  else s.ints()[0] = t.ints()[i];
  return makeTileRef(std::move(s));
}

void setElement(Tile& t, int64_t i, const Tile& s) {
  if (t.hasFloatStorage()) t.floats()[i] = s.floats()[0];
  else t.ints()[i] = s.ints()[0];
}

}  // namespace

TileRef ExprEvaluator::combine(const ir::Combine& n) {
  const size_t count = n.inputs.size();
  std::vector<TileRef> inputs;
  for (const ir::Expr& in : n.inputs) inputs.push_back(eval(in));
  const ir::Shape& shape = inputs[0]->shape();
  int64_t outer = 1, len = 1, inner = 1;
  if (n.axis) {
    for (int d = 0; d < *n.axis; ++d) outer *= shape[d];
    len = shape[*n.axis];
    for (size_t d = static_cast<size_t>(*n.axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  } else {
    len = inputs[0]->numel();
  }
  const size_t out = static_cast<size_t>(n.output);
  Tile result(n.type);
  std::vector<TileRef> acc(count);
  auto step = [&](int64_t at) {
    for (size_t k = 0; k < count; ++k) {
      program_.env[n.params[k]->id] = acc[k];
      program_.env[n.params[count + k]->id] = elementOf(*inputs[k], at);
    }
    std::vector<TileRef> next;
    for (const ir::Expr& r : n.results) next.push_back(eval(r));
    acc = std::move(next);
  };
  for (int64_t o = 0; o < outer; ++o) {
    checkInterrupt();
    for (int64_t in = 0; in < inner; ++in) {
      const int64_t base = o * len * inner + in;
      if (n.scan) {
        for (int64_t q = 0; q < len; ++q) {
          const int64_t at = base + (n.reverse ? len - 1 - q : q) * inner;
          if (q == 0) {
            for (size_t k = 0; k < count; ++k) acc[k] = elementOf(*inputs[k], at);
          } else {
            step(at);
          }
          setElement(result, at, *acc[out]);
        }
      } else {
        for (size_t k = 0; k < count; ++k) acc[k] = elementOf(*inputs[k], base);
        for (int64_t q = 1; q < len; ++q) step(base + q * inner);
        setElement(result, o * inner + in, *acc[out]);
      }
    }
  }
  return makeTileRef(std::move(result));
}

void ExprEvaluator::checkInterrupt() const {
  if (launch_.options.cancel.cancelled()) throw SimulationError::interrupted();
  if (launch_.abortAfter.load(std::memory_order_relaxed) < program_.linearId) throw SimulationError::aborted();
}

TileRef ExprEvaluator::eval(const ir::Expr& e) {
  if (!e.defined()) internal("evaluating an undefined expression");
  if (program_.invariantCache) {
    if (const int slot = launch_.facts.invariant.indexOf(e.get()); slot >= 0) {
      TileRef& cached = (*program_.invariantCache)[static_cast<size_t>(slot)];
      if (!cached) cached = compute(e);  // the cache never grows, so `cached` stays valid
      return cached;
    }
  }
  return compute(e);
}

TileRef ExprEvaluator::compute(const ir::Expr& e) {
  using K = ir::ExprKind;
  const ir::Type& type = e.type();
  switch (e.kind()) {
    case K::IntImm: return makeTileRef(Tile::scalarInt(type.dtype(), e.as<ir::IntImm>()->value));
    case K::FloatImm: return makeTileRef(Tile::scalarFloat(type.dtype(), e.as<ir::FloatImm>()->value));
    case K::ParamRef: {
      const int index = e.as<ir::ParamRef>()->index;
      if (index < 0 || index >= static_cast<int>(launch_.params.size()) || !launch_.params[index])
        internal("reference to parameter " + std::to_string(index) + " that has no runtime value");
      return launch_.params[index];
    }
    case K::VarRef: {
      const ir::VarPtr& v = e.as<ir::VarRef>()->var;
      if (v->id < 0 || v->id >= static_cast<int>(program_.env.size()) || !program_.env[v->id])
        internal("variable '" + v->name + "' read before it was bound");
      return program_.env[v->id];
    }
    case K::ProgramId: return makeTileRef(Tile::scalarInt(ir::DType::I32, program_.pid[e.as<ir::ProgramId>()->axis]));
    case K::NumPrograms:
      return makeTileRef(Tile::scalarInt(ir::DType::I32, launch_.grid.dims()[e.as<ir::NumPrograms>()->axis]));
    case K::Arange: {
      const auto* n = e.as<ir::Arange>();
      return makeTileRef(tileops::arange(n->start, n->end));
    }
    case K::Splat: return makeTileRef(tileops::splat(*eval(e.as<ir::Splat>()->value), type.shape()));
    case K::Broadcast: return makeTileRef(tileops::broadcastTo(*eval(e.as<ir::Broadcast>()->value), type.shape()));
    case K::ExpandDims: return makeTileRef(tileops::reshape(*eval(e.as<ir::ExpandDims>()->value), type.shape()));
    case K::Reshape: return makeTileRef(tileops::reshape(*eval(e.as<ir::Reshape>()->value), type.shape()));
    case K::Permute: {
      const auto* n = e.as<ir::Permute>();
      return makeTileRef(tileops::permute(*eval(n->value), n->order));
    }
    case K::Cast: {
      const auto* n = e.as<ir::Cast>();
      Tile out = tileops::cast(*eval(n->value), type.dtype(), type.isPointer(), n->bitcast, n->rounding);
      if (type.isPointer() && !n->value.type().isPointer()) translateAddresses(out);
      return makeTileRef(std::move(out));
    }
    case K::Unary: {
      const auto* n = e.as<ir::Unary>();
      return makeTileRef(tileops::unary(n->op, *eval(n->value)));
    }
    case K::Binary: {
      const auto* n = e.as<ir::Binary>();
      const TileRef a = eval(n->a);
      const TileRef b = eval(n->b);
      tileops::OpFlags flags;
      TileRef r = makeTileRef(tileops::binary(n->op, *a, *b, n->propagateNan, type, &flags));
      if (flags.intDivByZero)
        launch_.warnOnce(n, kWarnDivByZero, program_.linearId,
                         lang::Diagnostic::warning(n->range, "integer division by zero in kernel '" + launch_.kernel.name +
                                                                 "' (program pid " + program_.pidText() +
                                                                 "); the GPU result is undefined, the simulator gives " +
                                                                 (n->op == ir::BinaryOp::Div ? "-1 (all bits set)" : "the dividend")));
      return r;
    }
    case K::Select: {
      const auto* n = e.as<ir::Select>();
      const TileRef c = eval(n->cond);
      const TileRef a = eval(n->a);
      const TileRef b = eval(n->b);
      return makeTileRef(tileops::select(*c, *a, *b));
    }
    case K::MathCall: {
      const auto* n = e.as<ir::MathCall>();
      std::vector<TileRef> args;
      std::vector<const Tile*> ptrs;
      for (const ir::Expr& a : n->args) {
        args.push_back(eval(a));
        ptrs.push_back(args.back().get());
      }
      return makeTileRef(tileops::math(n->fn, ptrs));
    }
    case K::Load:
    case K::AtomicRMW:
    case K::AtomicCAS: return computeMemory(e);
    case K::Reduce: {
      const auto* n = e.as<ir::Reduce>();
      const TileRef input = eval(n->value);
      TileRef result = makeTileRef(tileops::reduce(n->op, *input, n->axis, n->keepDims, n->tieBreakLeft, type));
      if (tracingCompute()) {
        ReduceEvent r;
        r.location = launch_.recorder->location(e.range());
        r.kind = traceKind(n->op);
        r.axis = n->axis ? *n->axis : -1;
        r.keepDims = n->keepDims;
        r.inputShape = input->shape();
        r.resultShape = result->shape();
        r.input = input;
        r.result = result;
        launch_.recorder->addCompute(program_.trace, std::move(r));
      }
      return result;
    }
    case K::Combine: return combine(*e.as<ir::Combine>());
    case K::InlineAsm:
      // Triton's interpreter cannot run it either: the text is PTX for the GPU's own assembler.
      throw SimulationError(lang::Diagnostic::error(
          e.range(), "tl.inline_asm_elementwise runs PTX assembly, which the simulator cannot execute; run this kernel on the "
                     "GPU backend (--backend gpu), or write the operation with tl functions to simulate it"));
    case K::Scan: {
      const auto* n = e.as<ir::Scan>();
      return makeTileRef(tileops::scan(n->op, *eval(n->value), n->axis, n->reverse));
    }
    case K::Dot: {
      const auto* n = e.as<ir::Dot>();
      const TileRef a = eval(n->a);
      const TileRef b = eval(n->b);
      const TileRef acc = evalOptional(n->acc);
      bool cancelled = false;
      Tile r = tileops::dot(*a, *b, acc.get(), n->precision, type, &launch_.options.cancel, &cancelled);
      if (cancelled) throw SimulationError::interrupted();
      TileRef result = makeTileRef(std::move(r));
      if (tracingCompute()) {
        DotEvent d;
        d.location = launch_.recorder->location(e.range());
        d.aShape = a->shape();
        d.bShape = b->shape();
        d.resultShape = result->shape();
        d.hasAcc = acc != nullptr;
        d.a = a;
        d.b = b;
        d.acc = acc;
        d.result = result;
        launch_.recorder->addCompute(program_.trace, std::move(d));
      }
      return result;
    }
    case K::Rand: {
      const auto* n = e.as<ir::Rand>();
      const TileRef seed = eval(n->seed);
      const TileRef offset = eval(n->offset);
      return makeTileRef(tileops::random(n->kind, *seed, *offset, n->nRounds, n->component, type));
    }
    case K::Hint: {
      const auto* n = e.as<ir::Hint>();
      TileRef v = eval(n->value);
      checkHint(*n, *v);
      return v;
    }
    // Where the elements live on a GPU changes nothing they hold.
    case K::ConvertLayout: return eval(e.as<ir::ConvertLayout>()->value);
  }
  internal("unknown expression kind");
}

TileRef ExprEvaluator::computeMemory(const ir::Expr& e) {
  if (const auto* n = e.as<ir::Load>()) {
    const TileRef ptr = eval(n->ptr);
    const TileRef mask = evalOptional(n->mask);
    const TileRef other = evalOptional(n->other);
    return memaccess::load(launch_, program_, *n, *ptr, mask.get(), other.get());
  }
  if (const auto* n = e.as<ir::AtomicRMW>()) {
    const TileRef ptr = eval(n->ptr);
    const TileRef val = eval(n->val);
    const TileRef mask = evalOptional(n->mask);
    return memaccess::atomicRMW(launch_, program_, *n, *ptr, val, mask.get());
  }
  const auto* n = e.as<ir::AtomicCAS>();
  const TileRef ptr = eval(n->ptr);
  const TileRef cmp = eval(n->cmp);
  const TileRef val = eval(n->val);
  return memaccess::atomicCAS(launch_, program_, *n, *ptr, *cmp, val);
}

void ExprEvaluator::translateAddresses(Tile& pointers) const {
  const std::vector<AddressWindow>& windows = launch_.options.addressWindows;
  if (windows.empty()) return;
  int64_t* p = pointers.ints();
  for (int64_t i = 0, n = pointers.numel(); i < n; ++i) {
    const uint64_t a = static_cast<uint64_t>(p[i]);
    for (const AddressWindow& w : windows)
      if (a >= w.begin && a - w.begin < w.bytes) {
        p[i] = w.simulatedBase + static_cast<int64_t>(a - w.begin);
        break;
      }
  }
}

void ExprEvaluator::checkHint(const ir::Hint& n, const Tile& value) {
  // tl.multiple_of on a scalar is a promise codegen relies on (vectorized accesses); a broken
  // promise gives wrong GPU results, so say so. On tiles the promise is about the start of each
  // contiguous run (Triton's axis info), and the other hints are about layout: not checked.
  if (n.hint != ir::HintKind::MultipleOf || !value.isScalar() || value.hasFloatStorage() || n.values.empty()) return;
  const int64_t divisor = n.values[0];
  int64_t v = value.ints()[0];
  if (value.isPointer()) v = DeviceAddress::byteOffset(v) / elementBytes(value.dtype());
  if (divisor > 0 && v % divisor != 0)
    launch_.warnOnce(&n, kWarnHint, program_.linearId,
                     lang::Diagnostic::warning(n.range, "tl.multiple_of promises a multiple of " + std::to_string(divisor) +
                                                            " but program pid " + program_.pidText() + " has " +
                                                            std::to_string(v) +
                                                            "; code compiled for the GPU may read the wrong elements"));
}

}  // namespace tilescope::sim
