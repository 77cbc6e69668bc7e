// The ops that need elements owned by other threads: each stages its operand(s) in dynamic shared
// memory (ts_smem), synchronises, computes what this thread owns, and synchronises again before the
// buffer is reused. Orders of evaluation follow the simulator exactly (core/sim/TileReduce.cpp), so
// fp32 sums give the simulator's bits. tl.dot is in CudaTensorCoreDot.cpp.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"

#include <functional>
#include <optional>

namespace tilescope::gpu {

using ir::DType;

namespace {

std::vector<int64_t> stridesOf(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}


// ((ts_i / stride) % size) for dim d of shape, simplified where it can be.
std::string coord(const ir::Shape& shape, const std::vector<int64_t>& strides, size_t d) {
  std::string x = strides[d] == 1 ? "ts_i" : "(ts_i / " + n2s(strides[d]) + ")";
  if (d > 0) x = "(" + x + " % " + n2s(shape[d]) + ")";
  return x;
}

struct AxisView {
  int64_t outer = 1, len = 1, inner = 1;
};

AxisView viewAround(const ir::Shape& shape, std::optional<int> axis) {
  AxisView v;
  if (!axis) {
    v.len = ir::numElements(shape);
    return v;
  }
  for (int d = 0; d < *axis; ++d) v.outer *= shape[d];
  v.len = shape[*axis];
  for (size_t d = *axis + 1; d < shape.size(); ++d) v.inner *= shape[d];
  return v;
}

}  // namespace

void CudaEmitter::stageToShared(const std::string& value, const ir::Type& t, const std::string& ptrName, size_t byteOffset) {
  const std::string T = regType(t);
  line(T + "* " + ptrName + " = (" + T + "*)(ts_smem + " + std::to_string(byteOffset) + ");");
  openLoop(t.numel());
  line(ptrName + "[ts_i] = " + value + ";");
  closeLoop(t.numel());
}

std::string CudaEmitter::broadcast(const ir::Broadcast& n) {
  const ir::Type& src = n.value.type();
  const ir::Type& dst = n.type;
  const std::string v = expr(n.value);
  useShared(static_cast<size_t>(src.numel() * regBytes(src)));
  const std::string out = declareTemp(dst);
  const auto ss = stridesOf(src.shape()), ds = stridesOf(dst.shape());
  std::string index;
  for (size_t d = 0; d < dst.shape().size(); ++d) {
    if (src.shape()[d] == 1 || dst.shape()[d] == 1) continue;
    index += (index.empty() ? "" : " + ") + coord(dst.shape(), ds, d) + (ss[d] == 1 ? "" : " * " + n2s(ss[d]));
  }
  open("");
  stageToShared(v, src, "ts_s", 0);
  sync();
  openLoop(dst.numel());
  line(out + "[ts_j] = ts_s[" + (index.empty() ? "0" : index) + "];");
  closeLoop(dst.numel());
  sync();
  close();
  return out + "[ts_j]";
}

std::string CudaEmitter::permute(const ir::Permute& n) {
  if (canTranspose16(n)) return transpose16(n);
  const ir::Type& src = n.value.type();
  const ir::Type& dst = n.type;
  const std::string v = expr(n.value);
  useShared(static_cast<size_t>(src.numel() * regBytes(src)));
  const std::string out = declareTemp(dst);
  const int64_t rows = src.rank() == 2 ? src.shape()[0] : 0, cols = src.rank() == 2 ? src.shape()[1] : 0;
  // Measured on the H200 (64x64 tiles): fp32 (V = 4) 0.69 -> 0.92 of Triton, fp16 (V = 8) 0.69 -> 0.59,
  // so 8-wide groups keep the plain layout.
  if (n.order == std::vector<int>{1, 0} && cols >= 32 && (cols & (cols - 1)) == 0 && layout(dst.numel()).vec <= 4) {
    // A 2-D transpose: threads next to each other read elements V apart in one source column, which
    // would all fall on one bank. Element (r, c) goes to row r, column c ^ ((r / V) % 32) (inside the
    // row, since cols is a power of two >= 32): such a read hits 32 different banks.
    const std::string V = n2s(layout(dst.numel()).vec);
    auto at = [&](const std::string& r, const std::string& c) {
      return "(" + r + ") * " + n2s(cols) + " + ((" + c + ") ^ (((" + r + ") / " + V + ") & 31))";
    };
    open("");
    line(regType(src) + "* ts_s = (" + regType(src) + "*)ts_smem;");
    openLoop(src.numel());
    line("ts_s[" + at("ts_i / " + n2s(cols), "ts_i % " + n2s(cols)) + "] = " + v + ";");
    closeLoop(src.numel());
    sync();
    openLoop(dst.numel());
    line(out + "[ts_j] = ts_s[" + at("ts_i % " + n2s(rows), "ts_i / " + n2s(rows)) + "];");
    closeLoop(dst.numel());
    sync();
    close();
    return out + "[ts_j]";
  }
  const auto ss = stridesOf(src.shape()), ds = stridesOf(dst.shape());
  std::string index;
  for (size_t d = 0; d < dst.shape().size(); ++d) {
    if (dst.shape()[d] == 1) continue;
    const int64_t st = ss[static_cast<size_t>(n.order[d])];
    index += (index.empty() ? "" : " + ") + coord(dst.shape(), ds, d) + (st == 1 ? "" : " * " + n2s(st));
  }
  open("");
  stageToShared(v, src, "ts_s", 0);
  sync();
  openLoop(dst.numel());
  line(out + "[ts_j] = ts_s[" + (index.empty() ? "0" : index) + "];");
  closeLoop(dst.numel());
  sync();
  close();
  return out + "[ts_j]";
}

std::string reduceCombine(ir::ReduceOp op, DType t, const std::string& x, const std::string& y) {
  const std::string T = regType(t), U = unsignedType(t), A = arithmeticType(t);
  const bool flt = ir::isFloat(t), dbl = t == DType::FP64;
  switch (op) {
    case ir::ReduceOp::Sum:
      if (flt) return roundTo(t, "(" + x + " + " + y + ")");
      if (t == DType::I1) return "((" + x + ") != (" + y + "))";
      return "(" + T + ")(" + A + ")((" + A + ")(" + U + ")" + x + " + (" + A + ")(" + U + ")" + y + ")";
    case ir::ReduceOp::Max:
      if (flt) return std::string(dbl ? "fmax(" : "fmaxf(") + x + ", " + y + ")";
      return "(" + x + " > " + y + " ? " + x + " : " + y + ")";
    case ir::ReduceOp::Min:
      if (flt) return std::string(dbl ? "fmin(" : "fminf(") + x + ", " + y + ")";
      return "(" + x + " < " + y + " ? " + x + " : " + y + ")";
    case ir::ReduceOp::XorSum: return "(" + T + ")(" + x + " ^ " + y + ")";
    default: break;
  }
  throw lang::InternalError("cuda codegen: combine of an arg reduction");
}

bool CudaEmitter::canReduceFast(const ir::Reduce& n) const {
  if (n.op == ir::ReduceOp::ArgMax || n.op == ir::ReduceOp::ArgMin || n.value.type().isPointer()) return false;
  // numel a power of two makes outer, len and inner powers of two too.
  const ir::Type& in = n.value.type();
  const int64_t N = in.numel();
  if (!isPow2(threads_) || !isPow2(N)) return false;
  // Past 64 slots per thread the tile lives in local memory anyway, and the straight-line code of the
  // tree (one shuffle per live slot and lane level) must stay small for NVRTC: a reduction along a
  // short axis of a big tile keeps many slots live through the lane levels; those take the shared
  // memory tree.
  const BlockedLayout l = layout(N);
  const int S = l.slots(N);
  if (S > 64) return false;
  const AxisView a = viewAround(in.shape(), n.axis);
  const int lv = log2i(l.vec), lt = log2i(threads_), ln = log2i(N);
  const int lo = log2i(a.inner), hi = lo + log2i(a.len);
  const int groupLevels = std::max(0, hi - std::max(lo, lv + lt));
  const int laneLevels = std::max(0, std::min({hi, lv + 5, ln}) - std::max(lo, lv));
  return (S >> groupLevels) * laneLevels <= 64;
}

// The simulator's pairwise tree over the reduced axis, x[i] = reduceCombine(x[i], x[i + half]) with half
// going down through the powers of two, i.e. one level per bit of the element index from the highest
// reduced bit down. In the blocked layout an element index is, from the low bits up: the slot within a
// vec group, the lane, the warp, the group. So the levels are done, in the tree's order: group bits in
// registers; warp bits by one exchange through shared memory (the threads whose reduced warp bits are
// zero read their partners and finish those levels themselves); lane bits with __shfl_xor_sync (both
// partners compute reduceCombine(lower, upper)); vec bits in registers. The result of each output element
// (held where every reduced bit is zero) goes through shared memory to the output's layout.
std::string CudaEmitter::reduceFast(const ir::Reduce& n) {
  const ir::Type& in = n.value.type();
  const ir::Type& out = n.type;
  const std::string v = expr(n.value);
  const int64_t N = in.numel();
  const AxisView a = viewAround(in.shape(), n.axis);
  const BlockedLayout l = layout(N);
  const int S = l.slots(N);
  const int lv = log2i(l.vec), lt = log2i(threads_), ln = log2i(N);
  const int lo = log2i(a.inner), hi = lo + log2i(a.len);  // reduced bits [lo, hi)
  const DType dt = in.dtype();
  const std::string T = regType(in);
  const int bytes = regBytes(in);
  const std::string res = declareTemp(out);
  // The element index of slot j in this thread, as an expression.
  auto elem = [&](int j) {
    const int64_t base = static_cast<int64_t>(j / l.vec) * threads_ * l.vec + j % l.vec;
    return "(" + n2s(base) + " + ts_tid * " + n2s(l.vec) + ")";
  };
  const bool partial = N < static_cast<int64_t>(threads_) * l.vec;  // some threads own nothing
  const std::string active = partial ? "ts_tid < " + n2s(N / l.vec) : "";
  std::vector<bool> live(static_cast<size_t>(S), true);
  auto combineInto = [&](const std::string& x, const std::string& y) { return x + " = " + reduceCombine(n.op, dt, x, y) + ";"; };
  auto xs = [](int j) { return "ts_x[" + std::to_string(j) + "]"; };

  open("");
  line(T + " ts_x[" + n2s(S) + "]" + (partial ? " = {}" : "") + ";");
  openLoop(N);
  line("ts_x[ts_j] = " + v + ";");
  closeLoop(N);
  // Group bits: element bit b >= lv + lt is bit (b - lv - lt) of j / vec.
  for (int b = hi - 1; b >= std::max(lo, lv + lt); --b) {
    const int step = (1 << (b - lv - lt)) * l.vec;
    for (int j = 0; j < S; ++j) {
      if (!live[j] || ((j / l.vec) & (1 << (b - lv - lt))) != 0) continue;
      line(combineInto(xs(j), xs(j + step)));
      live[j + step] = false;
    }
  }
  // Lane bits [lv, min(lv + 5, ln)): both partners compute reduceCombine(lower, upper), so every lane of
  // the group ends with the same bits.
  const int laneLo = std::max(lo, lv), laneHi = std::min({hi, lv + 5, ln});
  auto laneLevels = [&](const std::string& x) {
    for (int b = laneHi - 1; b >= laneLo; --b) {
      const std::string m = n2s(int64_t{1} << (b - lv));
      open("");
      line("const " + T + " ts_s = ts_shfl_xor(" + x + ", " + m + ");");
      line(x + " = (ts_tid & " + m + ") ? " + reduceCombine(n.op, dt, "ts_s", x) + " : " + reduceCombine(n.op, dt, x, "ts_s") + ";");
      close();
    }
  };
  bool lanesDone = false;
  bool resultEverywhere = false;  // every thread holds the (scalar) result in its first live slot
  // Warp bits [lv + 5, min(lv + lt, ln)).
  const int wlo = std::max(lo, lv + 5), whi = std::min({hi, lv + lt, ln});
  size_t outOffset = 0;
  if (whi > wlo) {
    const int r = whi - wlo;
    // One padding word per 32: threads reading with a stride of vec (or count) words hit distinct banks.
    auto pad = [](const std::string& i) { return "ts_pad(" + i + ")"; };
    // pad(a + b) = pad(a) + pad(b) where a is a multiple of 32, and pad(tid * vec + k) = pad(tid * vec)
    // + k for k < vec (vec divides 32): so a slot's padded index is one register plus a constant,
    // which the shared-memory access takes as its immediate offset.
    auto paddedElem = [&](int j) {
      const int64_t base = static_cast<int64_t>(j / l.vec) * threads_ * l.vec;
      return "ts_pad(ts_tid * " + n2s(l.vec) + ") + " + n2s(base + base / 32 + j % l.vec);
    };
    line(T + "* ts_sx = (" + T + "*)ts_smem;");
    for (int j = 0; j < S; ++j)
      if (live[j]) line((partial ? "if (" + active + ") " : std::string()) + "ts_sx[" + paddedElem(j) + "] = " + xs(j) + ";");
    sync();
    const int64_t tmask = ((int64_t{1} << r) - 1) << (wlo - lv);
    const int64_t partners = int64_t{1} << r;
    // The levels over the warp bits of slot j, for the thread whose warp bits are zero and whose
    // element index is `e`; the partners' values come from ts_sx (the thread's own too when `own`
    // is empty).
    auto warpLevels = [&](const std::string& e, const std::string& own, const std::string& into) {
      open("");
      line(T + " ts_y[" + n2s(partners) + "];");
      line("ts_y[0] = " + (own.empty() ? "ts_sx[" + pad(e) + "]" : own) + ";");
      // The partners are (1 << wlo) elements apart, a multiple of 32: pad(e + d) = pad(e) + d + d / 32.
      for (int64_t q = 1; q < partners; ++q)
        line("ts_y[" + n2s(q) + "] = ts_sx[" + pad(e) + " + " + n2s((q << wlo) + (q << wlo) / 32) + "];");
      for (int64_t half = partners / 2; half >= 1; half /= 2)
        for (int64_t q = 0; q < half; ++q) line(combineInto("ts_y[" + n2s(q) + "]", "ts_y[" + n2s(q + half) + "]"));
      line(into + " = ts_y[0];");
      close();
    };
    std::vector<int> liveSlots;
    for (int j = 0; j < S; ++j)
      if (live[j]) liveSlots.push_back(j);
    const int64_t count = static_cast<int64_t>(liveSlots.size());
    // Only the live slots are staged: the highest element index they hold, plus one, padded.
    int64_t staged = 0;
    for (int j : liveSlots)
      staged = std::max<int64_t>(staged, (j / l.vec) * threads_ * l.vec + j % l.vec + (threads_ - 1) * l.vec + 1);
    outOffset = (static_cast<size_t>((staged + staged / 32 + 1) * bytes) + 15) / 16 * 16;
    if (!partial && count >= 2 && count <= partners) {
      // Spread the live slots over the partner threads (the one with warp bits w does slot
      // liveSlots[w] for the thread whose warp bits are zero), instead of one warp doing all of them;
      // that warp also does the slot's lane levels (w is the same across a warp, so the shuffles see
      // every lane). The same tree per slot, so the same result. The results go back through shared
      // memory.
      std::string slotsList;
      for (int j : liveSlots) slotsList += (slotsList.empty() ? "" : ", ") + n2s(j);
      const std::string w = "((ts_tid & " + n2s(tmask) + ") >> " + n2s(wlo - lv) + ")";
      const std::string owner = "(ts_tid & ~" + n2s(tmask) + ")";
      // A scalar result is read by every thread after the last barrier: its buffer is this
      // reduction's own static array, which no other op writes, and which this reduction writes again
      // only after its next first barrier; so no barrier is needed at the end.
      resultEverywhere = !out.isTile();
      if (resultEverywhere) {
        const std::string own = "ts_sr" + std::to_string(tempCounter_++);
        line("__shared__ __align__(16) " + T + " " + own + "[" + n2s(count) + "];");
        line(T + "* ts_sr = " + own + ";");
      } else {
        line(T + "* ts_sr = (" + T + "*)(ts_smem + " + n2s(static_cast<int64_t>(outOffset)) + ");");
      }
      open("if (" + w + " < " + n2s(count) + ")");
      if (liveSlots.back() == count - 1) {
        line("const int ts_js = " + w + ";");  // slots 0 .. count - 1
      } else {
        line("const int ts_jw[" + n2s(count) + "] = {" + slotsList + "};");
        line("const int ts_js = ts_jw[" + w + "];");
      }
      const std::string e = "((ts_js / " + n2s(l.vec) + ") * " + n2s(static_cast<int64_t>(threads_) * l.vec) + " + ts_js % " +
                            n2s(l.vec) + " + " + owner + " * " + n2s(l.vec) + ")";
      line(T + " ts_r;");
      warpLevels(e, "", "ts_r");
      laneLevels("ts_r");
      if (resultEverywhere) line("if (" + owner + " == 0) ts_sr[" + w + "] = ts_r;");  // the lanes agree
      else line("ts_sr[" + pad(owner + " * " + n2s(count) + " + " + w) + "] = ts_r;");
      close();
      lanesDone = true;
      sync();
      if (resultEverywhere) {
        // Every bit is reduced: the owner-0 row of ts_sr is the whole answer; every thread reads it
        // (one address per load, a broadcast) and finishes the vec levels itself.
        for (int64_t k = 0; k < count; ++k) line(xs(liveSlots[static_cast<size_t>(k)]) + " = ts_sr[" + n2s(k) + "];");
      } else {
        open("if ((ts_tid & " + n2s(tmask) + ") == 0)");
        for (int64_t k = 0; k < count; ++k)
          line(xs(liveSlots[static_cast<size_t>(k)]) + " = ts_sr[" +
               (32 % count == 0 ? pad("ts_tid * " + n2s(count)) + " + " + n2s(k) : pad("ts_tid * " + n2s(count) + " + " + n2s(k))) +
               "];");
        close();
      }
      if (!resultEverywhere) outOffset += (static_cast<size_t>((threads_ * count + threads_ * count / 32 + 1) * bytes) + 15) / 16 * 16;
    } else {
      open("if ((ts_tid & " + n2s(tmask) + ") == 0" + (partial ? " && " + active : "") + ")");
      for (int j : liveSlots) warpLevels(elem(j), xs(j), xs(j));
      close();
    }
  }
  if (!lanesDone)
    for (int j = 0; j < S; ++j)
      if (live[j]) laneLevels(xs(j));
  // Vec bits [0, lv).
  for (int b = std::min(hi, lv) - 1; b >= lo; --b) {
    for (int j = 0; j < S; ++j) {
      if (!live[j] || ((j % l.vec) & (1 << b)) != 0) continue;
      line(combineInto(xs(j), xs(j + (1 << b))));
      live[j + (1 << b)] = false;
    }
  }
  if (resultEverywhere) {
    useShared(outOffset);
    for (int j = 0; j < S; ++j)
      if (live[j]) {
        line(res + " = " + xs(j) + ";");
        break;
      }
    close();
    return element(res, out);
  }
  // Slot j holds the result of output element ((e >> hi) << lo) + (e & (inner - 1)) where the
  // thread's reduced bits are zero.
  useShared(outOffset + static_cast<size_t>(out.numel() * bytes));
  line(T + "* ts_so = (" + T + "*)(ts_smem + " + n2s(static_cast<int64_t>(outOffset)) + ");");
  int64_t tidMask = 0;
  for (int b = std::max(lo, lv); b < std::min({hi, lv + lt, ln}); ++b) tidMask |= int64_t{1} << (b - lv);
  std::string cond = tidMask ? "(ts_tid & " + n2s(tidMask) + ") == 0" : "";
  if (partial) cond += (cond.empty() ? "" : " && ") + active;
  if (!cond.empty()) open("if (" + cond + ")");
  for (int j = 0; j < S; ++j) {
    if (!live[j]) continue;
    const std::string e = elem(j);
    const std::string o = out.isTile() ? "((" + e + " >> " + n2s(hi) + ") << " + n2s(lo) + ") + (" + e + " & " + n2s(a.inner - 1) + ")" : "0";
    line("ts_so[" + o + "] = " + xs(j) + ";");
  }
  if (!cond.empty()) close();
  return readReductionFromShared(res, out);
}

std::string CudaEmitter::reduce(const ir::Reduce& n) {
  if (canReduceFast(n)) return reduceFast(n);
  if (canReduceRegrouped(n)) return reduceRegrouped(n);
  const ir::Type& in = n.value.type();
  const ir::Type& out = n.type;
  const std::string v = expr(n.value);
  if (in.isPointer()) unsupported(n.range, "reducing pointers");
  return reduceThroughShared(n, v, declareTemp(out));
}

std::string CudaEmitter::reduceThroughShared(const ir::Reduce& n, const std::string& v, const std::string& res) {
  const ir::Type& in = n.value.type();
  const ir::Type& out = n.type;
  const AxisView a = viewAround(in.shape(), n.axis);
  useShared(static_cast<size_t>(in.numel() * regBytes(in)));
  const std::string T = regType(in);
  const std::string L = n2s(a.len), I = n2s(a.inner), NT = n2s(threads_);
  open("");
  stageToShared(v, in, "ts_s", 0);
  sync();
  // Where output element ts_i reads its slice: o = ts_i / inner, k = ts_i % inner.
  const std::string base = out.isTile() ? "((ts_i / " + I + ") * " + L + " * " + I + " + ts_i % " + I + ")" : "0";
  auto forOutputs = [&](const std::function<void()>& body) {
    if (out.isTile()) {
      openLoop(out.numel());
      body();
      closeLoop(out.numel());
    } else {
      open("");
      line("const int ts_i = 0;");
      body();
      close();
    }
  };
  if ((n.op == ir::ReduceOp::ArgMax || n.op == ir::ReduceOp::ArgMin) && argReduceInGroups(n, a.outer, a.len, a.inner, res)) {
    // Few outputs: several threads per output (CudaArgReduce.cpp).
  } else if (n.op == ir::ReduceOp::ArgMax || n.op == ir::ReduceOp::ArgMin) {
    const char* cmp = n.op == ir::ReduceOp::ArgMax ? ">" : "<";
    forOutputs([&] {
      line("const int ts_b = " + base + ";");
      line("int ts_best = 0;");
      line("#pragma unroll 1");
      open("for (int ts_r = 1; ts_r < " + L + "; ++ts_r)");
      line("const " + T + " ts_x = ts_s[ts_b + ts_best * " + I + "], ts_y = ts_s[ts_b + ts_r * " + I + "];");
      line(std::string("if (!((ts_x ") + cmp + " ts_y)" + (n.tieBreakLeft ? " || (ts_x == ts_y)" : "") + ")) ts_best = ts_r;");
      close();
      line(element(res, out) + " = (ts_i32)ts_best;");
    });
  } else {
    // The simulator's pairwise tree: x[i] = reduceCombine(x[i], x[i + half]) for i < len - half.
    const std::string O = n2s(a.outer);
    open("for (int ts_len = " + L + "; ts_len > 1;)");
    line("const int ts_half = (ts_len + 1) / 2, ts_pairs = (ts_len - ts_half) * " + I + ";");
    open("for (int ts_w = ts_tid; ts_w < " + O + " * ts_pairs; ts_w += " + NT + ")");
    line("const int ts_r = ts_w % ts_pairs;");
    line("const int ts_x = (ts_w / ts_pairs) * " + L + " * " + I + " + ts_r;");
    line("ts_s[ts_x] = " + reduceCombine(n.op, in.dtype(), "ts_s[ts_x]", "ts_s[ts_x + ts_half * " + I + "]") + ";");
    close();
    sync();
    line("ts_len = ts_half;");
    close();
    forOutputs([&] { line(element(res, out) + " = ts_s[" + base + "];"); });
  }
  sync();
  close();
  return element(res, out);
}

std::string CudaEmitter::combineFold(const ir::Combine& n) {
  const size_t count = n.inputs.size();
  const ir::Type& in0 = n.inputs[0].type();
  const AxisView a = viewAround(in0.shape(), n.axis);
  std::vector<std::string> values;
  for (const ir::Expr& in : n.inputs) {
    if (in.type().isPointer()) unsupported(n.range, "combining pointers");
    values.push_back(expr(in));
  }
  std::vector<size_t> offsets;
  size_t bytes = 0;
  for (const ir::Expr& in : n.inputs) {
    offsets.push_back(bytes);
    bytes += (static_cast<size_t>(in.type().numel() * regBytes(in.type())) + 15) / 16 * 16;
  }
  useShared(bytes);
  const std::string res = declareTemp(n.type);
  const std::string L = n2s(a.len), I = n2s(a.inner);
  const size_t out = static_cast<size_t>(n.output);
  const std::string sOut = "ts_s" + std::to_string(out);
  open("");
  for (size_t k = 0; k < count; ++k) stageToShared(values[k], n.inputs[k].type(), "ts_s" + std::to_string(k), offsets[k]);
  sync();
  open("for (int ts_w = ts_tid; ts_w < " + n2s(a.outer * a.inner) + "; ts_w += " + n2s(threads_) + ")");
  line("const int ts_b = (ts_w / " + I + ") * " + L + " * " + I + " + ts_w % " + I + ";");
  const std::string first = n.scan && n.reverse ? "ts_b + " + n2s((a.len - 1) * a.inner) : "ts_b";
  for (size_t k = 0; k < count; ++k)
    line(regType(n.inputs[k].type().dtype()) + " " + varName(n.params[k]) + " = ts_s" + std::to_string(k) + "[" + first + "];");
  line("#pragma unroll 1");
  open("for (int ts_q = 1; ts_q < " + L + "; ++ts_q)");
  line("const int ts_at = ts_b + " + std::string(n.scan && n.reverse ? "(" + L + " - 1 - ts_q)" : "ts_q") + " * " + I + ";");
  for (size_t k = 0; k < count; ++k)
    line("const " + regType(n.inputs[k].type().dtype()) + " " + varName(n.params[count + k]) + " = ts_s" + std::to_string(k) + "[ts_at];");
  for (size_t k = 0; k < count; ++k)
    line("const " + regType(n.inputs[k].type().dtype()) + " ts_r" + std::to_string(k) + " = " + expr(n.results[k]) + ";");
  for (size_t k = 0; k < count; ++k) line(varName(n.params[k]) + " = ts_r" + std::to_string(k) + ";");
  if (n.scan) line(sOut + "[ts_at] = " + varName(n.params[out]) + ";");
  close();
  if (!n.scan) line(sOut + "[ts_b] = " + varName(n.params[out]) + ";");
  close();
  sync();
  if (n.scan) {
    openLoop(n.type.numel());
    line(res + "[ts_j] = " + sOut + "[ts_i];");
    closeLoop(n.type.numel());
  } else if (n.type.isTile()) {
    openLoop(n.type.numel());
    line(res + "[ts_j] = " + sOut + "[(ts_i / " + I + ") * " + L + " * " + I + " + ts_i % " + I + "];");
    closeLoop(n.type.numel());
  } else {
    line(res + " = " + sOut + "[0];");
  }
  sync();
  close();
  return element(res, n.type);
}

std::string CudaEmitter::readReductionFromShared(const std::string& res, const ir::Type& out) {
  sync();
  if (out.isTile()) {
    openLoop(out.numel());
    line(res + "[ts_j] = ts_so[ts_i];");
    closeLoop(out.numel());
  } else {
    line(res + " = ts_so[0];");
  }
  sync();
  close();
  return element(res, out);
}

}  // namespace tilescope::gpu
