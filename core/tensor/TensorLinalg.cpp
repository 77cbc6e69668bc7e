#include "core/tensor/TensorLinalg.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <vector>

#if TILESCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

#include "core/ir/FmaChainGemm.h"
#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/TensorError.h"

namespace tilescope::host {

namespace {

template <class T>
using Accumulator = std::conditional_t<std::is_same_v<T, double>, double,
                                       std::conditional_t<kIsFloating<T>, float, int64_t>>;

std::string dims2(int64_t r, int64_t c) { return std::to_string(r) + "x" + std::to_string(c); }

// Threads for a large fp32 product: TILESCOPE_SIM_THREADS when set (the simulator's setting), else
// the CPUs this process may run on.
int productThreads() {
  if (const char* env = std::getenv("TILESCOPE_SIM_THREADS")) {
    char* end = nullptr;
    const long t = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && t > 0) return static_cast<int>(std::min<long>(t, 256));
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// C[n,m] = A[n,k] B[k,m] in fp32: each element one fma chain in k order (sim::fmaChainGemm), the
// simulator's tl.dot into an accumulator (sim/TileDot.h), so that a kernel's `acc += tl.dot(a, b)` K
// loop gives the same bits as torch.matmul, which users' checks compare it with. Rows are split
// among threads when the product is large; each element's chain stays on one thread, in k order.
void gemmFp32(const float* a, const float* b, float* c, int64_t n, int64_t k, int64_t m) {
  std::fill(c, c + n * m, 0.0f);
  constexpr int64_t kWorkPerThread = int64_t{1} << 22;  // multiply-adds worth a thread's start-up
  const int64_t byWork = n * k * m / kWorkPerThread;
  const int threads = static_cast<int>(std::min<int64_t>({productThreads(), byWork, n / 4}));
  if (threads <= 1) {
    sim::fmaChainGemm(a, b, c, n, k, m);
    return;
  }
  const int64_t rowsEach = (n / threads + 3) / 4 * 4;  // whole 4-row blocks per thread
  std::vector<std::jthread> helpers;
  for (int64_t r0 = rowsEach; r0 < n; r0 += rowsEach) {
    const int64_t rows = std::min(rowsEach, n - r0);
    helpers.emplace_back([=] { sim::fmaChainGemm(a + r0 * k, b, c + r0 * m, rows, k, m); });
  }
  sim::fmaChainGemm(a, b, c, std::min(rowsEach, n), k, m);
}

// C[n,m] = A[n,k] B[k,m] for contiguous accumulator-typed buffers: fp32 as gemmFp32; fp64 goes to
// OpenBLAS's dgemm where the build has it; integers wrap.
template <class Acc>
void gemm(const Acc* a, const Acc* b, Acc* c, int64_t n, int64_t k, int64_t m) {
  if constexpr (std::is_same_v<Acc, float>) {
    gemmFp32(a, b, c, n, k, m);
    return;
  }
#if TILESCOPE_HAVE_OPENBLAS
  if (n > 0 && m > 0 && k > 0) {
    const auto N = static_cast<blasint>(n), K = static_cast<blasint>(k), M = static_cast<blasint>(m);
    if constexpr (std::is_same_v<Acc, double>) {
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, M, K, 1.0, a, K, b, M, 0.0, c, M);
      return;
    }
  }
#endif
  for (int64_t i = 0; i < n; ++i) {
    Acc* row = c + i * m;
    for (int64_t j = 0; j < m; ++j) row[j] = Acc(0);
    for (int64_t p = 0; p < k; ++p) {
      const Acc aip = a[i * k + p];
      const Acc* brow = b + p * m;
      if constexpr (std::is_integral_v<Acc>) {
        // Wrapping integer arithmetic without signed-overflow UB.
        for (int64_t j = 0; j < m; ++j) {
          row[j] = static_cast<Acc>(static_cast<uint64_t>(row[j]) + static_cast<uint64_t>(aip) * static_cast<uint64_t>(brow[j]));
        }
      } else {
        for (int64_t j = 0; j < m; ++j) row[j] += aip * brow[j];
      }
    }
  }
}

// Copies a (broadcast-expanded) tensor into a contiguous accumulator buffer.
template <class T, class Acc>
std::vector<Acc> toBuffer(const Tensor& t) {
  std::vector<Acc> out;
  out.reserve(static_cast<size_t>(t.numel()));
  const T* base = reinterpret_cast<const T*>(t.storage()->data());
  t.forEachElementOffset([&](int64_t off) { out.push_back(static_cast<Acc>(toCompute(base[off]))); });
  return out;
}

}  // namespace

Tensor matmul(const Tensor& aIn, const Tensor& bIn) {
  if (aIn.dim() == 0 || bIn.dim() == 0) {
    throw TensorError("both arguments to matmul need to be at least 1D, but they are " + std::to_string(aIn.dim()) +
                      "D and " + std::to_string(bIn.dim()) + "D");
  }
  if (aIn.dtype() != bIn.dtype()) {
    if (aIn.dim() == 1 && bIn.dim() == 1) {
      throw TensorError("dot : expected both vectors to have same dtype, but found " + std::string(scalarTypeName(aIn.dtype())) +
                        " and " + std::string(scalarTypeName(bIn.dtype())));
    }
    throw TensorError("expected m1 and m2 to have the same dtype, but got: " + std::string(typeMetaName(aIn.dtype())) +
                      " != " + std::string(typeMetaName(bIn.dtype())));
  }
  if (aIn.dtype() == DType::I1) throw TensorError("\"addmm_impl_cpu_\" not implemented for 'Bool'");
  if (aIn.device() != bIn.device()) {
    throw TensorError("Expected all tensors to be on the same device, but found at least two devices, " +
                      aIn.device().str() + " and " + bIn.device().str() + "!");
  }

  // Shape checks in torch's words for each form.
  const int64_t ka = aIn.shape().back();
  const int64_t kb = bIn.dim() == 1 ? bIn.shape()[0] : bIn.shape()[static_cast<size_t>(bIn.dim() - 2)];
  if (ka != kb) {
    if (aIn.dim() == 1 && bIn.dim() == 1) {
      throw TensorError("inconsistent tensor size, expected tensor [" + std::to_string(ka) + "] and src [" +
                        std::to_string(kb) + "] to have the same number of elements, but got " + std::to_string(ka) +
                        " and " + std::to_string(kb) + " elements respectively");
    }
    if (aIn.dim() == 2 && bIn.dim() == 1) {
      throw TensorError("size mismatch, got input (" + std::to_string(aIn.shape()[0]) + "), mat (" +
                        dims2(aIn.shape()[0], ka) + "), vec (" + std::to_string(kb) + ")");
    }
    if (aIn.dim() <= 2 && bIn.dim() <= 2) {
      const int64_t rows = aIn.dim() == 1 ? 1 : aIn.shape()[0];
      throw TensorError("mat1 and mat2 shapes cannot be multiplied (" + dims2(rows, ka) + " and " +
                        dims2(kb, bIn.shape()[1]) + ")");
    }
    const int64_t batchA = aIn.dim() > 2 ? shapeNumel(std::span(aIn.shape()).first(aIn.shape().size() - 2)) : 1;
    throw TensorError("Expected size for first two dimensions of batch2 tensor to be: [" + std::to_string(batchA) +
                      ", " + std::to_string(ka) + "] but got: [" + std::to_string(batchA) + ", " + std::to_string(kb) + "].");
  }

  // Promote 1-D operands to matrices, remember which dims to drop from the result.
  const bool aVec = aIn.dim() == 1, bVec = bIn.dim() == 1;
  const Tensor a = aVec ? aIn.unsqueeze(0) : aIn;
  const Tensor b = bVec ? bIn.unsqueeze(1) : bIn;
  const int64_t n = a.shape()[static_cast<size_t>(a.dim() - 2)];
  const int64_t k = ka;
  const int64_t m = b.shape().back();
  const Shape aBatch(a.shape().begin(), a.shape().end() - 2);
  const Shape bBatch(b.shape().begin(), b.shape().end() - 2);
  const Shape batch = broadcastShapes(aBatch, bBatch);
  const int64_t batchCount = shapeNumel(batch);

  Shape aFull = batch, bFull = batch, outShape = batch;
  aFull.insert(aFull.end(), {n, k});
  bFull.insert(bFull.end(), {k, m});
  outShape.insert(outShape.end(), {n, m});
  Tensor out = Tensor::allocate(outShape, a.dtype(), a.device(), true);

  dispatchDType(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = Accumulator<T>;
    const std::vector<Acc> abuf = toBuffer<T, Acc>(a.expand(aFull));
    const std::vector<Acc> bbuf = toBuffer<T, Acc>(b.expand(bFull));
    std::vector<Acc> cbuf(static_cast<size_t>(n * m));
    T* o = out.data<T>();
    for (int64_t bi = 0; bi < batchCount; ++bi) {
      gemm(abuf.data() + bi * n * k, bbuf.data() + bi * k * m, cbuf.data(), n, k, m);
      for (int64_t i = 0; i < n * m; ++i) o[bi * n * m + i] = convertValue<T>(cbuf[static_cast<size_t>(i)]);  // one rounding
    }
  });

  if (aVec && bVec) return out.reshape({});
  if (aVec) return out.squeeze(-2);
  if (bVec) return out.squeeze(-1);
  return out;
}

}  // namespace tilescope::host
