#pragma once
// torch.isclose / allclose / equal and torch.testing.assert_close (with torch's default tolerances per
// dtype and its exact mismatch report).
#include <optional>
#include <string>

#include "core/tensor/Tensor.h"

namespace tilescope::host {

// |a - b| <= atol + rtol * |b|, evaluated in the tensors' dtype like torch (so float16 tolerances are
// float16 values). Both tensors must have the same dtype ("Float did not match Half").
Tensor isclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8, bool equalNan = false);
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8, bool equalNan = false);
// Same shape and equal elements (after promotion); NaN is never equal.
bool equal(const Tensor& a, const Tensor& b);

struct AssertCloseOptions {
  std::optional<double> rtol;  // both or neither, like torch
  std::optional<double> atol;
  bool equalNan = false;
  bool checkDevice = true;
  bool checkDtype = true;
};

// torch.testing.assert_close on two tensors: nullopt when they are close, otherwise the message torch's
// AssertionError carries, e.g.
//   Tensor-likes are not close!
//
//   Mismatched elements: 3 / 10 (30.0%)
//   Greatest absolute difference: 0.5 at index (2,) (up to 1e-05 allowed)
//   Greatest relative difference: 0.25 at index (2,) (up to 1.3e-06 allowed)
// Specifying only one of rtol/atol throws a TensorError of kind ValueError.
std::optional<std::string> assertCloseMessage(const Tensor& actual, const Tensor& expected,
                                              const AssertCloseOptions& options = {});
// Throws TensorError (kind AssertionError) with that message.
void assertClose(const Tensor& actual, const Tensor& expected, const AssertCloseOptions& options = {});

// torch's default (rtol, atol) for a dtype: float16 (1e-3, 1e-5), bfloat16 (1.6e-2, 1e-5),
// float32 (1.3e-6, 1e-5), float64 (1e-7, 1e-7), integers and bool (0, 0).
std::pair<double, double> defaultTolerances(DType t);

}  // namespace tilescope::host
