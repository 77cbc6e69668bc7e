#pragma once
// torch's CPU random number generator, reproduced bit for bit: torch.manual_seed(s) followed by
// torch.rand / randn / randint gives the same values as torch on an x86 CPU.
//
// The engine is mt19937 seeded with the low 32 bits of the seed; floats take 24 random bits (doubles 53
// bits of a 64-bit draw) scaled by 2^-24 (2^-53); randn on a contiguous float32/float64 tensor of >= 16
// elements fills uniforms and applies Box-Muller in blocks of 16 (float32 through the same Cephes
// polynomial log/sincos that torch's AVX2 kernel uses), smaller or strided tensors draw one double
// normal at a time (Box-Muller pairs, the second value cached in the generator).
//
// Device note: real torch uses a different generator (Philox) for device='cuda' tensors. tilescope gives
// every device the CPU generator's values, so a seeded notebook prints the same numbers on a laptop and
// on a GPU machine (they differ from what real torch prints for cuda tensors).
#include <cstdint>
#include <optional>
#include <random>

#include "core/tensor/Tensor.h"
#include "core/tensor/TensorFactory.h"

namespace tilescope::host {

class Generator {
 public:
  // torch's default_rng_seed_val (torch itself seeds its default generator nondeterministically; we stay
  // reproducible).
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;

  explicit Generator(uint64_t seed = kDefaultSeed) { manualSeed(seed); }

  // Also drops the cached Box-Muller values, as torch does.
  void manualSeed(uint64_t seed);
  uint64_t initialSeed() const { return seed_; }

  uint32_t random() { return static_cast<uint32_t>(engine_()); }
  // Two draws, the first one in the high half.
  uint64_t random64();

  // One double-precision standard normal (at::normal_distribution<double> with its cache).
  double nextDoubleNormal();

 private:
  std::mt19937 engine_;
  uint64_t seed_ = 0;
  std::optional<double> cachedDoubleNormal_;
};

// The process-wide generator behind torch.manual_seed and the factories below when gen is null.
Generator& defaultGenerator();
// torch.manual_seed(seed): negative seeds wrap to uint64 like torch.
void manualSeed(int64_t seed);

// In-place fills (tensor.uniform_(from, to), tensor.normal_(mean, std), tensor.random_(low, high)).
Tensor& uniform_(Tensor& t, double from = 0.0, double to = 1.0, Generator* gen = nullptr);
Tensor& normal_(Tensor& t, double mean = 0.0, double std = 1.0, Generator* gen = nullptr);
Tensor& randomInt_(Tensor& t, int64_t low, int64_t high, Generator* gen = nullptr);

// torch.rand / randn (float32 by default), torch.randint(low, high, size) (int64 by default).
Tensor rand(const Shape& shape, TensorOptions options = {}, Generator* gen = nullptr);
Tensor randn(const Shape& shape, TensorOptions options = {}, Generator* gen = nullptr);
Tensor randint(int64_t low, int64_t high, const Shape& shape, TensorOptions options = {}, Generator* gen = nullptr);
Tensor randint(int64_t high, const Shape& shape, TensorOptions options = {}, Generator* gen = nullptr);
Tensor randLike(const Tensor& like, TensorOptions options = {}, Generator* gen = nullptr);
Tensor randnLike(const Tensor& like, TensorOptions options = {}, Generator* gen = nullptr);
Tensor randintLike(const Tensor& like, int64_t low, int64_t high, TensorOptions options = {}, Generator* gen = nullptr);

}  // namespace tilescope::host
