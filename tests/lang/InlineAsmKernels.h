#pragma once
// Kernels of tl.inline_asm_elementwise shared by the checker, simulator, codegen and device tests:
// one 32-bit operand per element (pack=1), and Triton's documented example of packed uint8 inputs
// and two results (pack=4).
namespace tilescope::test {

// shift_left's asm call starts at line 9, column 9 (the simulator's diagnostic names it).
inline const char* const kInlineAsmSource = R"(import triton
import triton.language as tl


@triton.jit
def shift_left(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise(
        "shl.b32 $0, $1, 3;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, y)


@triton.jit
def widen_and_max(a_ptr, b_ptr, c_ptr, d_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    (c, d) = tl.inline_asm_elementwise(
        asm="""
        {
            .reg .b8 tmp<4>;
            mov.b32 {tmp0, tmp1, tmp2, tmp3}, $8;
            cvt.u32.u8 $0, tmp0;
            cvt.u32.u8 $1, tmp1;
            cvt.u32.u8 $2, tmp2;
            cvt.u32.u8 $3, tmp3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """,
        constraints="=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r",
        args=[a, b],
        dtype=(tl.int32, tl.float32),
        is_pure=True,
        pack=4,
    )
    tl.store(c_ptr + offs, c)
    tl.store(d_ptr + offs, d)
)";

}  // namespace tilescope::test
