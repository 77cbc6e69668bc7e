#pragma once
// Small helpers shared by the host tensor tests: building tensors from literals and reading them back.
#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/tensor/Tensor.h"
#include "core/tensor/TensorError.h"
#include "core/tensor/TensorFactory.h"

namespace tilescope::host::test {

// torch.tensor([...]) with float literals (float32 unless a dtype is given).
inline Tensor floats(std::initializer_list<double> values, Shape shape = {}, TensorOptions options = {}) {
  std::vector<Scalar> s(values.begin(), values.end());
  if (shape.empty()) shape = {static_cast<int64_t>(s.size())};
  return tensor(s, shape, options);
}

// torch.tensor([...]) with int literals (int64 unless a dtype is given).
inline Tensor ints(std::initializer_list<int64_t> values, Shape shape = {}, TensorOptions options = {}) {
  std::vector<Scalar> s(values.begin(), values.end());
  if (shape.empty()) shape = {static_cast<int64_t>(s.size())};
  return tensor(s, shape, options);
}

inline Tensor bools(std::initializer_list<bool> values, Shape shape = {}) {
  std::vector<Scalar> s;
  for (bool b : values) s.emplace_back(b);
  if (shape.empty()) shape = {static_cast<int64_t>(s.size())};
  return tensor(s, shape);
}

// Row-major values as doubles / int64.
inline std::vector<double> toDoubles(const Tensor& t) {
  std::vector<double> out;
  const Tensor c = t.contiguous();
  for (int64_t i = 0; i < c.numel(); ++i) out.push_back(c.loadElement(c.storageOffset() + i).toDouble());
  return out;
}
inline std::vector<int64_t> toInts(const Tensor& t) {
  std::vector<int64_t> out;
  const Tensor c = t.contiguous();
  for (int64_t i = 0; i < c.numel(); ++i) out.push_back(c.loadElement(c.storageOffset() + i).toInt());
  return out;
}

// The message of the TensorError `fn` throws ("" if it does not throw).
inline std::string errorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const TensorError& e) {
    return e.what();
  }
  return "";
}

}  // namespace tilescope::host::test
