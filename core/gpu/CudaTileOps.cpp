// The ops that need elements owned by other threads: each stages its operand(s) in dynamic shared
// memory (ts_smem), synchronises, computes what this thread owns, and synchronises again before the
// buffer is reused. Orders of evaluation follow the simulator exactly (core/sim/TileReduce.cpp,
// TileDot.cpp), so fp32 sums and dots give the simulator's bits.
#include "core/gpu/CudaEmitter.h"
#include "core/gpu/CudaTypes.h"

#include <cstdlib>
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

std::string n2s(int64_t v) { return std::to_string(v); }

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
  const ir::Type& src = n.value.type();
  const ir::Type& dst = n.type;
  const std::string v = expr(n.value);
  useShared(static_cast<size_t>(src.numel() * regBytes(src)));
  const std::string out = declareTemp(dst);
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

namespace {

// The simulator's combine for op on dtype t, as an expression of x and y.
std::string combine(ir::ReduceOp op, DType t, const std::string& x, const std::string& y) {
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

}  // namespace

bool CudaEmitter::reduceInRegisters(const ir::Reduce& n, const std::string& value, const std::string& res) {
  const ir::Type& in = n.value.type();
  const int64_t L = in.numel(), T = threads_;
  const bool power2 = L > 0 && (L & (L - 1)) == 0 && (T & (T - 1)) == 0;
  if (!n.type.isScalar() || !power2 || L % T != 0 || L / T > 64 || n.op == ir::ReduceOp::ArgMax ||
      n.op == ir::ReduceOp::ArgMin)
    return false;
  // The tree pairs x[i] with x[i + half]. With element i in thread i % T, slot i / T, every level
  // with half >= T pairs two slots of one thread; levels down to half = 32 pair threads of different
  // warps (shared memory); the last five pair lanes of one warp (shuffles).
  const DType dt = in.dtype();
  const std::string R = regType(in);
  const std::string S = n2s(L / T);
  const std::string shuffleType = dt == DType::FP64 ? "double"
                                  : R == "float"    ? "float"
                                  : ir::bitWidth(dt) == 64 ? "long long"
                                                           : "int";
  useShared(static_cast<size_t>(T * regBytes(in)));
  open("");
  line(R + " ts_r[" + S + "];");
  openLoop(L);
  line("ts_r[ts_j] = " + value + ";");
  closeLoop(L);
  line("#pragma unroll");
  open("for (int ts_h = " + S + " / 2; ts_h >= 1; ts_h /= 2)");
  line("#pragma unroll");
  line("for (int ts_q = 0; ts_q < ts_h; ++ts_q) ts_r[ts_q] = " + combine(n.op, dt, "ts_r[ts_q]", "ts_r[ts_q + ts_h]") + ";");
  close();
  line(R + " ts_x = ts_r[0];");
  line(R + "* ts_s = (" + R + "*)ts_smem;");
  if (T > 32) {
    line("ts_s[ts_tid] = ts_x;");
    sync();
    open("for (int ts_h = " + n2s(T / 2) + "; ts_h >= 32; ts_h /= 2)");
    line("if (ts_tid < ts_h) ts_s[ts_tid] = " + combine(n.op, dt, "ts_s[ts_tid]", "ts_s[ts_tid + ts_h]") + ";");
    sync();
    close();
    line("ts_x = ts_s[ts_tid];");
  }
  line("#pragma unroll");
  open("for (int ts_h = 16; ts_h >= 1; ts_h /= 2)");
  line("const " + R + " ts_y = (" + R + ")__shfl_down_sync(0xffffffffu, (" + shuffleType + ")ts_x, ts_h);");
  line("ts_x = " + combine(n.op, dt, "ts_x", "ts_y") + ";");
  close();
  if (T > 32) sync();  // everyone has read ts_s before thread 0 overwrites ts_s[0]
  line("if (ts_tid == 0) ts_s[0] = ts_x;");
  sync();
  line(res + " = ts_s[0];");
  sync();
  close();
  return true;
}

std::string CudaEmitter::reduce(const ir::Reduce& n) {
  const ir::Type& in = n.value.type();
  const ir::Type& out = n.type;
  const std::string v = expr(n.value);
  if (in.isPointer()) unsupported(n.range, "reducing pointers");
  if (out.isScalar()) {
    const std::string res = declareTemp(out);
    if (reduceInRegisters(n, v, res)) return res;
    return reduceThroughShared(n, v, res);
  }
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
  if (n.op == ir::ReduceOp::ArgMax || n.op == ir::ReduceOp::ArgMin) {
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
    // The simulator's pairwise tree: x[i] = combine(x[i], x[i + half]) for i < len - half.
    const std::string O = n2s(a.outer);
    open("for (int ts_len = " + L + "; ts_len > 1;)");
    line("const int ts_half = (ts_len + 1) / 2, ts_pairs = (ts_len - ts_half) * " + I + ";");
    open("for (int ts_w = ts_tid; ts_w < " + O + " * ts_pairs; ts_w += " + NT + ")");
    line("const int ts_r = ts_w % ts_pairs;");
    line("const int ts_x = (ts_w / ts_pairs) * " + L + " * " + I + " + ts_r;");
    line("ts_s[ts_x] = " + combine(n.op, in.dtype(), "ts_s[ts_x]", "ts_s[ts_x + ts_half * " + I + "]") + ";");
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

std::string CudaEmitter::scan(const ir::Scan& n) {
  const ir::Type& t = n.type;
  const std::string v = expr(n.value);
  const AxisView a = viewAround(t.shape(), n.axis);
  useShared(static_cast<size_t>(t.numel() * regBytes(t)));
  const std::string res = declareTemp(t);
  const DType dt = t.dtype();
  const std::string T = regType(dt), U = unsignedType(dt), A = arithmeticType(dt);
  const std::string L = n2s(a.len), I = n2s(a.inner);
  std::string step;
  const char* op = n.op == ir::ScanOp::CumSum ? "+" : "*";
  if (ir::isFloat(dt)) step = roundTo(dt, "(ts_s[ts_p] " + std::string(op) + " ts_s[ts_at])");
  else if (dt == DType::I1) step = n.op == ir::ScanOp::CumSum ? "(ts_s[ts_p] != ts_s[ts_at])" : "(ts_s[ts_p] && ts_s[ts_at])";
  else step = "(" + T + ")(" + A + ")((" + A + ")(" + U + ")ts_s[ts_p] " + op + " (" + A + ")(" + U + ")ts_s[ts_at])";
  open("");
  stageToShared(v, t, "ts_s", 0);
  sync();
  open("for (int ts_w = ts_tid; ts_w < " + n2s(a.outer * a.inner) + "; ts_w += " + n2s(threads_) + ")");
  line("const int ts_b = (ts_w / " + I + ") * " + L + " * " + I + " + ts_w % " + I + ";");
  open("for (int ts_q = 1; ts_q < " + L + "; ++ts_q)");
  if (n.reverse) {
    line("const int ts_at = ts_b + (" + L + " - 1 - ts_q) * " + I + ", ts_p = ts_at + " + I + ";");
  } else {
    line("const int ts_at = ts_b + ts_q * " + I + ", ts_p = ts_at - " + I + ";");
  }
  line("ts_s[ts_at] = " + step + ";");
  close();
  close();
  sync();
  openLoop(t.numel());
  line(res + "[ts_j] = ts_s[ts_i];");
  closeLoop(t.numel());
  sync();
  close();
  return res + "[ts_j]";
}

namespace {

// How the warps split an M x N output of 16 x 16 tensor-core tiles: each warp computes blocks of
// FM x FN tiles (reusing each A fragment FN times and each B fragment FM times), blocks assigned
// round-robin. Prefers every warp getting the same number of blocks, then bigger blocks (up to 8
// tiles: 64 accumulator registers), then square ones.
struct WarpTiling {
  int64_t fm = 1, fn = 1;
};

WarpTiling chooseWarpTiling(int64_t tilesM, int64_t tilesN, int64_t warps) {
  WarpTiling best;
  long bestScore = -1;
  for (int64_t fm = 1; fm <= tilesM; ++fm) {
    if (tilesM % fm) continue;
    for (int64_t fn = 1; fn <= tilesN; ++fn) {
      if (tilesN % fn || fm * fn > 8) continue;
      const int64_t blocks = (tilesM / fm) * (tilesN / fn);
      const long score = (blocks % warps == 0 ? 1000 : 0) + static_cast<long>(fm * fn) * 10 - static_cast<long>(std::abs(fm - fn));
      if (blocks >= 1 && score > bestScore) {
        bestScore = score;
        best = {fm, fn};
      }
    }
  }
  return best;
}

}  // namespace

std::optional<CudaEmitter::TensorCoreLayout> CudaEmitter::tensorCoreLayout(const ir::Dot& n) {
  const ir::Type& at = n.a.type();
  const ir::Type& bt = n.b.type();
  if (at.rank() != 2 || at.dtype() != DType::FP16 || bt.dtype() != DType::FP16 || n.type.dtype() != DType::FP32)
    return std::nullopt;
  const int64_t M = at.shape()[0], K = at.shape()[1], N = bt.shape()[1];
  if (M % 16 || N % 16 || K % 16) return std::nullopt;
  // Padded rows keep the fragments' rows on different banks; every fragment start stays 32-byte aligned.
  TensorCoreLayout l;
  l.lda = K + 8;
  l.ldb = N + 8;
  l.ldc = N + 4;
  auto align = [](size_t x) { return (x + 127) / 128 * 128; };
  l.offB = align(static_cast<size_t>(M * l.lda * 2));
  l.offC = align(l.offB + static_cast<size_t>(K * l.ldb * 2));
  l.total = l.offC + static_cast<size_t>(M * l.ldc * 4);
  if (l.total > 200 * 1024) return std::nullopt;  // past what one SM offers: the exact path stages less
  return l;
}

void CudaEmitter::dotOnTensorCores(const ir::Dot& n, const std::string& av, const std::string& bv, const std::string& accv,
                                   const std::string& res) {
  const TensorCoreLayout l = *tensorCoreLayout(n);
  const int64_t M = n.a.type().shape()[0], K = n.a.type().shape()[1], N = n.b.type().shape()[1];
  const int64_t LDA = l.lda, LDB = l.ldb, LDC = l.ldc;
  const size_t offB = l.offB, offC = l.offC, total = l.total;
  const int64_t W = threads_ / 32;
  const WarpTiling tiling = chooseWarpTiling(M / 16, N / 16, W);
  const int64_t blocksN = (N / 16) / tiling.fn, blocks = (M / 16 / tiling.fm) * blocksN;
  const std::string FM = n2s(tiling.fm), FN = n2s(tiling.fn);
  useShared(total);
  tensorCores_ = true;
  result_.usesTensorCores = true;
  open("");
  line("// tl.dot on tensor cores: " + n2s(M) + "x" + n2s(K) + " @ " + n2s(K) + "x" + n2s(N) + ", blocks of " + FM + "x" + FN +
       " 16x16 tiles per warp");
  line("ts_u16* ts_sa = (ts_u16*)ts_smem;");
  line("ts_u16* ts_sb = (ts_u16*)(ts_smem + " + std::to_string(offB) + ");");
  line("float* ts_sc = (float*)(ts_smem + " + std::to_string(offC) + ");");
  openLoop(M * K);
  line("ts_sa[(ts_i / " + n2s(K) + ") * " + n2s(LDA) + " + ts_i % " + n2s(K) + "] = ts_f2h(" + av + ");");
  closeLoop(M * K);
  openLoop(K * N);
  line("ts_sb[(ts_i / " + n2s(N) + ") * " + n2s(LDB) + " + ts_i % " + n2s(N) + "] = ts_f2h(" + bv + ");");
  closeLoop(K * N);
  sync();
  open("for (int ts_blk = ts_tid / 32; ts_blk < " + n2s(blocks) + "; ts_blk += " + n2s(W) + ")");
  line("const int ts_bm = (ts_blk / " + n2s(blocksN) + ") * " + FM + ", ts_bn = (ts_blk % " + n2s(blocksN) + ") * " + FN + ";");
  line("float ts_c[" + FM + "][" + FN + "][8];");
  line("#pragma unroll");
  line("for (int ts_u = 0; ts_u < " + n2s(tiling.fm * tiling.fn * 8) + "; ++ts_u) (&ts_c[0][0][0])[ts_u] = 0.0f;");
  line("#pragma unroll");
  open("for (int ts_k = 0; ts_k < " + n2s(K) + "; ts_k += 16)");
  line("unsigned ts_fa[" + FM + "][8], ts_fb[" + FN + "][8];");
  line("#pragma unroll");
  line("for (int ts_u = 0; ts_u < " + FM + "; ++ts_u) ts_wmma_load_a(ts_fa[ts_u], ts_sa + (ts_bm + ts_u) * " + n2s(16 * LDA) +
       " + ts_k, " + n2s(LDA) + ");");
  line("#pragma unroll");
  line("for (int ts_v = 0; ts_v < " + FN + "; ++ts_v) ts_wmma_load_b(ts_fb[ts_v], ts_sb + ts_k * " + n2s(LDB) +
       " + (ts_bn + ts_v) * 16, " + n2s(LDB) + ");");
  line("#pragma unroll");
  open("for (int ts_u = 0; ts_u < " + FM + "; ++ts_u)");
  line("#pragma unroll");
  line("for (int ts_v = 0; ts_v < " + FN + "; ++ts_v) ts_wmma_mma(ts_c[ts_u][ts_v], ts_fa[ts_u], ts_fb[ts_v]);");
  close();
  close();
  line("#pragma unroll");
  open("for (int ts_u = 0; ts_u < " + FM + "; ++ts_u)");
  line("#pragma unroll");
  line("for (int ts_v = 0; ts_v < " + FN + "; ++ts_v) ts_wmma_store(ts_sc + (ts_bm + ts_u) * " + n2s(16 * LDC) +
       " + (ts_bn + ts_v) * 16, ts_c[ts_u][ts_v], " + n2s(LDC) + ");");
  close();
  close();
  sync();
  openLoop(M * N);
  line(res + "[ts_j] = " + (accv.empty() ? "" : accv + " + ") + "ts_sc[(ts_i / " + n2s(N) + ") * " + n2s(LDC) + " + ts_i % " +
       n2s(N) + "];");
  closeLoop(M * N);
  sync();
  close();
}

std::string CudaEmitter::dot(const ir::Dot& n) {
  const ir::Type& at = n.a.type();
  const ir::Type& bt = n.b.type();
  const ir::Type& ot = n.type;
  const std::string av = expr(n.a), bv = expr(n.b);
  const std::string accv = n.acc ? expr(n.acc) : "";
  if (tensorCoreLayout(n)) {
    const std::string res = declareTemp(ot);
    dotOnTensorCores(n, av, bv, accv, res);
    return res + "[ts_j]";
  }
  const int r = at.rank();
  const int64_t M = at.shape()[r - 2], K = at.shape()[r - 1], N = bt.shape()[r - 1];
  const size_t aBytes = static_cast<size_t>(at.numel() * regBytes(at));
  const size_t bOffset = (aBytes + 15) / 16 * 16;
  useShared(bOffset + static_cast<size_t>(bt.numel() * regBytes(bt)));
  const std::string res = declareTemp(ot);
  const DType in = at.dtype(), od = ot.dtype();
  const std::string TO = regType(od);
  std::string x = "ts_pa[ts_k]", y = "ts_pb[ts_k * " + n2s(N) + "]";
  std::string step;
  if (ir::isFloat(od)) {
    if (!ir::isFloat(in)) unsupported(n.range, "tl.dot of integer operands into a float accumulator");
    if (n.precision == ir::InputPrecision::TF32 && in == DType::FP32) {
      x = "ts_tf32(" + x + ")";
      y = "ts_tf32(" + y + ")";
    }
    if (od == DType::FP64) step = "ts_acc + (double)" + x + " * (double)" + y;
    else step = roundTo(od, "fmaf((float)" + x + ", (float)" + y + ", ts_acc)");
  } else {
    const std::string UO = arithmeticType(od);
    step = "(" + TO + ")(" + UO + ")((" + UO + ")ts_acc + (" + UO + ")(" + TO + ")" + x + " * (" + UO + ")(" + TO + ")" + y + ")";
  }
  open("");
  stageToShared(av, at, "ts_sa", 0);
  stageToShared(bv, bt, "ts_sb", bOffset);
  sync();
  openLoop(ot.numel());
  line("const int ts_m = (ts_i / " + n2s(N) + ") % " + n2s(M) + ", ts_n = ts_i % " + n2s(N) + ", ts_bt = ts_i / " +
       n2s(M * N) + ";");
  line(TO + " ts_acc = " + (accv.empty() ? "(" + TO + ")0" : accv) + ";");
  line("const " + regType(at) + "* ts_pa = ts_sa + (ts_bt * " + n2s(M) + " + ts_m) * " + n2s(K) + ";");
  line("const " + regType(bt) + "* ts_pb = ts_sb + ts_bt * " + n2s(K * N) + " + ts_n;");
  // Not unrolled: inside the unrolled element loop that would multiply NVRTC's time by K.
  line("#pragma unroll 1");
  line("for (int ts_k = 0; ts_k < " + n2s(K) + "; ++ts_k) ts_acc = " + step + ";");
  line(res + "[ts_j] = ts_acc;");
  closeLoop(ot.numel());
  sync();
  close();
  return res + "[ts_j]";
}

}  // namespace tilescope::gpu
