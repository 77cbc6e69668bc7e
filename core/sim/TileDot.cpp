#include "core/sim/TileDot.h"

#include <mutex>
#include <vector>

#if TILESCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

#include "core/base/Diagnostic.h"
#include "core/ir/Numerics.h"

#ifndef TILESCOPE_HAVE_OPENBLAS
#define TILESCOPE_HAVE_OPENBLAS 0
#endif

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

bool shouldStop(const CancelToken* cancel, bool* cancelled) {
  if (cancel && cancel->cancelled()) {
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

#if TILESCOPE_HAVE_OPENBLAS
// Operand values as fp32 (exact: tiles of fp32 and narrower hold fp32 values), tf32-rounded when asked.
void fp32Operand(const Tile& t, ir::InputPrecision precision, std::vector<float>& out) {
  const double* v = t.floats();
  out.resize(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = static_cast<float>(v[i]);  // a loop that vectorises
  if (precision == ir::InputPrecision::TF32 && t.dtype() == DType::FP32)
    for (float& f : out) f = roundToTf32(f);
}

bool blasOperand(DType d) {
  return d == DType::FP32 || d == DType::FP16 || d == DType::BF16 || ir::isFp8(d);
}

// One sgemm per batch: C = A * B in fp32 FMAs, then the accumulator added (one rounding).
Tile blasDot(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision, const ir::Type& resultType,
             const DotShape& s) {
  // Simulator threads already run programs in parallel: OpenBLAS's own threads would only compete.
  static std::once_flag single;
  std::call_once(single, [] { openblas_set_num_threads(1); });
  thread_local std::vector<float> A, B, C;
  fp32Operand(a, precision, A);
  fp32Operand(b, precision, B);
  Tile out = Tile::uninitialized(resultType);
  C.resize(static_cast<size_t>(out.numel()));  // sgemm with beta 0 writes every element
  const auto m = static_cast<blasint>(s.m), n = static_cast<blasint>(s.n), k = static_cast<blasint>(s.k);
  for (int64_t bt = 0; bt < s.batch; ++bt)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, A.data() + bt * s.m * s.k, k,
                B.data() + bt * s.k * s.n, n, 0.0f, C.data() + bt * s.m * s.n, n);
  double* o = out.floats();
  if (acc) {
    const double* c0 = acc->floats();
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<double>(C[i] + static_cast<float>(c0[i]));
  } else {
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<double>(C[i]);
  }
  return out;
}
#endif

}  // namespace

bool blasAvailable() { return TILESCOPE_HAVE_OPENBLAS != 0; }

Tile dot(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision, const ir::Type& resultType,
         const CancelToken* cancel, bool* cancelled) {
#if TILESCOPE_HAVE_OPENBLAS
  // A dot into an accumulator keeps the reference's chain (see TileDot.h): only a dot from zero goes to sgemm.
  if (!acc && resultType.dtype() == DType::FP32 && blasOperand(a.dtype()) && blasOperand(b.dtype())) {
    const DotShape s = shapeOf(a, b);
    if (shouldStop(cancel, cancelled)) return Tile(resultType);
    if (s.batch * s.m * s.n != resultType.numel()) throw lang::InternalError("dot: result shape does not match the operands");
    if (acc && acc->numel() != resultType.numel()) throw lang::InternalError("dot: accumulator shape does not match");
    return blasDot(a, b, acc, precision, resultType, s);
  }
#endif
  return dotReference(a, b, acc, precision, resultType, cancel, cancelled);
}

Tile dotReference(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision,
                  const ir::Type& resultType, const CancelToken* cancel, bool* cancelled) {
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
