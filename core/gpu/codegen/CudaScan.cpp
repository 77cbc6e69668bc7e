// tl.cumsum / tl.cumprod: the operand staged in shared memory (one padding slot per 32 elements, so
// that threads walking runs 32 elements apart read different banks), each line of the axis cut into
// runs of ir::kScanRun scanned by different threads, then each line's run ends chained by one thread,
// then every element of a later run combined with the end of the run before it as it is read back.
// That is the simulator's order of evaluation (ir/Ops.h, core/sim/TileReduce.cpp); integer scans
// wrap, so any order gives their bits.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"

namespace tilescope::gpu {

using ir::DType;

std::string CudaEmitter::scan(const ir::Scan& n) {
  const ir::Type& t = n.type;
  const std::string v = expr(n.value);
  const ir::Shape& shape = t.shape();
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < n.axis; ++d) outer *= shape[d];
  for (size_t d = n.axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t len = shape[n.axis], lines = outer * inner, run = ir::kScanRun;
  const int64_t runs = (len + run - 1) / run;
  useShared(static_cast<size_t>((t.numel() + t.numel() / 32 + 1) * regBytes(t)));
  const std::string res = declareTemp(t);
  const DType dt = t.dtype();
  const std::string T = regType(dt), U = unsignedType(dt), A = arithmeticType(dt);
  const std::string L = n2s(len), I = n2s(inner), R = n2s(run), NT = n2s(threads_);
  const char* op = n.op == ir::ScanOp::CumSum ? "+" : "*";
  auto combine = [&](const std::string& p, const std::string& x) {
    if (ir::isFloat(dt)) return roundTo(dt, "(" + p + " " + op + " " + x + ")");
    if (dt == DType::I1) return n.op == ir::ScanOp::CumSum ? "(" + p + " != " + x + ")" : "(" + p + " && " + x + ")";
    return "(" + T + ")(" + A + ")((" + A + ")(" + U + ")" + p + " " + op + " (" + A + ")(" + U + ")" + x + ")";
  };
  // Element at walk position s of the line starting at ts_b, padded.
  auto at = [&](const std::string& s) {
    const std::string i = n.reverse ? "(" + L + " - 1 - (" + s + "))" : "(" + s + ")";
    return "ts_pad(ts_b + " + i + " * " + I + ")";
  };
  open("");
  line("auto ts_pad = [](int ts_e) { return ts_e + (ts_e >> 5); };");
  line(T + "* ts_s = (" + T + "*)(ts_smem + 0);");
  openLoop(t.numel());
  line("ts_s[ts_pad(ts_i)] = " + v + ";");
  closeLoop(t.numel());
  sync();
  // Each run scanned from its start.
  open("for (int ts_w = ts_tid; ts_w < " + n2s(lines * runs) + "; ts_w += " + NT + ")");
  line("const int ts_line = ts_w / " + n2s(runs) + ", ts_r0 = (ts_w % " + n2s(runs) + ") * " + R + ";");
  line("const int ts_b = (ts_line / " + I + ") * " + L + " * " + I + " + ts_line % " + I + ";");
  line("const int ts_end = min(" + L + ", ts_r0 + " + R + ");");
  line(T + " ts_acc = ts_s[" + at("ts_r0") + "];");
  open("for (int ts_q = ts_r0 + 1; ts_q < ts_end; ++ts_q)");
  line("ts_acc = " + combine("ts_acc", "ts_s[" + at("ts_q") + "]") + ";");
  line("ts_s[" + at("ts_q") + "] = ts_acc;");
  close();
  close();
  if (runs > 1) {
    sync();
    // Each line's run ends chained: the end of run c becomes the line's prefix up to it.
    open("for (int ts_w = ts_tid; ts_w < " + n2s(lines) + "; ts_w += " + NT + ")");
    line("const int ts_b = (ts_w / " + I + ") * " + L + " * " + I + " + ts_w % " + I + ";");
    line(T + " ts_acc = ts_s[" + at(n2s(run - 1)) + "];");
    open("for (int ts_r0 = " + R + "; ts_r0 < " + L + "; ts_r0 += " + R + ")");
    line("const int ts_last = min(" + L + ", ts_r0 + " + R + ") - 1;");
    line("ts_acc = " + combine("ts_acc", "ts_s[" + at("ts_last") + "]") + ";");
    line("ts_s[" + at("ts_last") + "] = ts_acc;");
    close();
    close();
  }
  sync();
  openLoop(t.numel());
  if (runs > 1) {
    // Element ts_i: its line, its walk position, and the end of the run before its own.
    line("const int ts_b = (ts_i / (" + L + " * " + I + ")) * " + L + " * " + I + " + ts_i % " + I + ";");
    const std::string i = "((ts_i / " + I + ") % " + L + ")";
    line("const int ts_q = " + (n.reverse ? "(" + L + " - 1 - " + i + ")" : i) + ", ts_r0 = ts_q / " + R + " * " + R + ";");
    line("const " + T + " ts_x = ts_s[ts_pad(ts_i)];");
    line(res + "[ts_j] = ts_r0 > 0 && ts_q != min(" + L + ", ts_r0 + " + R + ") - 1 ? " +
         combine("ts_s[" + at("ts_r0 - 1") + "]", "ts_x") + " : ts_x;");
  } else {
    line(res + "[ts_j] = ts_s[ts_pad(ts_i)];");
  }
  closeLoop(t.numel());
  sync();
  close();
  return res + "[ts_j]";
}

}  // namespace tilescope::gpu
