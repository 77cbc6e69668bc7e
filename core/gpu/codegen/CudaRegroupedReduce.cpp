// Reductions whose tiles hold many slots per thread along the reduced axis (the atomics suite's
// [8, 2048] fp32 tile over 128 threads: 128 slots, of which 32 stay live after the in-register
// levels): the warp exchange and lane shuffles of reduceFast would take one shuffle per live slot
// and lane level (160 here), so those tiles went through the shared-memory tree, a barrier per
// level. Instead the partial values are regrouped once through shared memory so that each output
// element's remaining values sit in P consecutive lanes, P at most 32, each lane holding the values
// whose low bits are its lane: the high levels of the tree are then register adds, the low ones P's
// shuffles. Same pairwise tree as the simulator (core/sim/TileReduce.cpp), so the same bits.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"

#include <algorithm>

namespace tilescope::gpu {

namespace {

// The reduction's geometry in the blocked layout: reduced element bits [lo, hi); the bits at and
// above lv + lt are the thread's groups (reduced in registers first), those below are the lanes',
// warps' and vec's, regrouped.
struct Regroup {
  int lv = 0, lt = 0, lo = 0, hi = 0, hr = 0;  // hr = min(hi, lv + lt): the regrouped bits are [lo, hr)
  int64_t inner = 1, count = 1, outputs = 1;   // count = 2^(hr - lo) values per output element
  int64_t lanes = 1, perLane = 1, countPad = 1, passes = 1;
};

std::optional<Regroup> regroupOf(const ir::Type& in, std::optional<int> axis, int threads, const BlockedLayout& l,
                                 int maxSlots) {
  const int64_t N = in.numel();
  if (!isPow2(N) || !isPow2(threads) || threads < 32 || N < static_cast<int64_t>(threads) * l.vec) return std::nullopt;
  if (l.slots(N) > maxSlots) return std::nullopt;
  Regroup g;
  g.lv = log2i(l.vec);
  g.lt = log2i(threads);
  int64_t len = N;
  if (axis) {
    len = in.shape()[static_cast<size_t>(*axis)];
    for (size_t d = static_cast<size_t>(*axis) + 1; d < in.shape().size(); ++d) g.inner *= in.shape()[d];
  }
  g.lo = log2i(g.inner);
  g.hi = g.lo + log2i(len);
  g.hr = std::min(g.hi, g.lv + g.lt);
  if (g.hr <= g.lo) return std::nullopt;  // nothing left after the thread's own levels: reduceFast's case
  g.count = int64_t{1} << (g.hr - g.lo);
  g.outputs = N / len;
  // Enough lanes per output to keep every thread busy, at most a warp's.
  g.lanes = std::clamp<int64_t>(threads / g.outputs, 1, std::min<int64_t>(32, g.count));
  g.perLane = g.count / g.lanes;
  if (g.perLane > 64) return std::nullopt;
  // A warp reading 32 / lanes outputs at once: their rows start `lanes` banks apart.
  g.countPad = g.lanes < 32 && g.count % 32 == 0 ? g.count + g.lanes : g.count;
  g.passes = std::max<int64_t>(1, g.outputs * g.lanes / threads);
  return g;
}

}  // namespace

bool CudaEmitter::canReduceRegrouped(const ir::Reduce& n) const {
  if (n.op == ir::ReduceOp::ArgMax || n.op == ir::ReduceOp::ArgMin || n.value.type().isPointer()) return false;
  return regroupOf(n.value.type(), n.axis, threads_, layout(n.value.type().numel()), maxUnrolledSlots()).has_value();
}

std::string CudaEmitter::reduceRegrouped(const ir::Reduce& n) {
  const ir::Type& in = n.value.type();
  const ir::Type& out = n.type;
  const std::string v = expr(n.value);
  const int64_t N = in.numel();
  const BlockedLayout l = layout(N);
  const int S = l.slots(N);
  const Regroup g = *regroupOf(in, n.axis, threads_, l, maxUnrolledSlots());
  const ir::DType dt = in.dtype();
  const std::string T = regType(in);
  const int bytes = regBytes(in);
  const std::string res = declareTemp(out);
  auto xs = [](int64_t j) { return "ts_x[" + n2s(j) + "]"; };
  auto combineInto = [&](const std::string& x, const std::string& y) {
    return x + " = " + reduceCombine(n.op, dt, x, y) + ";";
  };

  open("");
  line(T + " ts_x[" + n2s(S) + "];");
  openLoop(N);
  line("ts_x[ts_j] = " + v + ";");
  closeLoop(N);
  // The thread's group bits [lv + lt, hi), highest first, in registers.
  std::vector<bool> live(static_cast<size_t>(S), true);
  for (int b = g.hi - 1; b >= std::max(g.lo, g.lv + g.lt); --b) {
    const int step = (1 << (b - g.lv - g.lt)) * l.vec;
    for (int j = 0; j < S; ++j) {
      if (!live[j] || ((j / l.vec) & (1 << (b - g.lv - g.lt))) != 0) continue;
      line(combineInto(xs(j), xs(j + step)));
      live[j + step] = false;
    }
  }
  // Each live value to its output's row of `count` (padded): element e is value r = (e >> lo) %
  // count of output ((e >> hi) << lo) + e % inner. The thread's index enters e as tid * vec.
  line(T + "* ts_sx = (" + T + "*)ts_smem;");
  for (int j = 0; j < S; ++j) {
    if (!live[j]) continue;
    const int64_t base = static_cast<int64_t>(j / l.vec) * threads_ * l.vec + j % l.vec;
    const std::string e = "(" + n2s(base) + " + ts_tid * " + n2s(l.vec) + ")";
    const std::string o = "(((" + e + " >> " + n2s(g.hi) + ") << " + n2s(g.lo) + ") + (" + e + " & " + n2s(g.inner - 1) + "))";
    const std::string r = "((" + e + " >> " + n2s(g.lo) + ") & " + n2s(g.count - 1) + ")";
    line("ts_sx[" + o + " * " + n2s(g.countPad) + " + " + r + "] = " + xs(j) + ";");
  }
  sync();
  const size_t outOffset = (static_cast<size_t>(g.outputs * g.countPad * bytes) + 15) / 16 * 16;
  useShared(outOffset + static_cast<size_t>(g.outputs * bytes));
  line(T + "* ts_so = (" + T + "*)(ts_smem + " + n2s(static_cast<int64_t>(outOffset)) + ");");
  line("const int ts_q = ts_tid & " + n2s(g.lanes - 1) + ";");
  const std::string perPass = n2s(threads_ / g.lanes);
  line("#pragma unroll 1");
  open("for (int ts_o = ts_tid / " + n2s(g.lanes) + "; ts_o < " + n2s(g.passes * (threads_ / g.lanes)) + "; ts_o += " + perPass + ")");
  // Every lane runs the shuffles; lanes past the last output (lanes * outputs < threads) read nothing.
  const bool idle = g.outputs * g.lanes < threads_;
  line(T + " ts_y[" + n2s(g.perLane) + "];");
  if (idle) open("if (ts_o < " + n2s(g.outputs) + ")");
  for (int64_t b = 0; b < g.perLane; ++b)
    line("ts_y[" + n2s(b) + "] = ts_sx[ts_o * " + n2s(g.countPad) + " + " + n2s(b * g.lanes) + " + ts_q];");
  if (idle) {
    close();
    open("else");
    for (int64_t b = 0; b < g.perLane; ++b) line("ts_y[" + n2s(b) + "] = " + T + "();");
    close();
  }
  // Value r = b * lanes + q: the bits of b are the tree's higher levels, those of q its lower ones.
  for (int64_t half = g.perLane / 2; half >= 1; half /= 2)
    for (int64_t b = 0; b < half; ++b) line(combineInto("ts_y[" + n2s(b) + "]", "ts_y[" + n2s(b + half) + "]"));
  for (int64_t m = g.lanes / 2; m >= 1; m /= 2) {
    open("");
    line("const " + T + " ts_s = ts_shfl_xor(ts_y[0], " + n2s(m) + ");");
    line("ts_y[0] = (ts_tid & " + n2s(m) + ") ? " + reduceCombine(n.op, dt, "ts_s", "ts_y[0]") + " : " +
         reduceCombine(n.op, dt, "ts_y[0]", "ts_s") + ";");
    close();
  }
  line(std::string("if (ts_q == 0") + (idle ? " && ts_o < " + n2s(g.outputs) : "") + ") ts_so[ts_o] = ts_y[0];");
  close();
  return readReductionFromShared(res, out);
}

}  // namespace tilescope::gpu
