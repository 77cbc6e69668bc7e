#include "core/sim/TileDot.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "core/base/Diagnostic.h"
#include "core/ir/FmaChainGemm.h"
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

// Operands whose values fp32 holds exactly: the fast fp32 path converts them without rounding.
bool fp32Exact(DType d) { return d == DType::FP32 || d == DType::FP16 || d == DType::BF16 || ir::isFp8(d); }

// Operand values as fp32 (exact for fp32Exact dtypes), tf32-rounded when asked.
void fp32Operand(const Tile& t, ir::InputPrecision precision, std::vector<float>& out) {
  const double* v = t.floats();
  out.resize(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = static_cast<float>(v[i]);  // a loop that vectorises
  if (precision == ir::InputPrecision::TF32 && t.dtype() == DType::FP32) {
    // roundToTf32's rule, inline so that the loop vectorises: finite values keep 10 mantissa bits,
    // ties away from zero.
    for (float& f : out) {
      const uint32_t bits = std::bit_cast<uint32_t>(f);
      const bool finite = (bits & 0x7F800000u) != 0x7F800000u;
      f = std::bit_cast<float>(finite ? (bits + 0x1000u) & ~uint32_t{0x1FFF} : bits);
    }
  }
}

// The reference's fp32 rule at SIMD speed (core/ir/FmaChainGemm): the same fma chain in k order.
Tile fp32ChainDot(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision, const ir::Type& resultType,
                  const DotShape& s) {
  thread_local std::vector<float> A, B, C;
  fp32Operand(a, precision, A);
  fp32Operand(b, precision, B);
  Tile out = Tile::uninitialized(resultType);
  const int64_t count = out.numel();
  C.resize(static_cast<size_t>(count));
  if (acc) {
    const double* c0 = acc->floats();
    for (int64_t i = 0; i < count; ++i) C[i] = static_cast<float>(c0[i]);  // acc holds fp32 values
  } else {
    std::fill(C.begin(), C.end(), 0.0f);
  }
  for (int64_t bt = 0; bt < s.batch; ++bt)
    fmaChainGemm(A.data() + bt * s.m * s.k, B.data() + bt * s.k * s.n, C.data() + bt * s.m * s.n, s.m, s.k, s.n);
  double* o = out.floats();
  for (int64_t i = 0; i < count; ++i) o[i] = static_cast<double>(C[i]);
  return out;
}

}  // namespace

Tile dot(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision, const ir::Type& resultType,
         const CancelToken* cancel, bool* cancelled) {
  if (resultType.dtype() == DType::FP32 && fp32Exact(a.dtype()) && fp32Exact(b.dtype()) && a.hasFloatStorage() &&
      b.hasFloatStorage()) {
    const DotShape s = shapeOf(a, b);
    if (shouldStop(cancel, cancelled)) return Tile(resultType);
    if (s.batch * s.m * s.n != resultType.numel()) throw lang::InternalError("dot: result shape does not match the operands");
    if (acc && acc->numel() != resultType.numel()) throw lang::InternalError("dot: accumulator shape does not match");
    return fp32ChainDot(a, b, acc, precision, resultType, s);
  }
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
      if (dt == DType::FP32 && fp32Exact(a.dtype()) && fp32Exact(b.dtype())) {
        // fp32 accumulator: each k step is one fma, the exact a*b + acc rounded once to fp32.
        float* r = row32.data();
        for (int64_t j = 0; j < s.n; ++j) r[j] = static_cast<float>(c[j]);
        for (int64_t kk = 0; kk < s.k; ++kk) {
          const float aik = static_cast<float>(arow[kk]);
          const double* brow = B.data() + (bt * s.k + kk) * s.n;
          for (int64_t j = 0; j < s.n; ++j) r[j] = std::fmaf(aik, static_cast<float>(brow[j]), r[j]);
        }
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
