#include "core/tensor/TensorCompare.h"

#include <cmath>
#include <cstdio>

#include "core/tensor/PythonFormat.h"
#include "core/tensor/TensorError.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorReduce.h"

namespace tilescope::host {

namespace {

// The Python text of a number that came out of .item(): ints print as ints, floats with repr().
std::string pyNumber(const Scalar& s) { return s.repr(); }

std::string unravel(int64_t flat, const Shape& shape) {
  Shape index(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return pythonTupleRepr(index);
}

std::string mismatchMessage(const std::string& identifier, const std::string& extra, const std::string& absDiff,
                            const std::string& absIdx, double atol, const std::string& relDiff,
                            const std::string& relIdx, double rtol) {
  const bool equality = rtol == 0 && atol == 0;
  auto diffLine = [&](const char* type, const char* title, const std::string& diff, const std::string& idx, double tol) {
    std::string line = idx.empty() ? std::string(title) + " difference: " + diff
                                   : "Greatest " + std::string(type) + " difference: " + diff + " at index " + idx;
    if (!equality) line += " (up to " + pythonFloatRepr(tol) + " allowed)";
    return line + "\n";
  };
  std::string msg = identifier + " are not " + (equality ? "equal" : "close") + "!\n\n";
  if (!extra.empty()) msg += extra + "\n";
  msg += diffLine("absolute", "Absolute", absDiff, absIdx, atol);
  msg += diffLine("relative", "Relative", relDiff, relIdx, rtol);
  while (!msg.empty() && msg.back() == '\n') msg.pop_back();  // torch strips the message
  return msg;
}

}  // namespace

std::pair<double, double> defaultTolerances(DType t) {
  switch (t) {
    case DType::FP16: return {1e-3, 1e-5};
    case DType::BF16: return {1.6e-2, 1e-5};
    case DType::FP32: return {1.3e-6, 1e-5};
    case DType::FP64: return {1e-7, 1e-7};
    default: return {0.0, 0.0};
  }
}

Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equalNan) {
  if (a.dtype() != b.dtype()) {
    throw TensorError(std::string(scalarTypeName(a.dtype())) + " did not match " + std::string(scalarTypeName(b.dtype())));
  }
  if (rtol < 0) throw TensorError("rtol must be greater than or equal to zero, but got " + pythonFloatRepr(rtol));
  if (atol < 0) throw TensorError("atol must be greater than or equal to zero, but got " + pythonFloatRepr(atol));
  Tensor close = eq(a, b);
  if (equalNan && a.isFloatingPoint()) close = binary(BinaryOp::LogicalOr, close, binary(BinaryOp::LogicalAnd, ne(a, a), ne(b, b)));
  if ((rtol == 0 && atol == 0) || a.dtype() == DType::I1) return close;
  // torch: allowed = atol + |rtol * other| (ints: other as float32), actual = |self - other|.
  const Tensor other = a.isFloatingPoint() ? b : b.to(kDefaultFloat);
  const Tensor allowed = add(abs(mul(other, Scalar(rtol))), Scalar(atol));
  Tensor actual = abs(sub(a, b));
  if (!actual.isFloatingPoint()) actual = actual.to(kDefaultFloat);
  const Tensor finite = binary(BinaryOp::LogicalAnd, eq(actual, actual), ne(actual, Scalar(INFINITY)));
  return binary(BinaryOp::LogicalOr, close, binary(BinaryOp::LogicalAnd, finite, le(actual, allowed)));
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equalNan) {
  return all(isclose(a, b, rtol, atol, equalNan)).item().toBool();
}

bool equal(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return false;
  return all(eq(a, b)).item().toBool();
}

std::optional<std::string> assertCloseMessage(const Tensor& actualIn, const Tensor& expectedIn,
                                              const AssertCloseOptions& options) {
  if (options.rtol.has_value() != options.atol.has_value()) {
    throw TensorError(std::string("Both 'rtol' and 'atol' must be either specified or omitted, but got no ") +
                          (options.rtol ? "atol" : "rtol") + ".",
                      TensorError::Kind::ValueError);
  }
  auto attributeMismatch = [](const std::string& name, const std::string& a, const std::string& b) {
    return "The values for attribute '" + name + "' do not match: " + a + " != " + b + ".";
  };
  if (actualIn.shape() != expectedIn.shape()) {
    return attributeMismatch("shape", torchSizeRepr(actualIn.shape()), torchSizeRepr(expectedIn.shape()));
  }
  if (options.checkDevice && actualIn.device() != expectedIn.device()) {
    return attributeMismatch("device", actualIn.device().str(), expectedIn.device().str());
  }
  if (options.checkDtype && actualIn.dtype() != expectedIn.dtype()) {
    return attributeMismatch("dtype", torchDTypeName(actualIn.dtype()), torchDTypeName(expectedIn.dtype()));
  }
  double rtol, atol;
  if (options.rtol) {
    rtol = *options.rtol;
    atol = *options.atol;
  } else {
    const auto [ra, aa] = defaultTolerances(actualIn.dtype());
    const auto [rb, ab] = defaultTolerances(expectedIn.dtype());
    rtol = std::max(ra, rb);
    atol = std::max(aa, ab);
  }
  // Values are compared at the highest precision of their category (bool counts as integral).
  const DType common = promoteTypes(actualIn.dtype(), expectedIn.dtype());
  const DType compareType = isFloatingType(common) ? DType::FP64 : DType::I64;
  const Tensor actual = actualIn.cpu().to(compareType);
  const Tensor expected = expectedIn.cpu().to(compareType);
  const Tensor matches = isclose(actual, expected, rtol, atol, options.equalNan);
  if (all(matches).item().toBool()) return std::nullopt;

  if (actual.dim() == 0) {
    const Scalar a = actual.item(), e = expected.item();
    std::string absDiff, relDiff;
    if (compareType == DType::I64) {
      const int64_t d = std::llabs(a.toInt() - e.toInt());
      absDiff = std::to_string(d);
      relDiff = e.toInt() == 0 ? "inf" : pythonFloatRepr(static_cast<double>(d) / std::fabs(static_cast<double>(e.toInt())));
    } else {
      const double d = std::fabs(a.toDouble() - e.toDouble());
      absDiff = pythonFloatRepr(d);
      relDiff = e.toDouble() == 0 ? "inf" : pythonFloatRepr(d / std::fabs(e.toDouble()));
    }
    return mismatchMessage("Scalars", "Expected " + pyNumber(e) + " but got " + pyNumber(a) + ".", absDiff, "", atol,
                           relDiff, "", rtol);
  }

  const int64_t total = matches.numel();
  const int64_t mismatched = total - sum(matches).item().toInt();
  char pct[64];
  std::snprintf(pct, sizeof pct, "%.1f%%", static_cast<double>(mismatched) / static_cast<double>(total) * 100.0);
  const std::string extra = "Mismatched elements: " + std::to_string(mismatched) + " / " + std::to_string(total) + " (" + pct + ")";

  const Tensor matchesFlat = matches.reshape({-1});
  const Tensor absDiff = where(matchesFlat, Scalar(0), abs(sub(actual.reshape({-1}), expected.reshape({-1}))));
  // Integer |diff| / |expected| is a true division (float32), as in torch.
  const Tensor relDiff = where(matchesFlat, Scalar(0), div(absDiff, abs(expected.reshape({-1}))));
  const ValuesIndices maxAbs = max(absDiff, 0);
  const ValuesIndices maxRel = max(relDiff, 0);
  return mismatchMessage("Tensor-likes", extra, pyNumber(maxAbs.values.item()),
                         unravel(maxAbs.indices.item().toInt(), actual.shape()), atol, pyNumber(maxRel.values.item()),
                         unravel(maxRel.indices.item().toInt(), actual.shape()), rtol);
}

void assertClose(const Tensor& actual, const Tensor& expected, const AssertCloseOptions& options) {
  if (auto message = assertCloseMessage(actual, expected, options)) {
    throw TensorError(*message, TensorError::Kind::AssertionError);
  }
}

}  // namespace tilescope::host
