#pragma once
// Compile-time side of host tensors: the C++ storage type of each dtype, the type arithmetic happens in,
// torch's value conversions, and dispatchDType(), which turns a run-time dtype into a template argument
// once per operation so that inner loops are tight, branch-free and vectorisable. fp8 tensors, like
// PyTorch's on the CPU, only move and convert values: dispatchStorageDType reaches their types,
// dispatchDType (arithmetic) refuses them with a message saying to convert first.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "core/tensor/BFloat16.h"
#include "core/tensor/Float8.h"
#include "core/tensor/Half.h"
#include "core/tensor/TensorError.h"
#include "core/tensor/TypePromotion.h"

namespace tilescope::host {

template <class T>
struct TypeTag {
  using type = T;
};

template <class T>
inline constexpr bool kIsFp8 = std::is_same_v<T, Float8E4M3Fn> || std::is_same_v<T, Float8E5M2>;
template <class T>
inline constexpr bool kIsReducedFloat = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16> || kIsFp8<T>;
template <class T>
inline constexpr bool kIsFloating = std::is_floating_point_v<T> || kIsReducedFloat<T>;

// Arithmetic on float16/bfloat16 happens in float and is rounded once on store, as torch does on CPU.
template <class T>
struct ComputeTypeOf {
  using type = T;
};
template <>
struct ComputeTypeOf<Half> {
  using type = float;
};
template <>
struct ComputeTypeOf<BFloat16> {
  using type = float;
};
template <ir::DType Format>
struct ComputeTypeOf<Float8<Format>> {
  using type = float;
};
template <class T>
using ComputeType = typename ComputeTypeOf<T>::type;

template <class T>
inline ComputeType<T> toCompute(T v) {
  if constexpr (kIsReducedFloat<T>) {
    return v.toFloat();
  } else {
    return v;
  }
}

namespace detail {

// Float -> integer as torch does on x86: through a 32-bit (or 64-bit) truncating conversion whose
// out-of-range result is the "integer indefinite" value, then wrapped to the narrow type. Written
// without undefined behaviour.
template <class I>
I floatToInt(double v) {
  if constexpr (std::is_same_v<I, int64_t> || std::is_same_v<I, uint8_t>) {
    // c10 converts to uint8 through int64 to avoid the UB of negative -> unsigned.
    const int64_t wide = (v >= -9.2233720368547758e18 && v < 9.2233720368547758e18) ? static_cast<int64_t>(v)
                                                                                       : INT64_MIN;
    return static_cast<I>(wide);
  } else {
    const int32_t narrow =
        (v >= -2147483648.0 && v < 2147483648.0) ? static_cast<int32_t>(v) : INT32_MIN;
    return static_cast<I>(narrow);
  }
}

}  // namespace detail

// Converts one value between storage types with torch's semantics (bool is "!= 0", floats to ints
// truncate, ints wrap, double -> half goes through float like c10::Half(float)).
template <class To, class From>
inline To convertValue(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (kIsReducedFloat<From>) {
    return convertValue<To>(v.toFloat());
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (kIsReducedFloat<To>) {
    return To::fromFloat(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(v);
  } else if constexpr (std::is_floating_point_v<From>) {
    return detail::floatToInt<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);  // integer -> integer wraps (well-defined since C++20)
  }
}

// Stores a computed value (ComputeType<T> or anything convertible) into storage type T.
template <class T, class C>
inline T fromCompute(C v) {
  return convertValue<T>(v);
}

[[noreturn]] inline void throwUnsupportedDType(DType t) {
  throw TensorError("dtype " + std::string(ir::dtypePythonName(t)) + " is not supported by host tensors",
                    TensorError::Kind::TypeError);
}

// What an operation that computes on an fp8 tensor says (PyTorch's CPU kernels lack them too).
[[noreturn]] inline void throwFp8NotImplemented(DType t) {
  throw TensorError("this operation is not implemented for " + torchDTypeName(t) +
                        " tensors: like PyTorch's, the built-in torch's fp8 tensors are for storage and conversion "
                        "only (.to(), copies, views, printing, kernel arguments); convert first, e.g. "
                        "x.to(torch.float16)",
                    TensorError::Kind::RuntimeError);
}

// Calls f(TypeTag<T>{}) with T the storage type of `t`; for operations that compute on the values.
template <class F>
decltype(auto) dispatchDType(DType t, F&& f) {
  switch (t) {
    case DType::I1: return f(TypeTag<bool>{});
    case DType::I8: return f(TypeTag<int8_t>{});
    case DType::I16: return f(TypeTag<int16_t>{});
    case DType::I32: return f(TypeTag<int32_t>{});
    case DType::I64: return f(TypeTag<int64_t>{});
    case DType::U8: return f(TypeTag<uint8_t>{});
    case DType::FP16: return f(TypeTag<Half>{});
    case DType::BF16: return f(TypeTag<BFloat16>{});
    case DType::FP32: return f(TypeTag<float>{});
    case DType::FP64: return f(TypeTag<double>{});
    case DType::FP8E4NV:
    case DType::FP8E5: throwFp8NotImplemented(t);
    default: throwUnsupportedDType(t);
  }
}

// dispatchDType that also reaches the fp8 storage types: for operations that only move or convert
// values (copies, .to(), fills, element access, indexing).
template <class F>
decltype(auto) dispatchStorageDType(DType t, F&& f) {
  switch (t) {
    case DType::FP8E4NV: return f(TypeTag<Float8E4M3Fn>{});
    case DType::FP8E5: return f(TypeTag<Float8E5M2>{});
    default: return dispatchDType(t, std::forward<F>(f));
  }
}

// The dtype of a storage type (inverse of dispatchDType).
template <class T>
constexpr DType dtypeOf() {
  if constexpr (std::is_same_v<T, bool>) return DType::I1;
  else if constexpr (std::is_same_v<T, int8_t>) return DType::I8;
  else if constexpr (std::is_same_v<T, int16_t>) return DType::I16;
  else if constexpr (std::is_same_v<T, int32_t>) return DType::I32;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::I64;
  else if constexpr (std::is_same_v<T, uint8_t>) return DType::U8;
  else if constexpr (std::is_same_v<T, Half>) return DType::FP16;
  else if constexpr (std::is_same_v<T, BFloat16>) return DType::BF16;
  else if constexpr (std::is_same_v<T, Float8E4M3Fn>) return DType::FP8E4NV;
  else if constexpr (std::is_same_v<T, Float8E5M2>) return DType::FP8E5;
  else if constexpr (std::is_same_v<T, float>) return DType::FP32;
  else return DType::FP64;
}

}  // namespace tilescope::host
