#pragma once
// Kernels of tl.reduce / tl.associative_scan with general combine functions (several operations,
// tuples of tensors, runtime `if`s) and of tl.map_elementwise, shared by the simulator, codegen and device tests, with their expected
// results computed here by Triton's rule: a fold from the first element (the last with reverse).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::test {

inline const char* const kCombineSource = R"(import triton
import triton.language as tl

@triton.jit
def argmax_combine(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)

@triton.jit
def recurrence(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2

@triton.jit
def digits(acc, x):
    return acc * 10 + x

@triton.jit
def row_argmax(x_ptr, val_ptr, idx_ptr, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + rows * C + cols)
    idx = tl.broadcast_to(cols, (R, C))
    v, i = tl.reduce((x, idx), 1, argmax_combine)
    tl.store(val_ptr + tl.arange(0, R), v)
    tl.store(idx_ptr + tl.arange(0, R), i)

@triton.jit
def linear_recurrence(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    _, h = tl.associative_scan((a, b), 0, recurrence)
    tl.store(out_ptr + offs, h)

@triton.jit
def digit_scans(x_ptr, fwd_ptr, rev_ptr, all_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(fwd_ptr + offs, tl.associative_scan(x, 0, digits))
    tl.store(rev_ptr + offs, tl.associative_scan(x, 0, digits, reverse=True))
    tl.store(all_ptr, tl.reduce(x, 0, digits))

@triton.jit
def first_nonzero(a, b):
    if a != 0:
        r = a
    else:
        r = b
    return r

@triton.jit
def first_nonzero_scan(x_ptr, out_ptr, first_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.associative_scan(x, 0, first_nonzero))
    tl.store(first_ptr, tl.reduce(x, 0, first_nonzero))

@triton.jit
def selu_scalar(x, alpha):
    if x > 0:
        y = x
    else:
        y = alpha * (tl.exp(x) - 1.0)
    return y, y * 2.0

@triton.jit
def map_selu(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y, z = tl.map_elementwise(selu_scalar, x, 1.5)
    tl.store(y_ptr + offs, y)
    tl.store(z_ptr + offs, z)
)";

// first_nonzero_scan's input and what Triton's fold gives: the first nonzero element so far.
inline const std::vector<int64_t> kSparse{0, 0, 3, 0, -5, 7, 0, 2};
inline std::vector<int64_t> firstNonzeroExpected(const std::vector<int64_t>& x) {
  std::vector<int64_t> out;
  int64_t acc = 0;
  for (int64_t v : x) out.push_back(acc = acc != 0 ? acc : v);
  return out;
}

// map_selu with alpha 1.5, in fp32 step by step as the simulator rounds.
inline double seluExpected(float x) {
  if (x > 0) return x;
  const float e = static_cast<float>(std::exp(static_cast<double>(x)));
  return static_cast<double>(1.5f * (e - 1.0f));
}

// row_argmax's inputs: R x C fp32 values from a small set, so rows have ties.
inline std::vector<double> argmaxInput(int rows, int cols) {
  std::vector<double> x;
  for (int i = 0; i < rows * cols; ++i) x.push_back(static_cast<double>((i * 7 + i / cols * 2) % 5) - 2.0);
  return x;
}

// The first index of each row's maximum, and the maximum.
inline void argmaxExpected(const std::vector<double>& x, int rows, int cols, std::vector<double>& values, std::vector<int64_t>& indices) {
  for (int r = 0; r < rows; ++r) {
    int best = 0;
    for (int c = 1; c < cols; ++c)
      if (x[r * cols + c] > x[r * cols + best]) best = c;
    values.push_back(x[r * cols + best]);
    indices.push_back(best);
  }
}

// h[i] = a[i] * h[i - 1] + b[i], h[0] = b[0], wrapping at 32 bits.
inline std::vector<int64_t> recurrenceExpected(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> h;
  int32_t acc = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    acc = i == 0 ? static_cast<int32_t>(b[0])
                 : static_cast<int32_t>(static_cast<uint32_t>(acc) * static_cast<uint32_t>(a[i]) + static_cast<uint32_t>(b[i]));
    h.push_back(acc);
  }
  return h;
}

// The decimal number the digits make, read from the first (forward) or from the last (reverse).
inline std::vector<int64_t> digitScanExpected(const std::vector<int64_t>& x, bool reverse) {
  const int n = static_cast<int>(x.size());
  std::vector<int64_t> out(x.size());
  int64_t acc = 0;
  for (int q = 0; q < n; ++q) {
    const int i = reverse ? n - 1 - q : q;
    acc = q == 0 ? x[i] : acc * 10 + x[i];
    out[i] = acc;
  }
  return out;
}

}  // namespace tilescope::test
