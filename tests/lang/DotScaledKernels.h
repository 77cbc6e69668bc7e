#pragma once
// A kernel of tl.dot_scaled shared by the simulator, codegen and device tests: M x K @ K x N with the
// formats, packed K widths and the use of lhs_scale as constexprs.
namespace tilescope::test {

inline const char* const kDotScaledSource = R"(import triton
import triton.language as tl

@triton.jit
def scaled_mm(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
              KA: tl.constexpr, KB: tl.constexpr, FA: tl.constexpr, FB: tl.constexpr, SCALE_A: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rs = tl.arange(0, K // 32)
    a = tl.load(a_ptr + rm[:, None] * KA + tl.arange(0, KA)[None, :])
    b = tl.load(b_ptr + tl.arange(0, KB)[:, None] * N + rn[None, :])
    sb = tl.load(sb_ptr + rn[:, None] * (K // 32) + rs[None, :])
    if SCALE_A:
        sa = tl.load(sa_ptr + rm[:, None] * (K // 32) + rs[None, :])
        c = tl.dot_scaled(a, sa, FA, b, sb, FB)
    else:
        c = tl.dot_scaled(a, None, FA, b, sb, FB)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)
)";

}  // namespace tilescope::test
