#include "core/tensor/TorchRandom.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "core/tensor/CephesMath.h"
#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/TensorConvert.h"
#include "core/tensor/TensorError.h"

namespace tilescope::host {

namespace {

Generator& pick(Generator* gen) { return gen ? *gen : defaultGenerator(); }

// at::uniform_real_distribution<T>: the low `digits` bits of one draw (two for double) scaled to [0, 1).
template <class T>
ComputeType<T> uniformReal(Generator& g, ComputeType<T> from, ComputeType<T> to) {
  if constexpr (std::is_same_v<T, double>) {
    const double x = static_cast<double>(g.random64() & ((uint64_t{1} << 53) - 1)) * (1.0 / 9007199254740992.0);
    return x * (to - from) + from;
  } else {
    constexpr int digits = std::is_same_v<T, float> ? 24 : std::is_same_v<T, Half> ? 11 : 8;
    const float x = static_cast<float>(g.random() & ((uint32_t{1} << digits) - 1)) * (1.0f / static_cast<float>(1u << digits));
    if constexpr (kIsReducedFloat<T>) {
      // c10 computes (to - from) as a reduced-precision value.
      const float range = T::fromFloat(to - from).toFloat();
      return x * range + from;
    } else {
      return x * (to - from) + from;
    }
  }
}

// Writes values generated in iteration order: contiguous tensors in memory order, others in logical
// (row-major) order.
// std::vector<bool> is bit-packed, so bool values are buffered as bytes.
template <class T>
using Buffer = std::vector<std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;

template <class T>
void scatter(Tensor& t, const Buffer<T>& values) {
  if (t.isContiguous()) {
    T* out = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<T>(values[i]);
  } else {
    T* base = reinterpret_cast<T*>(t.storage()->data());
    size_t i = 0;
    t.forEachElementOffset([&](int64_t off) { base[off] = static_cast<T>(values[i++]); });
  }
  markTensorWritten(t);
}

// torch's AVX2 normal_fill_16: Box-Muller on 8 pairs, u1 from the first half, u2 from the second.
void normalFill16Float(float* data, float mean, float std) {
  const float twoPi = static_cast<float>(2.0f * std::numbers::pi);
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - data[j];
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * cephesLogf(u1));
    const float theta = twoPi * u2;
    float s, c;
    cephesSincosf(theta, s, c);
    data[j] = std::fma(radius * c, std, mean);
    data[j + 8] = std::fma(radius * s, std, mean);
  }
}

// torch's scalar normal_fill_16 for double, float16 and bfloat16. For the reduced types every variable
// declared scalar_t in torch is rounded to T; the math itself runs in float (or double for theta).
template <class T>
void normalFill16(T* data, T mean, T std) {
  for (int j = 0; j < 8; ++j) {
    if constexpr (std::is_same_v<T, double>) {
      const double u1 = 1 - data[j];
      const double u2 = data[j + 8];
      const double radius = std::sqrt(-2 * std::log(u1));
      const double theta = 2.0f * std::numbers::pi * u2;
      data[j] = radius * std::cos(theta) * std + mean;
      data[j + 8] = radius * std::sin(theta) * std + mean;
    } else {
      const T u1 = T::fromFloat(1.0f - data[j].toFloat());
      const T u2 = data[j + 8];
      const T radius = T::fromFloat(std::sqrt(-2.0f * std::log(u1.toFloat())));
      const T theta = T::fromFloat(static_cast<float>(2.0f * std::numbers::pi * static_cast<double>(u2.toFloat())));
      const float c = std::cos(theta.toFloat()), s = std::sin(theta.toFloat());
      data[j] = T::fromFloat(radius.toFloat() * c * std.toFloat() + mean.toFloat());
      data[j + 8] = T::fromFloat(radius.toFloat() * s * std.toFloat() + mean.toFloat());
    }
  }
}

template <class T>
void normalFill(std::vector<T>& data, double mean, double std, Generator& g) {
  const auto size = static_cast<int64_t>(data.size());
  for (auto& v : data) v = fromCompute<T>(uniformReal<T>(g, 0, 1));
  const T meanT = fromCompute<T>(mean), stdT = fromCompute<T>(std);
  for (int64_t i = 0; i + 16 <= size; i += 16) {
    if constexpr (std::is_same_v<T, float>) normalFill16Float(data.data() + i, meanT, stdT);
    else normalFill16<T>(data.data() + i, meanT, stdT);
  }
  if (size % 16 != 0) {
    // torch redraws the last 16 values (overlapping the previous block) and transforms them again.
    T* tail = data.data() + size - 16;
    for (int i = 0; i < 16; ++i) tail[i] = fromCompute<T>(uniformReal<T>(g, 0, 1));
    if constexpr (std::is_same_v<T, float>) normalFill16Float(tail, meanT, stdT);
    else normalFill16<T>(tail, meanT, stdT);
  }
}

void requireFloating(const Tensor& t, const char* op) {
  if (!t.isFloatingPoint()) {
    throw TensorError("\"" + std::string(op) + "\" not implemented for '" + std::string(scalarTypeName(t.dtype())) + "'");
  }
}

}  // namespace

void Generator::manualSeed(uint64_t seed) {
  seed_ = seed;
  engine_.seed(static_cast<std::mt19937::result_type>(seed & 0xffffffffu));
  cachedDoubleNormal_.reset();
}

uint64_t Generator::random64() {
  const uint64_t hi = random();
  const uint64_t lo = random();
  return (hi << 32) | lo;
}

double Generator::nextDoubleNormal() {
  if (cachedDoubleNormal_) {
    const double v = *cachedDoubleNormal_;
    cachedDoubleNormal_.reset();
    return v;
  }
  const double u1 = uniformReal<double>(*this, 0.0, 1.0);
  const double u2 = uniformReal<double>(*this, 0.0, 1.0);
  const double r = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = 2.0 * std::numbers::pi * u1;
  cachedDoubleNormal_ = r * std::sin(theta);
  return r * std::cos(theta);
}

Generator& defaultGenerator() {
  static Generator generator;
  return generator;
}

void manualSeed(int64_t seed) { defaultGenerator().manualSeed(static_cast<uint64_t>(seed)); }

Tensor& uniform_(Tensor& t, double from, double to, Generator* gen) {
  requireFloating(t, "check_uniform_bounds");
  if (!(from <= to)) {
    throw TensorError("uniform_ expects to return a [from, to) range, but found from=" + Scalar(from).repr() +
                      " > to=" + Scalar(to).repr());
  }
  Generator& g = pick(gen);
  dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloating<T>) {
      using C = ComputeType<T>;
      const C lo = toCompute(fromCompute<T>(from)), hi = toCompute(fromCompute<T>(to));
      Buffer<T> values(static_cast<size_t>(t.numel()));
      for (auto& v : values) v = fromCompute<T>(uniformReal<T>(g, lo, hi));
      scatter<T>(t, values);
    }
  });
  return t;
}

Tensor& normal_(Tensor& t, double mean, double std, Generator* gen) {
  requireFloating(t, "normal_kernel_cpu");
  if (std < 0) throw TensorError("normal expects std >= 0.0, but found std " + Scalar(std).repr());
  Generator& g = pick(gen);
  dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloating<T>) {
      Buffer<T> values(static_cast<size_t>(t.numel()));
      if (values.size() >= 16 && t.isContiguous()) {
        normalFill<T>(values, mean, std, g);
      } else {
        for (auto& v : values) v = fromCompute<T>(g.nextDoubleNormal() * std + mean);
      }
      scatter<T>(t, values);
    }
  });
  return t;
}

Tensor& randomInt_(Tensor& t, int64_t low, int64_t high, Generator* gen) {
  if (low >= high) {
    throw TensorError("random_ expects 'from' to be less than 'to', but got from=" + std::to_string(low) +
                      " >= to=" + std::to_string(high));
  }
  Generator& g = pick(gen);
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Wide ranges draw 64 bits for the types that can hold them, as at::uniform_int_from_to_distribution.
    constexpr bool wideCapable = std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
                                 std::is_same_v<T, float> || std::is_same_v<T, BFloat16>;
    Buffer<T> values(static_cast<size_t>(t.numel()));
    for (auto& v : values) {
      const uint64_t draw = (wideCapable && range >= (uint64_t{1} << 32)) ? g.random64() : uint64_t{g.random()};
      v = convertValue<T>(static_cast<int64_t>(draw % range + static_cast<uint64_t>(low)));
    }
    scatter<T>(t, values);
  });
  return t;
}

Tensor rand(const Shape& shape, TensorOptions options, Generator* gen) {
  Tensor t = empty(shape, options);
  return uniform_(t, 0.0, 1.0, gen);
}

Tensor randn(const Shape& shape, TensorOptions options, Generator* gen) {
  Tensor t = empty(shape, options);
  return normal_(t, 0.0, 1.0, gen);
}

Tensor randint(int64_t low, int64_t high, const Shape& shape, TensorOptions options, Generator* gen) {
  if (!options.dtype) options.dtype = DType::I64;
  Tensor t = empty(shape, options);
  return randomInt_(t, low, high, gen);
}

Tensor randint(int64_t high, const Shape& shape, TensorOptions options, Generator* gen) {
  return randint(0, high, shape, options, gen);
}

Tensor randLike(const Tensor& like, TensorOptions options, Generator* gen) {
  Tensor t = allocateLike(like, options, false);
  return uniform_(t, 0.0, 1.0, gen);
}

Tensor randnLike(const Tensor& like, TensorOptions options, Generator* gen) {
  Tensor t = allocateLike(like, options, false);
  return normal_(t, 0.0, 1.0, gen);
}

Tensor randintLike(const Tensor& like, int64_t low, int64_t high, TensorOptions options, Generator* gen) {
  Tensor t = allocateLike(like, options, false);
  return randomInt_(t, low, high, gen);
}

}  // namespace tilescope::host
