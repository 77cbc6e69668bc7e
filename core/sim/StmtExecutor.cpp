#include "core/sim/StmtExecutor.h"

#include <limits>

#include "core/sim/MemoryAccess.h"
#include "core/sim/SimulationError.h"
#include "core/sim/TileFormat.h"
#include "core/sim/TraceRecorder.h"

namespace tilescope::sim {

void StmtExecutor::run() { exec(launch_.kernel.body); }

void StmtExecutor::bind(const ir::VarPtr& var, TileRef value, const lang::SourceRange& range) {
  if (program_.trace && launch_.recorder && launch_.options.recordVariables)
    launch_.recorder->add(program_.trace, BindEvent{launch_.recorder->location(range), var->name, var->id, value});
  program_.env[var->id] = std::move(value);
}

StmtExecutor::Flow StmtExecutor::exec(const ir::Stmt& s) {
  using K = ir::StmtKind;
  switch (s.kind()) {
    case K::Let: {
      const auto* n = s.as<ir::Let>();
      bind(n->var, eval_.eval(n->value), n->range);
      return Flow::Normal;
    }
    case K::Assign: {
      const auto* n = s.as<ir::Assign>();
      bind(n->var, eval_.eval(n->value), n->range);
      return Flow::Normal;
    }
    case K::Store: {
      const auto* n = s.as<ir::Store>();
      const TileRef ptr = eval_.eval(n->ptr);
      const TileRef value = eval_.eval(n->value);
      const TileRef mask = eval_.evalOptional(n->mask);
      memaccess::store(launch_, program_, *n, *ptr, value, mask.get());
      return Flow::Normal;
    }
    case K::Seq:
      for (const ir::Stmt& c : s.as<ir::Seq>()->stmts)
        if (exec(c) == Flow::Return) return Flow::Return;
      return Flow::Normal;
    case K::If: {
      const auto* n = s.as<ir::If>();
      if (eval_.eval(n->cond)->asBool(0)) return exec(n->thenBody);
      return n->elseBody ? exec(n->elseBody) : Flow::Normal;
    }
    case K::For: return execFor(*s.as<ir::For>());
    case K::While: return execWhile(*s.as<ir::While>());
    case K::Print: print(*s.as<ir::Print>()); return Flow::Normal;
    case K::Assert: assertion(*s.as<ir::Assert>()); return Flow::Normal;
    case K::Barrier: return Flow::Normal;  // one program is one thread of control here
    case K::HostCall: hostCall(*s.as<ir::HostCall>()); return Flow::Normal;
    case K::Return: return Flow::Return;
  }
  throw lang::InternalError("simulator: unknown statement kind");
}

StmtExecutor::Flow StmtExecutor::execFor(const ir::For& n) {
  const ir::DType t = n.iv->type.dtype();
  // Bounds are evaluated once, as Python's range() does. Unsigned ivs above 2^63 are not modelled.
  const int64_t start = eval_.eval(n.start)->scalarInt();
  const int64_t end = eval_.eval(n.end)->scalarInt();
  const int64_t step = eval_.eval(n.step)->scalarInt();
  if (step == 0)
    throw SimulationError(lang::Diagnostic::error(
        n.step.range().valid() ? n.step.range() : n.range,
        "range() step is zero in program pid " + program_.pidText() + " of kernel '" + launch_.kernel.name +
            "'; the loop would never end"));
  for (int64_t v = start; step > 0 ? v < end : v > end;) {
    eval_.checkInterrupt();
    bind(n.iv, makeTileRef(Tile::scalarInt(t, v)), n.range);
    if (exec(n.body) == Flow::Return) return Flow::Return;
    // Stop instead of overflowing int64 past `end`.
    if (step > 0 ? v > std::numeric_limits<int64_t>::max() - step : v < std::numeric_limits<int64_t>::min() - step) break;
    v += step;
  }
  return Flow::Normal;
}

StmtExecutor::Flow StmtExecutor::execWhile(const ir::While& n) {
  while (true) {
    eval_.checkInterrupt();
    const TileRef& c = program_.env[n.cond->id];
    if (!c) throw lang::InternalError("simulator: while condition '" + n.cond->name + "' is unbound");
    if (!c->asBool(0)) return Flow::Normal;
    if (exec(n.body) == Flow::Return) return Flow::Return;
  }
}

void StmtExecutor::print(const ir::Print& n) {
  // Arguments are evaluated even when the line is filtered out: evaluation may have effects.
  std::vector<TileRef> values;
  for (const ir::Expr& a : n.args) values.push_back(eval_.eval(a));
  if (!program_.printEnabled) return;
  TileFormatOptions fmt;
  fmt.hex = n.hex;
  std::string line = "pid " + program_.pidText();
  std::string prefix = n.prefix;
  // device_print("offs", x) reads "offs: [...]", like the GPU's "prefix: value"; print() keeps
  // its text as written.
  if (n.isDevicePrint && !prefix.empty() && !values.empty() && prefix.back() != ':' && prefix.back() != ' ')
    prefix += ':';
  if (!prefix.empty()) line += " " + prefix;
  for (const TileRef& v : values) line += " " + formatTile(*v, fmt);
  if (program_.trace && launch_.recorder) launch_.recorder->add(program_.trace, PrintEvent{launch_.recorder->location(n.range), line});
  program_.output.push_back(std::move(line));
}

void StmtExecutor::assertion(const ir::Assert& n) {
  const TileRef c = eval_.eval(n.cond);
  for (int64_t i = 0; i < c->numel(); ++i) {
    if (c->asBool(i)) continue;
    std::string where = c->isScalar() ? "" : " (first failing element: index " + std::to_string(i) + ")";
    throw SimulationError(lang::Diagnostic::error(
        n.range, "device assertion failed in kernel '" + launch_.kernel.name + "', program pid " + program_.pidText() +
                     where + (n.message.empty() ? "" : ": " + n.message)));
  }
}

void StmtExecutor::hostCall(const ir::HostCall& n) {
  auto evalArg = [&](const ir::HostArg& a) {
    HostCallValue v;
    v.kind = a.kind;
    switch (a.kind) {
      case ir::HostArg::Kind::Value: v.value = eval_.eval(a.value); break;
      case ir::HostArg::Kind::Constant: v.constant = a.constant; break;
      case ir::HostArg::Kind::Format: {
        TileFormatOptions fmt;
        fmt.scalarAsArray = true;  // the interpreter's scalars are 1-element arrays
        for (const ir::FormatPart& p : a.parts) {
          HostCallValue::Part part{p.literal, p.value.defined() ? eval_.eval(p.value) : TileRef(), p.conversion, p.formatSpec};
          v.text += part.literal;
          if (part.value) v.text += formatTile(*part.value, fmt);
          v.parts.push_back(std::move(part));
        }
        break;
      }
    }
    return v;
  };
  HostCallEvent ev;
  ev.callee = n.callee;
  ev.pid = program_.pid;
  ev.range = n.range;
  for (const ir::HostArg& a : n.args) ev.args.push_back(evalArg(a));
  for (const auto& [name, a] : n.kwargs) ev.kwargs.emplace_back(name, evalArg(a));
  if (!launch_.options.hostCall) {
    launch_.warnOnce(&n, kWarnHostCall, program_.linearId,
                     lang::Diagnostic::warning(n.range, "call of host function '" + n.callee +
                                                            "' skipped: this launch has no host runtime to run Python code"));
    return;
  }
  const std::string error = launch_.options.hostCall(ev);
  if (!error.empty())
    throw SimulationError(lang::Diagnostic::error(n.range, "in host function '" + n.callee + "' called from program pid " +
                                                               program_.pidText() + ": " + error));
}

}  // namespace tilescope::sim
