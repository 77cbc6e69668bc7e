#include "core/sim/TileDot.h"

#include <vector>

#include "core/base/Diagnostic.h"
#include "core/ir/Numerics.h"

namespace tilescope::sim::tileops {

using ir::DType;

namespace {

struct DotShape {
  int64_t batch = 1, m = 0, k = 0, n = 0;
};

DotShape shapeOf(const Tile& a, const Tile& b) {
  if (a.rank() != b.rank() || (a.rank() != 2 && a.rank() != 3)) throw lang::InternalError("dot: operands must be 2-D or 3-D");
  const int r = a.rank();
  DotShape s;
  if (r == 3) {
    s.batch = a.shape()[0];
    if (b.shape()[0] != s.batch) throw lang::InternalError("dot: batch sizes differ");
  }
  s.m = a.shape()[r - 2];
  s.k = a.shape()[r - 1];
  s.n = b.shape()[r - 1];
  if (b.shape()[r - 2] != s.k) throw lang::InternalError("dot: inner dimensions differ");
  return s;
}

bool shouldStop(const std::atomic<bool>* cancel, bool* cancelled) {
  if (cancel && cancel->load(std::memory_order_relaxed)) {
    if (cancelled) *cancelled = true;
    return true;
  }
  return false;
}

// Operand values as doubles, tf32-rounded when asked.
std::vector<double> floatOperand(const Tile& t, ir::InputPrecision precision) {
  std::vector<double> v(t.floats(), t.floats() + t.numel());
  if (precision == ir::InputPrecision::TF32 && t.dtype() == DType::FP32)
    for (double& x : v) x = static_cast<double>(roundToTf32(static_cast<float>(x)));
  return v;
}

// One fp32 accumulator row: r[j] += a_k * B[k][j] for every k, each step rounded once to fp32 (the
// product of two fp32 values is exact in double, so this is the GPU's fma). The hot loop of every
// fp32 matmul: compiled for AVX2+FMA too and picked at run time where the CPU has it.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__clang__)
[[gnu::target_clones("arch=x86-64-v3", "default")]]
#endif
void fp32AccumulateRow(float* r, const double* arow, const double* b, int64_t k, int64_t n) {
  for (int64_t kk = 0; kk < k; ++kk) {
    const double aik = arow[kk];
    const double* brow = b + kk * n;
    for (int64_t j = 0; j < n; ++j) r[j] = static_cast<float>(static_cast<double>(r[j]) + aik * brow[j]);
  }
}

}  // namespace

Tile dot(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision, const ir::Type& resultType,
         const std::atomic<bool>* cancel, bool* cancelled) {
  const DotShape s = shapeOf(a, b);
  Tile out(resultType);
  if (out.numel() != s.batch * s.m * s.n) throw lang::InternalError("dot: result shape does not match the operands");
  if (acc && acc->numel() != out.numel()) throw lang::InternalError("dot: accumulator shape does not match");
  const DType dt = out.dtype();

  if (!out.hasFloatStorage()) {
    // Integer dot: products and sums wrap; accumulating in 64 bits and wrapping once is the same.
    for (int64_t bt = 0; bt < s.batch; ++bt) {
      for (int64_t i = 0; i < s.m; ++i) {
        if (shouldStop(cancel, cancelled)) return out;
        int64_t* c = out.ints() + (bt * s.m + i) * s.n;
        if (acc) std::copy(acc->ints() + (bt * s.m + i) * s.n, acc->ints() + (bt * s.m + i + 1) * s.n, c);
        for (int64_t kk = 0; kk < s.k; ++kk) {
          const uint64_t aik = static_cast<uint64_t>(a.ints()[(bt * s.m + i) * s.k + kk]);
          const int64_t* brow = b.ints() + (bt * s.k + kk) * s.n;
          for (int64_t j = 0; j < s.n; ++j)
            c[j] = static_cast<int64_t>(static_cast<uint64_t>(c[j]) + aik * static_cast<uint64_t>(brow[j]));
        }
        for (int64_t j = 0; j < s.n; ++j) c[j] = wrapInt(dt, c[j]);
      }
    }
    return out;
  }

  if (!a.hasFloatStorage() || !b.hasFloatStorage()) throw lang::InternalError("dot: float result from integer operands");
  const std::vector<double> A = floatOperand(a, precision);
  const std::vector<double> B = floatOperand(b, precision);
  std::vector<float> row32(static_cast<size_t>(s.n));
  for (int64_t bt = 0; bt < s.batch; ++bt) {
    for (int64_t i = 0; i < s.m; ++i) {
      if (shouldStop(cancel, cancelled)) return out;
      const int64_t rowIndex = bt * s.m + i;
      double* c = out.floats() + rowIndex * s.n;
      if (acc) std::copy(acc->floats() + rowIndex * s.n, acc->floats() + (rowIndex + 1) * s.n, c);
      const double* arow = A.data() + rowIndex * s.k;
      if (dt == DType::FP32) {
        // The hot path: an fp32 accumulator row, each step rounded once (vectorises well).
        float* r = row32.data();
        for (int64_t j = 0; j < s.n; ++j) r[j] = static_cast<float>(c[j]);
        fp32AccumulateRow(r, arow, B.data() + bt * s.k * s.n, s.k, s.n);
        for (int64_t j = 0; j < s.n; ++j) c[j] = static_cast<double>(r[j]);
      } else {
        for (int64_t kk = 0; kk < s.k; ++kk) {
          const double aik = arow[kk];
          const double* brow = B.data() + (bt * s.k + kk) * s.n;
          if (dt == DType::FP64) {
            for (int64_t j = 0; j < s.n; ++j) c[j] += aik * brow[j];
          } else {
            for (int64_t j = 0; j < s.n; ++j) c[j] = roundToDType(dt, c[j] + aik * brow[j]);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace tilescope::sim::tileops
