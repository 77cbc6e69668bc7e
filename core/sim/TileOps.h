#pragma once
// Whole-tile operations of the simulator: shape ops, casts and elementwise arithmetic. Each is a
// loop (or a few) over contiguous arrays; the IR node is interpreted once per tile, never per
// element. Semantics are those documented in core/ir/Expr.h and core/ir/Ops.h; rounding and wrap
// rules come from Numerics.h. Operands are assumed well-typed (the IR verifier's invariants);
// a violated invariant is an InternalError.
#include <cstdint>
#include <span>
#include <vector>

#include "core/ir/Ops.h"
#include "core/ir/Type.h"
#include "core/sim/Tile.h"

namespace tilescope::sim::tileops {

// Conditions an op met that the simulator reports as warnings (the op itself still completes).
struct OpFlags {
  bool intDivByZero = false;
};

Tile arange(int64_t start, int64_t end);  // i32
Tile splat(const Tile& scalar, const ir::Shape& shape);
// Tile -> same-rank shape; size-1 dims repeat. Also accepts a scalar (then like splat).
Tile broadcastTo(const Tile& t, const ir::Shape& shape);
Tile reshape(const Tile& t, const ir::Shape& shape);
Tile permute(const Tile& t, const std::vector<int>& order);

Tile cast(const Tile& t, ir::DType dtype, bool pointer, bool bitcast, ir::RoundingMode rounding);
Tile unary(ir::UnaryOp op, const Tile& t);
// `resultType` is the IR node's type (i1 for comparisons, the pointer type for pointer arithmetic).
Tile binary(ir::BinaryOp op, const Tile& a, const Tile& b, bool propagateNan, const ir::Type& resultType,
            OpFlags* flags = nullptr);
Tile select(const Tile& cond, const Tile& a, const Tile& b);
Tile math(ir::MathFn fn, std::span<const Tile* const> args);

// Rounds every element of a float tile's storage to `t` in place.
void roundInPlace(double* values, int64_t n, ir::DType t);

}  // namespace tilescope::sim::tileops
