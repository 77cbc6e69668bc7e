// Runs the emulated attention_forward of core/bench/gpu/attention.py (kernel_body.inc, written by
// CudaRegisterLoopTest) over 2 heads of 256 tokens and prints its largest difference from a float64
// softmax(q k^T scale) v. Macros: CONV/BACK (fp16 or bf16 bits), CAUSAL, BM, DIM, WARPS.
#include "WarpEmulation.h"
#include "kernel_body.inc"
#include <algorithm>
#include <random>
int main() {
  const int H = 2, N = 256, D = DIM, threads = WARPS * 32;
  std::mt19937 rng(1);
  std::normal_distribution<float> nd;
  std::vector<ts_u16> q(H * N * D), k(q.size()), v(q.size()), o(q.size(), 0x7e00);  // o poisoned with NaN
  for (auto* t : {&q, &k, &v})
    for (auto& x : *t) x = CONV(nd(rng));
  const float scale = 1.0f / std::sqrt((float)D);
  ts_u32 status = 0;
  emulateGrid(N / BM, H, threads,
              [&] { ts_attention_forward(q.data(), k.data(), v.data(), o.data(), N, scale, N * D, D, &status); });
  double worst = 0;
  for (int h = 0; h < H; ++h)
    for (int i = 0; i < N; ++i) {
      std::vector<double> s(N);
      double m = -1e300, sum = 0;
      for (int j = 0; j < N; ++j) {
        double d = 0;
        for (int c = 0; c < D; ++c) d += (double)BACK(q[(h * N + i) * D + c]) * BACK(k[(h * N + j) * D + c]);
        s[j] = (CAUSAL && j > i) ? -1e300 : d * scale;
        m = std::max(m, s[j]);
      }
      for (int j = 0; j < N; ++j) {
        s[j] = s[j] < -1e299 ? 0 : std::exp(s[j] - m);
        sum += s[j];
      }
      for (int c = 0; c < D; ++c) {
        double r = 0;
        for (int j = 0; j < N; ++j) r += s[j] * BACK(v[(h * N + j) * D + c]);
        const double err = std::fabs(BACK(o[(h * N + i) * D + c]) - r / sum);
        worst = std::isnan(err) ? 1e9 : std::max(worst, err);
      }
    }
  printf("status %u, max abs error %.6f\n", status, worst);
  return 0;
}
