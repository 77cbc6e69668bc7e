#include "core/sim/TileRandom.h"

#include "core/base/Diagnostic.h"
#include "core/ir/Numerics.h"
#include "core/sim/Philox.h"

namespace tilescope::sim::tileops {

Tile random(ir::RandKind kind, const Tile& seed, const Tile& offset, int rounds, int component,
            const ir::Type& resultType) {
  if (seed.hasFloatStorage() || offset.hasFloatStorage()) throw lang::InternalError("rand: seed and offset must be integers");
  if (component < 0 || component > 3) throw lang::InternalError("rand: component out of range");
  Tile out(resultType);
  if (out.numel() != offset.numel()) throw lang::InternalError("rand: result shape differs from the offsets");
  // seed.to(tl.uint64): signed seeds are stored sign-extended, unsigned ones zero-extended, so the
  // int64 bit pattern already is the converted value.
  const uint64_t s = static_cast<uint64_t>(seed.ints()[0]);
  const bool wide = ir::bitWidth(offset.dtype()) > 32;
  const int64_t n = offset.numel();
  const int pick = kind == ir::RandKind::Int4x ? component : 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t off = offset.ints()[i];
    if (wide) {
      const auto r = randint4x64(s, static_cast<uint64_t>(off), rounds);
      switch (kind) {
        case ir::RandKind::Int:
        case ir::RandKind::Int4x: out.ints()[i] = wrapInt(out.dtype(), static_cast<int64_t>(r[pick])); break;
        case ir::RandKind::Uniform: out.floats()[i] = uintToUniformFloat(r[0]); break;
        case ir::RandKind::Normal:
          out.floats()[i] = pairUniformToNormal(uintToUniformFloat(r[0]), uintToUniformFloat(r[1]));
          break;
      }
    } else {
      const auto r = randint4x32(s, static_cast<uint32_t>(off), rounds);
      switch (kind) {
        case ir::RandKind::Int:
        case ir::RandKind::Int4x: out.ints()[i] = wrapInt(out.dtype(), static_cast<int64_t>(r[pick])); break;
        case ir::RandKind::Uniform: out.floats()[i] = uintToUniformFloat(r[0]); break;
        case ir::RandKind::Normal:
          out.floats()[i] = pairUniformToNormal(uintToUniformFloat(r[0]), uintToUniformFloat(r[1]));
          break;
      }
    }
  }
  return out;
}

}  // namespace tilescope::sim::tileops
