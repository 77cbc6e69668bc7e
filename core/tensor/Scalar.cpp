#include "core/tensor/Scalar.h"

#include <cmath>

#include "core/tensor/PythonFormat.h"

namespace tilescope::host {

bool Scalar::toBool() const {
  switch (kind_) {
    case Kind::Bool: return b_;
    case Kind::Int: return i_ != 0;
    case Kind::Float: return d_ != 0.0;
  }
  return false;
}

int64_t Scalar::toInt() const {
  switch (kind_) {
    case Kind::Bool: return b_ ? 1 : 0;
    case Kind::Int: return i_;
    case Kind::Float:
      // Out-of-range doubles have no int64 value; saturate rather than invoke undefined behaviour.
      if (std::isnan(d_)) return 0;
      if (d_ >= 9.2233720368547758e18) return INT64_MAX;
      if (d_ < -9.2233720368547758e18) return INT64_MIN;
      return static_cast<int64_t>(d_);
  }
  return 0;
}

double Scalar::toDouble() const {
  switch (kind_) {
    case Kind::Bool: return b_ ? 1.0 : 0.0;
    case Kind::Int: return static_cast<double>(i_);
    case Kind::Float: return d_;
  }
  return 0.0;
}

ir::DType Scalar::naturalDType() const {
  switch (kind_) {
    case Kind::Bool: return ir::DType::I1;
    case Kind::Int: return ir::DType::I64;
    case Kind::Float: return ir::DType::FP64;
  }
  return ir::DType::I64;
}

std::string Scalar::repr() const {
  switch (kind_) {
    case Kind::Bool: return b_ ? "True" : "False";
    case Kind::Int: return std::to_string(i_);
    case Kind::Float: return pythonFloatRepr(d_);
  }
  return {};
}

bool Scalar::operator==(const Scalar& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::Bool: return b_ == other.b_;
    case Kind::Int: return i_ == other.i_;
    case Kind::Float: return d_ == other.d_ || (std::isnan(d_) && std::isnan(other.d_));
  }
  return false;
}

}  // namespace tilescope::host
