// tl.argmax / tl.argmin with few outputs (a row's argmax): instead of one thread walking the whole
// axis, G threads per output (a power of two, at most a warp) each fold a contiguous run of the
// staged axis, and the runs are combined by warp shuffles in index order. The result is the
// simulator's (core/sim/TileReduce.cpp reduceArg: a left-to-right walk that keeps the best unless
// the next element beats it; NaN never wins a comparison, so the walk ends at the last NaN or at the
// best element after it). A run's state is (last NaN index, best index after it): combining runs A
// then B gives B's state when B holds a NaN, else A's NaN with the better of the two bests (A's on a
// tie when ties go left). That is associative, so any grouping gives the walk's answer.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"

namespace tilescope::gpu {

bool CudaEmitter::argReduceInGroups(const ir::Reduce& n, int64_t outer, int64_t len, int64_t inner,
                                    const std::string& res) {
  const ir::Type& in = n.value.type();
  const ir::Type& out = n.type;
  const int64_t outputs = outer * inner;
  int64_t g = 1;
  while (g < 32 && g * 2 <= len && g * 2 * outputs <= threads_) g *= 2;
  if (g < 4) return false;  // enough outputs for every thread: the one-thread walk per output is parallel
  // Runs of odd length (when longer than one) put the G threads' reads of shared memory on different banks.
  int64_t run = (len + g - 1) / g;
  if (run > 1 && run % 2 == 0) ++run;
  const std::string T = regType(in);
  const int bytes = regBytes(in);
  // __shfl_xor_sync takes 4- and 8-byte values: narrower ones travel as int.
  const std::string W = in.isFloat() ? T : bytes == 8 ? "long long" : "int";
  const char* cmp = n.op == ir::ReduceOp::ArgMax ? ">" : "<";
  auto keeps = [&](const std::string& x, const std::string& y) {  // the walk keeps x against y
    return "((" + x + " " + cmp + " " + y + ")" + (n.tieBreakLeft ? " || (" + x + " == " + y + ")" : std::string()) + ")";
  };
  const std::string G = n2s(g), I = n2s(inner), L = n2s(len);
  useShared(static_cast<size_t>(outputs * 4));
  line("int ts_nan = -1, ts_best = -1;");
  line(T + " ts_bv = (" + T + ")0;");
  line("const int ts_w = ts_tid / " + G + ", ts_sub = ts_tid % " + G + ";");
  open("if (ts_w < " + n2s(outputs) + ")");
  line("const int ts_b = (ts_w / " + I + ") * " + L + " * " + I + " + ts_w % " + I + ";");
  line("const int ts_hi = min(" + L + ", (ts_sub + 1) * " + n2s(run) + ");");
  open("for (int ts_r = ts_sub * " + n2s(run) + "; ts_r < ts_hi; ++ts_r)");
  line("const " + T + " ts_y = ts_s[ts_b + ts_r * " + I + "];");
  if (in.isFloat()) line("if (ts_y != ts_y) { ts_nan = ts_r; ts_best = -1; } else");
  line("if (ts_best < 0 || !" + keeps("ts_bv", "ts_y") + ") { ts_best = ts_r; ts_bv = ts_y; }");
  close();
  close();
  // Partners at distance o: the lane with bit o clear holds the earlier run.
  line("#pragma unroll");
  open("for (int ts_o = 1; ts_o < " + G + "; ts_o <<= 1)");
  line("const int ts_pn = __shfl_xor_sync(0xffffffffu, ts_nan, ts_o), ts_pb = __shfl_xor_sync(0xffffffffu, ts_best, ts_o);");
  line("const " + T + " ts_pv = (" + T + ")__shfl_xor_sync(0xffffffffu, (" + W + ")ts_bv, ts_o);");
  line("const bool ts_first = (ts_sub & ts_o) == 0;");
  line("const int ts_ln = ts_first ? ts_nan : ts_pn, ts_lb = ts_first ? ts_best : ts_pb;");
  line("const int ts_rn = ts_first ? ts_pn : ts_nan, ts_rb = ts_first ? ts_pb : ts_best;");
  line("const " + T + " ts_lv = ts_first ? ts_bv : ts_pv, ts_rv = ts_first ? ts_pv : ts_bv;");
  open("if (ts_rn >= 0)");
  line("ts_nan = ts_rn; ts_best = ts_rb; ts_bv = ts_rv;");
  close();
  open("else");
  line("ts_nan = ts_ln;");
  line("const bool ts_right = ts_rb >= 0 && (ts_lb < 0 || !" + keeps("ts_lv", "ts_rv") + ");");
  line("ts_best = ts_right ? ts_rb : ts_lb; ts_bv = ts_right ? ts_rv : ts_lv;");
  close();
  close();
  sync();  // every thread has read the staged values
  line("ts_i32* ts_so = (ts_i32*)ts_s;");
  line("if (ts_sub == 0 && ts_w < " + n2s(outputs) + ") ts_so[ts_w] = ts_best >= 0 ? ts_best : ts_nan;");
  sync();
  if (out.isTile()) {
    openLoop(out.numel());
    line(res + "[ts_j] = ts_so[ts_i];");
    closeLoop(out.numel());
  } else {
    line(res + " = ts_so[0];");
  }
  return true;
}

}  // namespace tilescope::gpu
