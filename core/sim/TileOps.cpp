#include "core/sim/TileOps.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "core/base/Diagnostic.h"
#include "core/sim/DeviceAddress.h"
#include "core/ir/Numerics.h"

namespace tilescope::sim::tileops {

using ir::BinaryOp;
using ir::DType;

namespace {

[[noreturn]] void internal(const std::string& what) { throw lang::InternalError("tileops: " + what); }

void requireSameCount(const Tile& a, const Tile& b, const char* op) {
  if (a.numel() != b.numel()) internal(std::string(op) + ": operands have different element counts");
}

// Two's-complement wrap of a whole int array to t's width; loops the compiler can vectorise.
void wrapInPlace(int64_t* v, int64_t n, DType t) {
  switch (t) {
    case DType::I1:
      for (int64_t i = 0; i < n; ++i) v[i] &= 1;
      break;
    case DType::I8:
      for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int8_t>(v[i]);
      break;
    case DType::I16:
      for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int16_t>(v[i]);
      break;
    case DType::I32:
      for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>(v[i]);
      break;
    case DType::U8:
      for (int64_t i = 0; i < n; ++i) v[i] &= 0xFF;
      break;
    case DType::U16:
      for (int64_t i = 0; i < n; ++i) v[i] &= 0xFFFF;
      break;
    case DType::U32:
      for (int64_t i = 0; i < n; ++i) v[i] &= 0xFFFFFFFFll;
      break;
    default: break;
  }
}

template <class F>
void mapInts(const Tile& a, const Tile& b, Tile& out, F f) {
  const int64_t* x = a.ints();
  const int64_t* y = b.ints();
  int64_t* o = out.ints();
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
}

template <class F>
void mapFloats(const Tile& a, const Tile& b, Tile& out, F f) {
  const double* x = a.floats();
  const double* y = b.floats();
  double* o = out.floats();
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
}

template <class F>
void compareFloats(const Tile& a, const Tile& b, Tile& out, F f) {
  const double* x = a.floats();
  const double* y = b.floats();
  int64_t* o = out.ints();
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]) ? 1 : 0;
}

Tile binaryPointer(BinaryOp op, const Tile& a, const Tile& b, const ir::Type& rt) {
  Tile out = Tile::uninitialized(rt);
  if (op == BinaryOp::Add || op == BinaryOp::Sub) {
    if (!rt.isPointer()) internal("pointer arithmetic must produce a pointer");
    // Element sizes are powers of two: a shift, which (unlike a 64-bit multiply) vectorises well.
    const int shift = std::countr_zero(static_cast<unsigned>(elementBytes(a.dtype())));
    // The offset operand is a (sign-extended or zero-extended) integer; advance by whole elements.
    if (op == BinaryOp::Sub)
      mapInts(a, b, out, [shift](int64_t p, int64_t k) {
        return static_cast<int64_t>(static_cast<uint64_t>(p) - (static_cast<uint64_t>(k) << shift));
      });
    else
      mapInts(a, b, out, [shift](int64_t p, int64_t k) {
        return static_cast<int64_t>(static_cast<uint64_t>(p) + (static_cast<uint64_t>(k) << shift));
      });
    return out;
  }
  switch (op) {
    case BinaryOp::Eq: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x == y; }); break;
    case BinaryOp::Ne: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x != y; }); break;
    case BinaryOp::Lt: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x < y; }); break;
    case BinaryOp::Le: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x <= y; }); break;
    case BinaryOp::Gt: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x > y; }); break;
    case BinaryOp::Ge: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x >= y; }); break;
    default: internal("unsupported pointer operation " + std::string(ir::binaryOpName(op)));
  }
  return out;
}

Tile binaryFloat(BinaryOp op, const Tile& a, const Tile& b, bool propagateNan, const ir::Type& rt) {
  Tile out = Tile::uninitialized(rt);
  const DType t = a.dtype();
  bool round = true;
  switch (op) {
    case BinaryOp::Add: mapFloats(a, b, out, [](double x, double y) { return x + y; }); break;
    case BinaryOp::Sub: mapFloats(a, b, out, [](double x, double y) { return x - y; }); break;
    case BinaryOp::Mul: mapFloats(a, b, out, [](double x, double y) { return x * y; }); break;
    case BinaryOp::TrueDiv: mapFloats(a, b, out, [](double x, double y) { return x / y; }); break;
    // fmod of two values of t is exact in t, so no rounding is lost.
    case BinaryOp::Mod: mapFloats(a, b, out, [](double x, double y) { return std::fmod(x, y); }); break;
    case BinaryOp::Min:
      round = false;
      if (propagateNan)
        mapFloats(a, b, out, [](double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::fmin(x, y); });
      else
        mapFloats(a, b, out, [](double x, double y) { return std::fmin(x, y); });
      break;
    case BinaryOp::Max:
      round = false;
      if (propagateNan)
        mapFloats(a, b, out, [](double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::fmax(x, y); });
      else
        mapFloats(a, b, out, [](double x, double y) { return std::fmax(x, y); });
      break;
    case BinaryOp::Eq: compareFloats(a, b, out, [](double x, double y) { return x == y; }); return out;
    case BinaryOp::Ne: compareFloats(a, b, out, [](double x, double y) { return x != y; }); return out;
    case BinaryOp::Lt: compareFloats(a, b, out, [](double x, double y) { return x < y; }); return out;
    case BinaryOp::Le: compareFloats(a, b, out, [](double x, double y) { return x <= y; }); return out;
    case BinaryOp::Gt: compareFloats(a, b, out, [](double x, double y) { return x > y; }); return out;
    case BinaryOp::Ge: compareFloats(a, b, out, [](double x, double y) { return x >= y; }); return out;
    default: internal("unsupported float operation " + std::string(ir::binaryOpName(op)));
  }
  if (round) roundInPlace(out.floats(), out.numel(), t);
  return out;
}

Tile binaryInt(BinaryOp op, const Tile& a, const Tile& b, const ir::Type& rt, OpFlags* flags) {
  Tile out = Tile::uninitialized(rt);
  const DType t = a.dtype();
  const bool uns = ir::isUnsignedInt(t);
  const bool u64 = t == DType::U64;
  const int bits = ir::bitWidth(t);
  auto uadd = [](int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)); };
  auto usub = [](int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)); };
  auto umul = [](int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)); };
  bool wrap = true;
  switch (op) {
    case BinaryOp::Add: mapInts(a, b, out, uadd); break;
    case BinaryOp::Sub: mapInts(a, b, out, usub); break;
    case BinaryOp::Mul: mapInts(a, b, out, umul); break;
    case BinaryOp::Div:
    case BinaryOp::Mod: {
      const bool div = op == BinaryOp::Div;
      const int64_t* y = b.ints();
      for (int64_t i = 0; i < out.numel(); ++i)
        if (y[i] == 0) {
          if (flags) flags->intDivByZero = true;
          break;
        }
      mapInts(a, b, out, [&](int64_t x, int64_t yy) { return div ? intDiv(t, x, yy) : intMod(t, x, yy); });
      wrap = false;
      break;
    }
    case BinaryOp::And: mapInts(a, b, out, [](int64_t x, int64_t y) { return x & y; }); wrap = false; break;
    case BinaryOp::Or: mapInts(a, b, out, [](int64_t x, int64_t y) { return x | y; }); wrap = false; break;
    case BinaryOp::Xor: mapInts(a, b, out, [](int64_t x, int64_t y) { return x ^ y; }); wrap = false; break;
    case BinaryOp::Shl:
      // Amounts are read as unsigned: negative or >= width shifts everything out.
      mapInts(a, b, out, [&](int64_t x, int64_t y) {
        const uint64_t s = asUnsigned(t, y);
        return s >= static_cast<uint64_t>(bits) ? int64_t{0} : static_cast<int64_t>(static_cast<uint64_t>(x) << s);
      });
      break;
    case BinaryOp::Shr:
      if (uns) {
        mapInts(a, b, out, [&](int64_t x, int64_t y) {
          const uint64_t s = asUnsigned(t, y);
          return s >= static_cast<uint64_t>(bits) ? int64_t{0} : static_cast<int64_t>(asUnsigned(t, x) >> s);
        });
      } else {
        mapInts(a, b, out, [&](int64_t x, int64_t y) {
          const uint64_t s = asUnsigned(t, y);
          return s >= static_cast<uint64_t>(bits) ? (x < 0 ? int64_t{-1} : int64_t{0}) : (x >> s);
        });
      }
      wrap = false;
      break;
    case BinaryOp::Min:
      if (u64)
        mapInts(a, b, out, [](int64_t x, int64_t y) { return static_cast<uint64_t>(x) < static_cast<uint64_t>(y) ? x : y; });
      else
        mapInts(a, b, out, [](int64_t x, int64_t y) { return std::min(x, y); });
      wrap = false;
      break;
    case BinaryOp::Max:
      if (u64)
        mapInts(a, b, out, [](int64_t x, int64_t y) { return static_cast<uint64_t>(x) > static_cast<uint64_t>(y) ? x : y; });
      else
        mapInts(a, b, out, [](int64_t x, int64_t y) { return std::max(x, y); });
      wrap = false;
      break;
    case BinaryOp::Eq: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x == y; }); return out;
    case BinaryOp::Ne: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x != y; }); return out;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge: {
      // Narrow unsigned values are stored zero-extended, so only u64 needs unsigned compares.
      if (!u64) {
        if (op == BinaryOp::Lt) mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x < y; });
        if (op == BinaryOp::Le) mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x <= y; });
        if (op == BinaryOp::Gt) mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x > y; });
        if (op == BinaryOp::Ge) mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x >= y; });
        return out;
      }
      auto key = [](int64_t v) { return static_cast<int64_t>(static_cast<uint64_t>(v) ^ (uint64_t{1} << 63)); };
      if (op == BinaryOp::Lt) mapInts(a, b, out, [&](int64_t x, int64_t y) -> int64_t { return key(x) < key(y); });
      if (op == BinaryOp::Le) mapInts(a, b, out, [&](int64_t x, int64_t y) -> int64_t { return key(x) <= key(y); });
      if (op == BinaryOp::Gt) mapInts(a, b, out, [&](int64_t x, int64_t y) -> int64_t { return key(x) > key(y); });
      if (op == BinaryOp::Ge) mapInts(a, b, out, [&](int64_t x, int64_t y) -> int64_t { return key(x) >= key(y); });
      return out;
    }
    case BinaryOp::LogicalAnd: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x != 0 && y != 0; }); return out;
    case BinaryOp::LogicalOr: mapInts(a, b, out, [](int64_t x, int64_t y) -> int64_t { return x != 0 || y != 0; }); return out;
    case BinaryOp::TrueDiv: internal("truediv on integers (the checker casts to float first)");
  }
  if (wrap) wrapInPlace(out.ints(), out.numel(), out.dtype());
  return out;
}

// Row-major strides of a shape.
std::vector<int64_t> stridesOf(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

// Copies src (with per-dim source strides, 0 for broadcast dims) into a contiguous dst of `shape`.
template <class T>
void gatherStrided(const T* src, T* dst, const ir::Shape& shape, const std::vector<int64_t>& srcStrides) {
  const int rank = static_cast<int>(shape.size());
  const int64_t n = ir::numElements(shape);
  if (n == 0) return;
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  // Innermost dim as a tight loop; the outer dims as an odometer.
  const int64_t inner = shape[rank - 1];
  const int64_t innerStride = srcStrides[rank - 1];
  std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
  int64_t srcBase = 0;
  for (int64_t o = 0; o < n; o += inner) {
    if (innerStride == 1) {
      std::memcpy(dst + o, src + srcBase, static_cast<size_t>(inner) * sizeof(T));
    } else if (innerStride == 0) {
      std::fill(dst + o, dst + o + inner, src[srcBase]);
    } else {
      for (int64_t k = 0; k < inner; ++k) dst[o + k] = src[srcBase + k * innerStride];
    }
    for (int d = rank - 2; d >= 0; --d) {
      if (++idx[d] < shape[d]) {
        srcBase += srcStrides[d];
        break;
      }
      srcBase -= srcStrides[d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
}

void gatherInto(const Tile& src, Tile& dst, const std::vector<int64_t>& srcStrides) {
  if (src.hasFloatStorage())
    gatherStrided(src.floats(), dst.floats(), dst.shape(), srcStrides);
  else
    gatherStrided(src.ints(), dst.ints(), dst.shape(), srcStrides);
}

}  // namespace

void roundInPlace(double* v, int64_t n, DType t) {
  switch (t) {
    case DType::FP64: return;
    case DType::FP32:
      for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>(static_cast<float>(v[i]));
      return;
    default:
      for (int64_t i = 0; i < n; ++i) v[i] = roundToDType(t, v[i]);
      return;
  }
}

Tile arange(int64_t start, int64_t end) {
  Tile out(DType::I32, false, {end - start});
  int64_t* o = out.ints();
  for (int64_t i = 0; i < end - start; ++i) o[i] = start + i;
  return out;
}

Tile splat(const Tile& scalar, const ir::Shape& shape) {
  Tile out(scalar.dtype(), scalar.isPointer(), shape);
  if (scalar.hasFloatStorage())
    std::fill(out.floats(), out.floats() + out.numel(), scalar.floats()[0]);
  else
    std::fill(out.ints(), out.ints() + out.numel(), scalar.ints()[0]);
  return out;
}

Tile broadcastTo(const Tile& t, const ir::Shape& shape) {
  if (t.isScalar()) return splat(t, shape);
  if (t.shape() == shape) return t;
  if (t.rank() != static_cast<int>(shape.size())) internal("broadcast between different ranks");
  std::vector<int64_t> st = stridesOf(t.shape());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (t.shape()[d] == shape[d]) continue;
    if (t.shape()[d] != 1) internal("broadcast of a dim that is not 1");
    st[d] = 0;
  }
  Tile out(t.dtype(), t.isPointer(), shape);
  gatherInto(t, out, st);
  return out;
}

Tile reshape(const Tile& t, const ir::Shape& shape) { return t.reshaped(shape); }

Tile permute(const Tile& t, const std::vector<int>& order) {
  if (static_cast<int>(order.size()) != t.rank()) internal("permute order has the wrong length");
  const std::vector<int64_t> srcStrides = stridesOf(t.shape());
  ir::Shape shape(order.size());
  std::vector<int64_t> st(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    shape[i] = t.shape()[order[i]];
    st[i] = srcStrides[order[i]];
  }
  Tile out(t.dtype(), t.isPointer(), shape);
  gatherInto(t, out, st);
  return out;
}

Tile cast(const Tile& t, DType dtype, bool pointer, bool bitcast, ir::RoundingMode rounding) {
  Tile out(dtype, pointer, t.shape());
  const int64_t n = t.numel();
  // Pointers: reinterpretation of the address, whatever the direction.
  if (pointer || t.isPointer()) {
    if (out.hasFloatStorage()) internal("cast of a pointer to a float");
    if (t.hasFloatStorage()) internal("cast of a float to a pointer");
    std::copy(t.ints(), t.ints() + n, out.ints());
    if (!pointer) wrapInPlace(out.ints(), n, dtype);
    return out;
  }
  const DType from = t.dtype();
  if (bitcast) {
    if (t.hasFloatStorage() && out.hasFloatStorage()) {
      for (int64_t i = 0; i < n; ++i) out.floats()[i] = bitsToFloat(dtype, floatToBits(from, t.floats()[i]));
    } else if (t.hasFloatStorage()) {
      for (int64_t i = 0; i < n; ++i) out.ints()[i] = wrapInt(dtype, static_cast<int64_t>(floatToBits(from, t.floats()[i])));
    } else if (out.hasFloatStorage()) {
      for (int64_t i = 0; i < n; ++i) out.floats()[i] = bitsToFloat(dtype, asUnsigned(from, t.ints()[i]));
    } else {
      for (int64_t i = 0; i < n; ++i) out.ints()[i] = wrapInt(dtype, t.ints()[i]);
    }
    return out;
  }
  if (dtype == DType::I1) {
    if (t.hasFloatStorage())
      for (int64_t i = 0; i < n; ++i) out.ints()[i] = t.floats()[i] != 0 || std::isnan(t.floats()[i]) ? 1 : 0;
    else
      for (int64_t i = 0; i < n; ++i) out.ints()[i] = t.ints()[i] != 0 ? 1 : 0;
    return out;
  }
  if (t.hasFloatStorage() && out.hasFloatStorage()) {
    std::copy(t.floats(), t.floats() + n, out.floats());
    if (ir::bitWidth(dtype) < ir::bitWidth(from) || (ir::bitWidth(dtype) == ir::bitWidth(from) && dtype != from)) {
      if (rounding == ir::RoundingMode::RTZ) {
        for (int64_t i = 0; i < n; ++i) out.floats()[i] = roundToDType(dtype, out.floats()[i], rounding);
      } else {
        roundInPlace(out.floats(), n, dtype);
      }
    }
    return out;
  }
  if (t.hasFloatStorage()) {
    for (int64_t i = 0; i < n; ++i) out.ints()[i] = floatToInt(dtype, t.floats()[i]);
    return out;
  }
  if (out.hasFloatStorage()) {
    if (ir::bitWidth(from) <= 32) {
      // Exact in double (ints are stored sign- or zero-extended), so one rounding to the target.
      for (int64_t i = 0; i < n; ++i) out.floats()[i] = static_cast<double>(t.ints()[i]);
      roundInPlace(out.floats(), n, dtype);
      return out;
    }
    for (int64_t i = 0; i < n; ++i) out.floats()[i] = intToFloat(from, t.ints()[i], dtype);
    return out;
  }
  std::copy(t.ints(), t.ints() + n, out.ints());
  wrapInPlace(out.ints(), n, dtype);
  return out;
}

Tile unary(ir::UnaryOp op, const Tile& t) {
  Tile out(t.dtype(), t.isPointer(), t.shape());
  const int64_t n = t.numel();
  if (t.hasFloatStorage()) {
    if (op != ir::UnaryOp::Neg) internal("invert on a float");
    for (int64_t i = 0; i < n; ++i) out.floats()[i] = -t.floats()[i];
    return out;
  }
  if (op == ir::UnaryOp::Neg) {
    for (int64_t i = 0; i < n; ++i) out.ints()[i] = static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(t.ints()[i]));
  } else {
    for (int64_t i = 0; i < n; ++i) out.ints()[i] = ~t.ints()[i];
  }
  wrapInPlace(out.ints(), n, t.dtype());
  return out;
}

Tile binary(BinaryOp op, const Tile& a, const Tile& b, bool propagateNan, const ir::Type& resultType, OpFlags* flags) {
  requireSameCount(a, b, ir::binaryOpName(op).data());
  if (a.isPointer()) return binaryPointer(op, a, b, resultType);
  if (a.hasFloatStorage()) return binaryFloat(op, a, b, propagateNan, resultType);
  return binaryInt(op, a, b, resultType, flags);
}

Tile select(const Tile& cond, const Tile& a, const Tile& b) {
  requireSameCount(a, b, "select");
  requireSameCount(cond, a, "select");
  Tile out(a.dtype(), a.isPointer(), a.shape());
  const int64_t* c = cond.ints();
  const int64_t n = a.numel();
  if (a.hasFloatStorage()) {
    for (int64_t i = 0; i < n; ++i) out.floats()[i] = c[i] ? a.floats()[i] : b.floats()[i];
  } else {
    for (int64_t i = 0; i < n; ++i) out.ints()[i] = c[i] ? a.ints()[i] : b.ints()[i];
  }
  return out;
}

Tile math(ir::MathFn fn, std::span<const Tile* const> args) {
  if (static_cast<int>(args.size()) != ir::mathFnArity(fn)) internal("math: wrong number of arguments");
  const Tile& x = *args[0];
  const DType t = x.dtype();
  const int64_t n = x.numel();
  Tile out(t, false, x.shape());
  if (!x.hasFloatStorage()) {
    if (fn == ir::MathFn::Abs) {
      const bool uns = ir::isUnsignedInt(t);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t v = x.ints()[i];
        out.ints()[i] = uns || v >= 0 ? v : static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(v));
      }
      wrapInPlace(out.ints(), n, t);
      return out;
    }
    if (fn == ir::MathFn::Umulhi) {
      for (int64_t i = 0; i < n; ++i) out.ints()[i] = umulhi(t, x.ints()[i], args[1]->ints()[i]);
      return out;
    }
    internal("math function " + std::string(ir::mathFnName(fn)) + " on integers");
  }
  const double* a = x.floats();
  double* o = out.floats();
  switch (fn) {
    case ir::MathFn::Fma:
      for (int64_t i = 0; i < n; ++i) o[i] = mathFma(t, a[i], args[1]->floats()[i], args[2]->floats()[i]);
      return out;
    case ir::MathFn::FDiv:
    case ir::MathFn::DivRn:
      for (int64_t i = 0; i < n; ++i) o[i] = a[i] / args[1]->floats()[i];
      roundInPlace(o, n, t);
      return out;
    case ir::MathFn::Atan2:
    case ir::MathFn::Pow:
    case ir::MathFn::Hypot:
    case ir::MathFn::Fmod:
    case ir::MathFn::Copysign:
    case ir::MathFn::Fdim:
    case ir::MathFn::Remainder:
    case ir::MathFn::Nextafter:
    case ir::MathFn::Rhypot:
      for (int64_t i = 0; i < n; ++i) o[i] = mathBinary(fn, t, a[i], args[1]->floats()[i]);
      return out;
    case ir::MathFn::Abs:
      for (int64_t i = 0; i < n; ++i) o[i] = std::fabs(a[i]);
      return out;
    case ir::MathFn::Exp:
      for (int64_t i = 0; i < n; ++i) o[i] = std::exp(a[i]);
      roundInPlace(o, n, t);
      return out;
    default:
      for (int64_t i = 0; i < n; ++i) o[i] = mathUnary(fn, t, a[i]);
      return out;
  }
}

}  // namespace tilescope::sim::tileops
