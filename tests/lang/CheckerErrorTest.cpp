// Must-fail programs: each asserts the first diagnostic's text and exact line:col (table-driven).
// Every kernel below has the prelude's signature and is checked with the same launch:
//   k(x_ptr: *fp32, y_ptr: *fp16, n: i32, BLOCK: constexpr = 64)
#include "CheckerTestUtil.h"

using namespace tilescope;
using namespace tilescope::lang;

namespace {

// Lines 1-18: imports and helpers; the kernel's body starts on line 21.
const char* const kPrelude =
    "import triton\n"                                         // 1
    "import triton.language as tl\n"                          // 2
    "\n"                                                      // 3
    "@triton.jit\n"                                           // 4
    "def get_offsets(size, n_prev_chunks):\n"                 // 5
    "    return n_prev_chunks * size + tl.arange(0, size)\n"  // 6
    "\n"                                                      // 7
    "@triton.jit\n"                                           // 8
    "def scaled(x, f: tl.constexpr):\n"                       // 9
    "    return x * f\n"                                      // 10
    "\n"                                                      // 11
    "@triton.jit\n"                                           // 12
    "def rec(x):\n"                                           // 13
    "    return rec(x)\n"                                     // 14
    "\n"                                                      // 15
    "@triton.jit\n"                                           // 16
    "def bad_helper(x):\n"                                    // 17
    "    return tl.arange(0, x)\n"                            // 18
    "\n"                                                      // 19
    "@triton.jit\n"                                           // 20
    "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n";         // 21

struct ErrorCase {
  const char* name;
  const char* body;      // the kernel's body (4-space indented), starting on line 22
  const char* expected;  // the first diagnostic's headline
};

const ErrorCase kCases[] = {
    {"unknown_tl_name",
     "    offs = tl.arnge(0, BLOCK)\n",
     "k.py:22:12: error: unknown name 'tl.arnge'; did you mean 'tl.arange'?"},
    {"unknown_local",
     "    offs = tl.arange(0, BLOCK)\n" "    x = ofs + 1\n",
     "k.py:23:9: error: unknown name 'ofs'; did you mean 'offs'?"},
    {"unknown_helper",
     "    o = get_offset(n)\n",
     "k.py:22:9: error: unknown name 'get_offset'; did you mean 'get_offsets'?"},
    {"broadcast_mismatch",
     "    a = tl.arange(0, 64) + tl.arange(0, 32)\n",
     "k.py:22:9: error: cannot broadcast shapes [64] and [32] (dimension 0: 64 vs 32)"},
    {"arange_not_pow2",
     "    a = tl.arange(0, 100)\n",
     "k.py:22:9: error: tl.arange range must be a power of 2 (got 100); round up with triton.next_power_of_2 and mask the extra lanes"},
    {"arange_runtime_bound",
     "    a = tl.arange(0, n)\n",
     "k.py:22:22: error: tl.arange bounds must be constexpr; 'n' is a runtime argument - mark it 'n: tl.constexpr' or pass a constant"},
    {"arange_empty",
     "    a = tl.arange(8, 8)\n",
     "k.py:22:9: error: tl.arange needs end > start (got tl.arange(8, 8))"},
    {"dot_k_mismatch",
     "    a = tl.zeros((16, 32), dtype=tl.float16)\n" "    b = tl.zeros((16, 16), dtype=tl.float16)\n" "    c = tl.dot(a, b)\n",
     "k.py:24:9: error: tl.dot needs 2-D operands with matching K: got [16x32] @ [16x16]"},
    {"dot_dtype_mismatch",
     "    a = tl.zeros((16, 16), dtype=tl.float16)\n" "    b = tl.zeros((16, 16), dtype=tl.float32)\n" "    c = tl.dot(a, b)\n",
     "k.py:24:9: error: tl.dot operands must have the same dtype (got fp16 and fp32); convert one with .to()"},
    {"dot_too_small",
     "    a = tl.zeros((8, 16), dtype=tl.float16)\n" "    c = tl.dot(a, tl.zeros((16, 16), dtype=tl.float16))\n",
     "k.py:23:9: error: tl.dot needs M >= 16, N >= 16 and K >= 16 (got M=8, N=16, K=16); use larger blocks"},
    // Tile sizes (issue 27): an element count that overflowed to 0 passed the checker, and the
    // simulator then failed with std::bad_alloc.
    {"zeros_tile_overflowing_int64",
     "    z = tl.zeros((2**32, 2**32), dtype=tl.float32)\n",
     "k.py:22:18: error: tl.zeros shape [4294967296x4294967296] has more than 2^63 elements; Triton allows at most 1048576 per tensor"},
    {"full_tile_too_large",
     "    z = tl.full((4096, 512), 1.0, tl.float32)\n",
     "k.py:22:17: error: tl.full shape [4096x512] has 2097152 elements; Triton allows at most 1048576 per tensor"},
    {"outer_product_tile_too_large",
     "    a = tl.arange(0, 2048)[:, None] * tl.arange(0, 1024)[None, :]\n",
     "k.py:22:9: error: broadcasting [2048x1] with [1x1024] gives a tile whose shape [2048x1024] has 2097152 elements; Triton allows at most 1048576 per tensor"},
    {"augmented_assign_tile_too_large",
     "    acc = tl.zeros((2048, 1), dtype=tl.float32)\n" "    acc += tl.zeros((1, 2048), dtype=tl.float32)\n",
     "k.py:23:5: error: broadcasting [2048x1] with [1x2048] gives a tile whose shape [2048x2048] has 4194304 elements; Triton allows at most 1048576 per tensor"},
    {"dot_result_tile_too_large",
     "    a = tl.zeros((4096, 16), dtype=tl.float16)\n" "    c = tl.dot(a, tl.zeros((16, 4096), dtype=tl.float16))\n",
     "k.py:23:9: error: 'tl.dot(a, tl.zeros((16, 4096), dtype=tl.float16))' makes a tile whose shape [4096x4096] has 16777216 elements; Triton allows at most 1048576 per tensor"},
    {"broadcast_to_tile_too_large",
     "    z = tl.broadcast_to(tl.zeros((1, 1), dtype=tl.float32), (2**32, 2**32))\n",
     "k.py:22:9: error: tl.broadcast_to shape [4294967296x4294967296] has more than 2^63 elements; Triton allows at most 1048576 per tensor"},
    {"reshape_tile_too_large",
     "    z = tl.reshape(tl.zeros((16,), dtype=tl.float32), (2**32, 2**32))\n",
     "k.py:22:9: error: tl.reshape shape [4294967296x4294967296] has more than 2^63 elements; Triton allows at most 1048576 per tensor"},
    {"block_pointer_tile_too_large",
     "    p = tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0, 0), (2**16, 2**16), (1, 0))\n",
     "k.py:22:58: error: tl.make_block_ptr block shape [65536x65536] has 4294967296 elements; Triton allows at most 1048576 per tensor"},
    {"dot_1d",
     "    a = tl.zeros((16,), dtype=tl.float16)\n" "    c = tl.dot(a, a)\n",
     "k.py:23:9: error: tl.dot needs two 2-D (or two 3-D) operands; got [16] @ [16]"},
    {"load_non_pointer",
     "    x = tl.load(n)\n",
     "k.py:22:17: error: tl.load needs a pointer or a tensor of pointers; 'n' is i32"},
    {"store_wrong_shape",
     "    offs = tl.arange(0, 64)\n" "    tl.store(x_ptr + offs, tl.zeros((64, 32), dtype=tl.float32))\n",
     "k.py:23:28: error: tl.store value has shape [64x32] but the pointer tile is [64]"},
    {"load_mask_shape",
     "    offs = tl.arange(0, 64)\n" "    x = tl.load(x_ptr + offs, mask=tl.arange(0, 32) < n)\n",
     "k.py:23:31: error: tl.load mask has shape [32] but the pointer tile is [64]"},
    {"store_mask_shape",
     "    offs = tl.arange(0, 64)\n" "    tl.store(x_ptr + offs, 1.0, mask=(offs < n)[:, None])\n",
     "k.py:23:33: error: tl.store mask has shape [64x1] but the pointer tile is [64]"},
    {"load_mask_not_bool",
     "    offs = tl.arange(0, 64)\n" "    x = tl.load(x_ptr + offs, mask=offs)\n",
     "k.py:23:31: error: tl.load mask must be a boolean tensor (got tensor<64xi32>); build it with a comparison such as offs < n"},
    {"other_without_mask",
     "    x = tl.load(x_ptr + tl.arange(0, 16), other=0.0)\n",
     "k.py:22:43: error: tl.load 'other' is only used for masked-off lanes, so it needs a mask"},
    {"helper_too_many_args",
     "    o = get_offsets(1, 2, 3)\n",
     "k.py:22:27: error: get_offsets() takes 2 positional arguments but 3 were given"},
    {"helper_missing_arg",
     "    o = get_offsets(size=16)\n",
     "k.py:22:9: error: get_offsets() missing 1 required positional argument: 'n_prev_chunks'"},
    {"helper_bad_keyword",
     "    o = get_offsets(16, n_prev=1)\n",
     "k.py:22:25: error: get_offsets() got an unexpected keyword argument 'n_prev'"},
    {"helper_constexpr_param",
     "    o = scaled(n, n)\n",
     "k.py:22:19: error: argument 'f' of helper 'scaled' is tl.constexpr, but the caller passes a scalar of type i32"},
    {"reassign_constexpr",
     "    BLOCK = 32\n",
     "k.py:22:5: error: cannot assign to constexpr 'BLOCK'; give the new value another name"},
    {"augassign_constexpr",
     "    BLOCK += 1\n",
     "k.py:22:5: error: cannot assign to constexpr 'BLOCK'; give the new value another name"},
    {"loop_carried_type_change",
     "    acc = tl.zeros((64,), dtype=tl.float32)\n" "    for i in range(0, n):\n" "        acc = acc.to(tl.float16)\n",
     "k.py:24:9: error: loop-carried variable 'acc' has type tensor<64xfp32> before the loop but tensor<64xfp16> at the end of the loop body; Triton needs the same type on every iteration - convert with .to(tl.float32)"},
    {"if_branch_types",
     "    if n > 0:\n" "        v = 1.0\n" "    else:\n" "        v = 1\n" "    tl.store(x_ptr, v)\n",
     "k.py:22:5: error: 'v' has type fp32 in the 'if' branch but i32 in the 'else' branch; make both assign the same type (e.g. convert with .to(tl.float32))"},
    {"if_one_branch_only",
     "    if n > 0:\n" "        v = 1.0\n" "    tl.store(x_ptr, v)\n",
     "k.py:24:21: error: 'v' is assigned only in the 'if' branch of the 'if' at line 22; assign it on every path (or before the 'if') to use it afterwards"},
    {"defined_in_loop",
     "    for i in range(0, n):\n" "        t = i * 2\n" "    tl.store(x_ptr, t)\n",
     "k.py:24:21: error: 't' is defined inside the loop at line 22 and is not available after it; assign it before the loop"},
    {"defined_in_the_second_of_two_loops",
     "    for i in range(0, n):\n" "        t = i * 2\n" "    for j in range(0, n):\n" "        t = j * 3\n" "    tl.store(x_ptr, t)\n",
     "k.py:26:21: error: 't' is defined inside the loop at line 24 and is not available after it; assign it before the loop"},
    {"loop_var_after_loop",
     "    for i in range(0, n):\n" "        pass\n" "    tl.store(x_ptr, i)\n",
     "k.py:24:21: error: the loop variable 'i' is not available after its loop (line 22)"},
    {"try_stmt",
     "    try:\n" "        x = 1\n" "    except Exception:\n" "        x = 2\n",
     "k.py:22:5: error: 'try' statements are not supported inside a @triton.jit function"},
    {"with_stmt",
     "    with open('f') as f:\n" "        pass\n",
     "k.py:22:5: error: 'with' statements are not supported inside a @triton.jit function"},
    {"class_stmt",
     "    class A:\n" "        pass\n",
     "k.py:22:5: error: class definitions are not supported inside a @triton.jit function"},
    {"nested_def",
     "    def f():\n" "        pass\n",
     "k.py:22:5: error: nested function definitions are not supported inside a @triton.jit function; define a @triton.jit helper at module level"},
    {"import_stmt",
     "    import math\n",
     "k.py:22:5: error: imports are not supported inside a @triton.jit function; import at module level"},
    {"break_stmt",
     "    for i in range(0, n):\n" "        break\n",
     "k.py:23:9: error: 'break' is not supported in Triton kernels; loop with 'while' on a condition instead, or mask the remaining iterations"},
    {"continue_stmt",
     "    for i in range(0, n):\n" "        continue\n",
     "k.py:23:9: error: 'continue' is not supported in Triton kernels; put the rest of the loop body under an 'if' instead"},
    {"raise_stmt",
     "    raise ValueError('x')\n",
     "k.py:22:5: error: 'raise' is not supported inside a @triton.jit function; use tl.device_assert or tl.static_assert"},
    {"static_range_runtime",
     "    for i in tl.static_range(n):\n" "        pass\n",
     "k.py:22:30: error: tl.static_range bounds must be constexpr; 'n' is a runtime argument - mark it 'n: tl.constexpr', or use range() for a runtime loop"},
    {"reduce_bad_axis",
     "    s = tl.sum(tl.arange(0, 64), axis=1)\n",
     "k.py:22:34: error: tl.sum axis 1 is out of range for a 1-D tensor (valid: -1 to 0)"},
    {"program_id_3",
     "    pid = tl.program_id(3)\n",
     "k.py:22:25: error: tl.program_id axis must be 0, 1 or 2 (got 3); Triton launches at most a 3-D grid"},
    {"program_id_runtime",
     "    pid = tl.program_id(n)\n",
     "k.py:22:25: error: tl.program_id axis must be a constexpr 0, 1 or 2, not a scalar of type i32"},
    {"unexpected_keyword",
     "    x = tl.load(x_ptr, maks=None)\n",
     "k.py:22:24: error: tl.load() got an unexpected keyword argument 'maks'; did you mean 'mask'?"},
    // Builtins bind their arguments by the same rule as helpers and host functions, in CPython's words.
    {"builtin_missing_arg",
     "    x = tl.load()\n",
     "k.py:22:9: error: tl.load() missing 1 required positional argument: 'pointer'"},
    {"builtin_too_many_args",
     "    r = tl.arange(0, 16, 2)\n",
     "k.py:22:26: error: tl.arange() takes 2 positional arguments but 3 were given"},
    {"builtin_multiple_values",
     "    pid = tl.program_id(0, axis=1)\n",
     "k.py:22:28: error: tl.program_id() got multiple values for argument 'axis'"},
    {"math_dtype",
     "    e = tl.exp(tl.zeros((16,), dtype=tl.float16))\n",
     "k.py:22:16: error: tl.exp expects fp32 or fp64 (got fp16); convert first, e.g. x.to(tl.float32)"},
    {"if_tile_condition",
     "    if tl.arange(0, 16) < n:\n" "        pass\n",
     "k.py:22:8: error: an 'if' condition must be a scalar, but this one is tensor<16xi1>; choose per element with tl.where, or reduce the condition (e.g. tl.max) first"},
    {"return_value",
     "    return n\n",
     "k.py:22:12: error: a kernel cannot return a value; write results to memory with tl.store"},
    {"pow_tensor",
     "    y = n ** 2\n",
     "k.py:22:9: error: '**' is not supported on tensors; multiply explicitly (x * x) or use tl.exp2 and tl.log2"},
    {"index_tensor",
     "    a = tl.arange(0, 16)\n" "    b = a[0]\n",
     "k.py:23:11: error: tensors can only be indexed with ':' and None (to insert a dimension), not the constexpr 0; read single elements with tl.load, or select with tl.where"},
    {"float_floordiv",
     "    f = tl.zeros((16,), dtype=tl.float32) // 2.0\n",
     "k.py:22:9: error: '//' needs integer operands (got fp32 and float 2); use '/' for floats, then tl.floor if you need to round down"},
    {"unsigned_negative",
     "    u = tl.arange(0, 16).to(tl.uint8) + -1\n",
     "k.py:22:9: error: cannot combine an unsigned u8 tensor with the negative scalar -1; cast one of them explicitly"},
    {"assume_always_false",
     "    tl.assume(BLOCK < 0)\n",
     "k.py:22:15: error: tl.assume of a condition that is always false"},
    {"static_assert_fails",
     "    tl.static_assert(BLOCK < 32, 'BLOCK too large')\n",
     "k.py:22:5: error: static_assert failed: BLOCK too large"},
    {"chained_compare",
     "    c = 0 < n < 10\n",
     "k.py:22:9: error: chained comparisons such as a < b < c are not supported on tensors; write (a < b) & (b < c)"},
    {"pointer_plus_pointer",
     "    p = x_ptr + x_ptr\n",
     "k.py:22:9: error: cannot add two pointers (ptr<fp32> + ptr<fp32>); add an integer offset to one of them"},
    {"pointer_minus_pointer",
     "    p = x_ptr - x_ptr\n",
     "k.py:22:9: error: cannot subtract two pointers (ptr<fp32> - ptr<fp32>); Triton has no pointer difference - subtract the integer offsets instead"},
    {"bitcast_width",
     "    b = tl.zeros((16,), dtype=tl.float32).to(tl.float16, bitcast=True)\n",
     "k.py:22:9: error: cannot bitcast fp32 (32 bits) to fp16 (16 bits); a bitcast needs types of the same width"},
    {"while_true",
     "    while True:\n" "        pass\n",
     "k.py:22:11: error: this while loop never ends: its condition is the constexpr True and Triton has no 'break'"},
    {"unpack_tensor",
     "    a, b = tl.arange(0, 16)\n",
     "k.py:22:5: error: cannot unpack a tensor of type tensor<16xi32> into 2 names; tensors cannot be unpacked, use tl.split or index with tl.where"},
    {"element_ty_scalar",
     "    t = n.dtype.element_ty\n",
     "k.py:22:9: error: '.element_ty' is only defined on pointer dtypes, and this dtype is i32; it reads the element type of a pointer argument, e.g. Out.dtype.element_ty"},
    {"unsupported_libdevice",
     "    y = tl.extra.cuda.libdevice.erfinv(tl.load(x_ptr))\n",
     "k.py:22:9: error: libdevice.erfinv is not supported by tilescope yet; the libdevice functions it has are exp, exp2, log, "
     "log2, sqrt, sqrt_rn, rsqrt, sin, cos, tanh, floor, ceil, erf, fabs, abs, fma, fmin, fmax, div_rn, fast_dividef, "
     "umulhi, add_rn, sub_rn, mul_rn, fma_rn, fast_expf, fast_logf, fast_log2f, fast_sinf, fast_cosf, fast_tanhf, "
     "fast_tanf, fast_exp10f, fast_log10f, fast_powf, isnan, isinf, signbit, finitef, isfinited, rcp_rn, llrint, llround, "
     "popc, clz, ffs, brev, saturatef, hadd, rhadd, mul24, mulhi, ldexp, scalbn, "
     "double2float_rn, double2hiint, double2int_rn, double2ll_rn, double2loint, double2uint_rn, double2ull_rn, double_as_longlong, float2int_rn, float2ll_rn, "
     "float2uint_rn, float2ull_rn, float_as_int, float_as_uint, hiloint2double, int2double_rn, int2float_rn, int_as_float, ll2double_rn, ll2float_rn, "
     "longlong_as_double, uint2double_rn, uint2float_rn, uint_as_float, ull2double_rn, ull2float_rn, ilogb, norm3d, norm4d, rnorm3d, rnorm4d, acos, acosh, asin, asinh, atan, atanh, cbrt, cosh, sinh, tan, erfc, exp10, expm1, log10, log1p, trunc, "
     "round, rint, nearbyint, lgamma, tgamma, logb, rcbrt, sinpi, cospi, j0, j1, y0, y1, normcdf, atan2, pow, hypot, fmod, "
     "copysign, fdim, remainder, nextafter, rhypot (or write it with tl.* operations)"},
    {"split_needs_pairs",
     "    a, b = tl.split(tl.arange(0, BLOCK))\n",
     "k.py:22:12: error: tl.split needs a tensor whose last dimension is 2, got tensor<64xi32>; reshape it first, e.g. x.reshape(M, N // 2, 2)"},
    {"join_one_dtype",
     "    j = tl.join(tl.load(x_ptr + tl.arange(0, 16)), tl.arange(0, 16))\n",
     "k.py:22:9: error: tl.join needs two tensors of one dtype, got fp32 and i32; cast one with .to()"},
    {"tensor_attribute_typo",
     "    s = tl.arange(0, 16).shap\n",
     "k.py:22:26: error: tensor has no attribute 'shap'; did you mean 'shape'?"},
    {"device_print_prefix",
     "    tl.device_print(n)\n",
     "k.py:22:21: error: tl.device_print prefix must be a constexpr string, not a scalar of type i32"},
    {"range_outside_for",
     "    r = range(10)\n",
     "k.py:22:9: error: range() can only be used as the iterable of a for loop"},
    {"recursion",
     "    r = rec(n)\n",
     "k.py:14:12: error: 'rec' calls itself; recursion is not supported in Triton kernels"},
    {"loop_over_list",
     "    for i in [1, 2]:\n" "        pass\n",
     "k.py:22:14: error: kernels can only loop over range(...), tl.range(...) or tl.static_range(...)"},
    {"trans_rank",
     "    t = tl.trans(tl.arange(0, 16))\n",
     "k.py:22:9: error: tl.trans without dims needs a 2-D tensor, got tensor<16xi32>; pass the dims to permute"},
    {"reshape_numel",
     "    r = tl.reshape(tl.arange(0, 16), (4, 8))\n",
     "k.py:22:9: error: tl.reshape cannot change the number of elements: [16] has 16, [4x8] has 32"},
    {"zeros_not_pow2",
     "    z = tl.zeros((48,), dtype=tl.float32)\n",
     "k.py:22:18: error: tl.zeros shape [48] has a dimension that is not a power of 2 (48); round it up with triton.next_power_of_2 and mask the extra lanes"},
    {"load_block_pointer_option",
     "    x = tl.load(x_ptr, boundary_check=(0,))\n",
     "k.py:22:24: error: tl.load boundary_check applies to block pointers (tl.make_block_ptr); for a tensor of pointers pass mask= instead"},
    {"block_ptr_block_shape_power_of_two",
     "    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (48,), (0,))\n",
     "k.py:22:52: error: tl.make_block_ptr block_shape [48] must have power-of-two dimensions, like every Triton block"},
    {"block_ptr_entries_per_dim",
     "    p = tl.make_block_ptr(x_ptr, (n, n), (1,), (0, 0), (16, 16), (1, 0))\n",
     "k.py:22:42: error: tl.make_block_ptr strides has 1 entry but block_shape has 2 dimensions; give one per dimension"},
    {"block_ptr_order_permutation",
     "    p = tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0, 0), (16, 16), (1, 1))\n",
     "k.py:22:68: error: tl.make_block_ptr order must list each dimension 0..1 once, e.g. (1, 0) for a row-major block"},
    {"block_ptr_float_offset",
     "    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0.5,), (16,), (0,))\n",
     "k.py:22:46: error: tl.make_block_ptr offsets entries must be integers (constexprs or integer scalars), not the constexpr 0.5"},
    {"advance_needs_block_ptr",
     "    p = tl.advance(x_ptr + tl.arange(0, 16), (16,))\n",
     "k.py:22:20: error: tl.advance moves a block pointer made by tl.make_block_ptr, not a tensor of type tensor<16x!ptr<fp32>>; to move a tensor of pointers, add to it: ptrs += step"},
    {"block_ptr_load_mask",
     "    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))\n"
     "    x = tl.load(p, mask=tl.arange(0, 16) < n)\n",
     "k.py:23:20: error: tl.load through a block pointer takes boundary_check (and, for loads, padding_option), not mask; the block pointer's shape bounds the access"},
    {"block_ptr_boundary_dim",
     "    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))\n"
     "    x = tl.load(p, boundary_check=(1,))\n",
     "k.py:23:20: error: tl.load boundary_check names dimension 1 but the block has dimensions 0..0 only"},
    {"block_ptr_padding",
     "    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))\n"
     "    x = tl.load(p, boundary_check=(0,), padding_option='inf')\n",
     "k.py:23:41: error: tl.load padding_option must be '', 'zero' or 'nan', not 'inf'"},
    {"block_ptr_loop_new_base",
     "    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))\n"
     "    for i in range(4):\n"
     "        p = tl.make_block_ptr(x_ptr + 1, (n,), (1,), (0,), (16,), (0,))\n",
     "k.py:24:9: error: block pointer 'p' gets a new base, shape, strides or block shape inside the loop; only its offsets can change from one iteration to the next (tl.advance) - make the new block pointer under another name"},
    {"block_ptr_loop_becomes_tensor",
     "    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))\n"
     "    for i in range(4):\n"
     "        p = x_ptr + tl.arange(0, 16)\n",
     "k.py:24:9: error: loop-carried block pointer 'p' becomes a tensor of type tensor<16x!ptr<fp32>> inside the loop; keep it a block pointer and move it with tl.advance"},
    {"sort_last_dim_only",
     "    s = tl.sort(tl.arange(0, 16)[:, None] + tl.arange(0, 4)[None, :], dim=0)\n",
     "k.py:22:71: error: tl.sort works along the last dimension only (as Triton); permute the tensor first"},
    {"topk_k_power_of_two",
     "    t = tl.topk(tl.arange(0, 16), 3)\n",
     "k.py:22:35: error: tl.topk k must be a power of two from 1 to the last dimension's 16, got 3"},
    {"topk_last_dim_only",
     "    t = tl.topk(tl.arange(0, 16)[:, None] + tl.arange(0, 4)[None, :], 2, dim=0)\n",
     "k.py:22:74: error: tl.topk works along the last dimension only (as Triton); permute the tensor first"},
    {"cat_shapes",
     "    c = tl.cat(tl.arange(0, 16), tl.arange(0, 32), can_reorder=True)\n",
     "k.py:22:9: error: tl.cat needs two tensors of one shape, got tensor<16xi32> and tensor<32xi32>"},
    {"reduce_combine_arity",
     "    s = tl.reduce(tl.arange(0, 16), 0, rec)\n",
     "k.py:22:40: error: tl.reduce calls its combine function with 2 values (the 1 accumulated, then the 1 next), but 'rec' takes 1; give it one parameter per value"},
    {"scan_tuple_combine_arity",
     "    s = tl.associative_scan((tl.arange(0, 16), tl.arange(0, 16)), 0, get_offsets)\n",
     "k.py:22:70: error: tl.associative_scan calls its combine function with 4 values (the 2 accumulated, then the 2 next), but 'get_offsets' takes 2; give it one parameter per value"},
    {"inline_asm_constraint_count",
     "    y = tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r\", [tl.arange(0, 16)], dtype=tl.int32, is_pure=True, pack=1)\n",
     "k.py:22:54: error: tl.inline_asm_elementwise constraints name 1 operands, but with pack=1 the asm has 2 (1 result registers, then the arguments'; elements under 4 bytes share a 32-bit register)"},
    {"inline_asm_pack_divides",
     "    y = tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r,r\", [tl.arange(0, 2)], dtype=tl.int32, is_pure=True, pack=4)\n",
     "k.py:22:111: error: tl.inline_asm_elementwise pack 4 does not divide the tile's 2 elements"},
    {"dot_scaled_format",
     "    c = tl.dot_scaled(tl.arange(0, 16), None, \"e3m3\", tl.arange(0, 16), None, \"e4m3\")\n",
     "k.py:22:47: error: tl.dot_scaled lhs_format must be 'e2m1', 'e4m3', 'e5m2', 'bf16' or 'fp16', not 'e3m3'"},
    {"dot_scaled_scale_shape",
     "    a = tl.zeros((16, 64), dtype=tl.uint8)\n    s = tl.zeros((16, 4), dtype=tl.uint8)\n    c = tl.dot_scaled(a, s, \"e4m3\", a.T, s, \"e4m3\")\n",
     "k.py:24:26: error: tl.dot_scaled lhs_scale must have shape [16, 2] (one e8m0 scale per 32 elements along K = 64), got tensor<16x4xu8>"},
    {"reduce_combine_not_jit",
     "    s = tl.reduce(tl.arange(0, 16), 0, tl.sum)\n",
     "k.py:22:40: error: tl.reduce combine_fn must be a @triton.jit function of two values, not the builtin 'tl.sum'"},
    {"gather_shapes",
     "    g = tl.gather(tl.arange(0, 16)[:, None] + tl.arange(0, 4)[None, :], tl.arange(0, 8)[:, None] + tl.arange(0, 4)[None, :], 1)\n",
     "k.py:22:9: error: tl.gather needs src and index to match in every dimension but axis 1, got tensor<16x4xi32> and tensor<8x4xi32>"},
    {"histogram_floats",
     "    h = tl.histogram(tl.load(x_ptr + tl.arange(0, 16)), 8)\n",
     "k.py:22:22: error: tl.histogram counts integers, not tensor<16xfp32>; convert with .to(tl.int32)"},
    {"atomic_fp16_max",
     "    a = tl.atomic_max(y_ptr, 1.0)\n",
     "k.py:22:9: error: tl.atomic_max does not support fp16 (only atomic_add does)"},
    {"clamp_int",
     "    c = tl.clamp(n, 0, 10)\n",
     "k.py:22:9: error: tl.clamp supports floating-point values only (got i32); use tl.minimum(tl.maximum(x, lo), hi) for integers"},
    {"mixed_signed_div",
     "    d = tl.arange(0, 16) / tl.arange(0, 16).to(tl.uint32)\n",
     "k.py:22:9: error: cannot use '/', '//' or '%' on i32 and u32 because they have different signedness; cast them to the same signedness"},
    {"where_tile_cond_shapes",
     "    w = tl.where(tl.arange(0, 16) < n, tl.zeros((32,), dtype=tl.float32), 0.0)\n",
     "k.py:22:9: error: cannot broadcast shapes [16] and [32] (dimension 0: 16 vs 32)"},
    {"lambda_expr",
     "    f = lambda a: a\n",
     "k.py:22:9: error: lambda expressions are not supported inside a @triton.jit function"},
};

Specialization launch() {
  Specialization s;
  s.args = {ArgSpec::pointer(ir::DType::FP32), ArgSpec::pointer(ir::DType::FP16), ArgSpec::scalar(ir::DType::I32),
            ArgSpec::constexprValue(ConstValue::integer(64))};
  return s;
}

class CheckerError : public ::testing::TestWithParam<ErrorCase> {};

}  // namespace

TEST_P(CheckerError, ReportsTheMessageAtTheNode) {
  const ErrorCase& c = GetParam();
  auto program = test::programFrom(std::string(kPrelude) + c.body);
  CheckResult r = checkKernel(*program, "k", launch());
  EXPECT_FALSE(r.ok());
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.items()[0].headline(), c.expected) << r.diagnostics.render();
}

INSTANTIATE_TEST_SUITE_P(Cases, CheckerError, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });
