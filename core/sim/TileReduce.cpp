#include "core/sim/TileReduce.h"

#include <cmath>
#include <limits>
#include <vector>

#include "core/base/Diagnostic.h"
#include "core/ir/Numerics.h"
#include "core/sim/TileOps.h"

namespace tilescope::sim::tileops {

using ir::DType;
using ir::ReduceOp;

namespace {

// The tile seen as [outer, len, inner] around the reduced axis.
struct AxisView {
  int64_t outer = 1;
  int64_t len = 1;
  int64_t inner = 1;
};

AxisView viewAround(const Tile& t, std::optional<int> axis) {
  AxisView v;
  if (!axis) {
    v.len = t.numel();
    return v;
  }
  const int a = *axis;
  if (a < 0 || a >= t.rank()) throw lang::InternalError("reduce: axis out of range");
  for (int d = 0; d < a; ++d) v.outer *= t.shape()[d];
  v.len = t.shape()[a];
  for (int d = a + 1; d < t.rank(); ++d) v.inner *= t.shape()[d];
  return v;
}

// Pairwise tree over the len axis of buf ([len][inner]); combine(x, y) writes into x.
template <class T, class F>
void tree(T* buf, int64_t len, int64_t inner, F combine) {
  while (len > 1) {
    const int64_t half = (len + 1) / 2;
    for (int64_t i = 0; i < len - half; ++i) {
      T* x = buf + i * inner;
      const T* y = buf + (i + half) * inner;
      for (int64_t k = 0; k < inner; ++k) x[k] = combine(x[k], y[k]);
    }
    len = half;
  }
}

template <class T>
void copySlice(const T* src, const AxisView& v, int64_t o, std::vector<T>& buf) {
  // Slice o is contiguous: [len][inner] starting at o * len * inner.
  buf.assign(src + o * v.len * v.inner, src + (o + 1) * v.len * v.inner);
}

Tile reduceFloat(ReduceOp op, const Tile& t, const AxisView& v, Tile& out) {
  const DType dt = t.dtype();
  std::vector<double> buf;
  auto round = [dt](double x) { return roundToDType(dt, x); };
  for (int64_t o = 0; o < v.outer; ++o) {
    double* dst = out.floats() + o * v.inner;
    if (v.len == 0) {
      const double init = op == ReduceOp::Sum ? 0.0 : op == ReduceOp::Max ? -INFINITY : INFINITY;
      std::fill(dst, dst + v.inner, init);
      continue;
    }
    copySlice(t.floats(), v, o, buf);
    switch (op) {
      case ReduceOp::Sum:
        if (dt == DType::FP32)
          tree(buf.data(), v.len, v.inner, [](double x, double y) { return static_cast<double>(static_cast<float>(x + y)); });
        else if (dt == DType::FP64)
          tree(buf.data(), v.len, v.inner, [](double x, double y) { return x + y; });
        else
          tree(buf.data(), v.len, v.inner, [&](double x, double y) { return round(x + y); });
        break;
      case ReduceOp::Max: tree(buf.data(), v.len, v.inner, [](double x, double y) { return std::fmax(x, y); }); break;
      case ReduceOp::Min: tree(buf.data(), v.len, v.inner, [](double x, double y) { return std::fmin(x, y); }); break;
      default: throw lang::InternalError("reduce: op not valid on floats");
    }
    std::copy(buf.begin(), buf.begin() + v.inner, dst);
  }
  return out;
}

Tile reduceInt(ReduceOp op, const Tile& t, const AxisView& v, Tile& out) {
  const DType dt = t.dtype();
  const bool u64 = dt == DType::U64;
  std::vector<int64_t> buf;
  for (int64_t o = 0; o < v.outer; ++o) {
    int64_t* dst = out.ints() + o * v.inner;
    if (v.len == 0) {
      std::fill(dst, dst + v.inner, 0);
      continue;
    }
    copySlice(t.ints(), v, o, buf);
    switch (op) {
      case ReduceOp::Sum:
        tree(buf.data(), v.len, v.inner,
             [dt](int64_t x, int64_t y) { return wrapInt(dt, static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y))); });
        break;
      case ReduceOp::XorSum: tree(buf.data(), v.len, v.inner, [](int64_t x, int64_t y) { return x ^ y; }); break;
      case ReduceOp::Max:
        tree(buf.data(), v.len, v.inner, [u64](int64_t x, int64_t y) {
          return u64 ? (static_cast<uint64_t>(x) > static_cast<uint64_t>(y) ? x : y) : std::max(x, y);
        });
        break;
      case ReduceOp::Min:
        tree(buf.data(), v.len, v.inner, [u64](int64_t x, int64_t y) {
          return u64 ? (static_cast<uint64_t>(x) < static_cast<uint64_t>(y) ? x : y) : std::min(x, y);
        });
        break;
      default: throw lang::InternalError("reduce: op not valid on integers");
    }
    std::copy(buf.begin(), buf.begin() + v.inner, dst);
  }
  return out;
}

Tile reduceArg(ReduceOp op, const Tile& t, const AxisView& v, bool tieBreakLeft, Tile& out) {
  const bool isMax = op == ReduceOp::ArgMax;
  const bool u64 = t.dtype() == DType::U64;
  for (int64_t o = 0; o < v.outer; ++o) {
    for (int64_t k = 0; k < v.inner; ++k) {
      const int64_t base = o * v.len * v.inner + k;
      int64_t best = 0;
      // Triton's combine: keep the current best when it wins strictly, or ties at its lower index.
      for (int64_t i = 1; i < v.len; ++i) {
        bool keep = false;
        if (t.hasFloatStorage()) {
          const double b = t.floats()[base + best * v.inner];
          const double c = t.floats()[base + i * v.inner];
          keep = (isMax ? b > c : b < c) || (tieBreakLeft && b == c);
        } else {
          int64_t b = t.ints()[base + best * v.inner];
          int64_t c = t.ints()[base + i * v.inner];
          if (u64) {
            b ^= std::numeric_limits<int64_t>::min();
            c ^= std::numeric_limits<int64_t>::min();
          }
          keep = (isMax ? b > c : b < c) || (tieBreakLeft && b == c);
        }
        if (!keep) best = i;
      }
      out.ints()[o * v.inner + k] = best;
    }
  }
  return out;
}

}  // namespace

Tile reduce(ReduceOp op, const Tile& t, std::optional<int> axis, bool keepDims, bool tieBreakLeft,
            const ir::Type& resultType) {
  const AxisView v = viewAround(t, axis);
  (void)keepDims;  // the result type already carries the kept (or dropped) dims
  Tile out(resultType);
  if (out.numel() != v.outer * v.inner) throw lang::InternalError("reduce: result shape does not match the input");
  if (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) return reduceArg(op, t, v, tieBreakLeft, out);
  if (t.hasFloatStorage()) return reduceFloat(op, t, v, out);
  return reduceInt(op, t, v, out);
}

Tile scan(ir::ScanOp op, const Tile& t, int axis, bool reverse) {
  const AxisView v = viewAround(t, axis);
  Tile out(t.dtype(), false, t.shape());
  const DType dt = t.dtype();
  const bool sum = op == ir::ScanOp::CumSum;
  for (int64_t o = 0; o < v.outer; ++o) {
    for (int64_t k = 0; k < v.inner; ++k) {
      const int64_t base = o * v.len * v.inner + k;
      // The element at walk position s.
      auto walk = [&](int64_t s) { return base + (reverse ? v.len - 1 - s : s) * v.inner; };
      auto combine = [&](double p, double x) { return roundToDType(dt, sum ? p + x : p * x); };
      if (t.hasFloatStorage()) {
        // In runs of ir::kScanRun, then the runs' carries (ir/Ops.h): the GPU's order.
        double* dst = out.floats();
        const double* src = t.floats();
        for (int64_t s = 0; s < v.len; ++s) dst[walk(s)] = s % ir::kScanRun == 0 ? src[walk(s)] : combine(dst[walk(s - 1)], src[walk(s)]);
        for (int64_t run = ir::kScanRun; run < v.len; run += ir::kScanRun) {
          const int64_t last = std::min(v.len, run + ir::kScanRun) - 1;
          dst[walk(last)] = combine(dst[walk(run - 1)], dst[walk(last)]);
        }
        for (int64_t s = ir::kScanRun; s < v.len; ++s) {
          const int64_t run = s / ir::kScanRun * ir::kScanRun;
          if (s != std::min(v.len, run + ir::kScanRun) - 1) dst[walk(s)] = combine(dst[walk(run - 1)], dst[walk(s)]);
        }
        continue;
      }
      for (int64_t s = 0; s < v.len; ++s) {
        const int64_t i = reverse ? v.len - 1 - s : s;
        const int64_t at = base + i * v.inner;
        const int64_t prev = base + (reverse ? i + 1 : i - 1) * v.inner;
        const uint64_t x = static_cast<uint64_t>(t.ints()[at]);
        const uint64_t p = s == 0 ? 0 : static_cast<uint64_t>(out.ints()[prev]);
        out.ints()[at] = s == 0 ? t.ints()[at] : wrapInt(dt, static_cast<int64_t>(sum ? p + x : p * x));
      }
    }
  }
  return out;
}

}  // namespace tilescope::sim::tileops
