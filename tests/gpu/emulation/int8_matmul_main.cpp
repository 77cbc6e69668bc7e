// Runs the emulated int8 matmul of Int8DotTest (kernel_body.inc, written by the test: mm(a, b, c, K,
// stride_am, stride_bk), BM = BN = 128, BK = 64, masked K tail) on one program and prints how many
// of the int32 results differ from the exact (wrapping) product. Macros: K, WARPS.
#include "WmmaS8Emulation.h"
#include "kernel_body.inc"
#include <random>
int main() {
  const int M = 128, N = 128, LDA = (K + 15) / 16 * 16, threads = WARPS * 32;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(-128, 127);
  std::vector<ts_i8> a(M * LDA), b(K * N);
  for (auto& x : a) x = (ts_i8)byte(rng);
  for (auto& x : b) x = (ts_i8)byte(rng);
  std::vector<ts_i32> c(M * N, 0x5a5a5a5a);  // poisoned
  ts_u32 status = 0;
  emulateGrid(1, 1, threads, [&] { ts_mm(a.data(), b.data(), c.data(), K, LDA, N, &status); });
  int wrong = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      ts_u32 s = 0;
      for (int k = 0; k < K; ++k) s += (ts_u32)((int)a[i * LDA + k] * (int)b[k * N + j]);
      wrong += c[i * N + j] != (ts_i32)s;
    }
  printf("status %u, wrong %d\n", status, wrong);
  return 0;
}
