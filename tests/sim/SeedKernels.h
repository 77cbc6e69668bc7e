#pragma once
// The seed tutorials' kernels (/work/shared/seeds/*.md) as the checker lowers them, built by hand
// with KernelBuilder so the simulator can be tested before (and independently of) the checker.
// The Python text is the seeds' code; every IR node points at the snippet it comes from.
// core/bench/bench_simulator.cpp uses these too.
#include <cmath>
#include <string>

#include "tests/sim/KernelBuilder.h"

namespace tilescope::sim::testing {

// triton-from-zero.md 4.1. withMask = false drops the masks (the classic out-of-bounds bug).
inline std::shared_ptr<const Kernel> addKernel(int64_t block, bool withMask = true, DType dtype = DType::FP32) {
  KernelBuilder b("add_kernel", R"(@triton.jit
def add_kernel(
    x_ptr,
    y_ptr,
    output_ptr,
    n_elements,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)
)", "add_kernel.py");
  Expr x = b.at("x_ptr").ptrParam("x_ptr", dtype, true);
  Expr y = b.at("y_ptr").ptrParam("y_ptr", dtype, true);
  Expr out = b.at("output_ptr").ptrParam("output_ptr", dtype, true);
  Expr n = b.at("n_elements").scalarParam("n_elements");
  b.constexprParam("BLOCK_SIZE", Constant(block));
  Expr pid = b.letAt("pid = tl.program_id(axis=0)", "pid", b.at("tl.program_id(axis=0)").pid(0));
  Expr start = b.letAt("block_start = pid * BLOCK_SIZE", "block_start", b.at("pid * BLOCK_SIZE").mul(pid, block));
  Expr offs = b.letAt("offsets = block_start", "offsets", b.at("block_start + tl.arange(0, BLOCK_SIZE)").add(start, b.at("tl.arange(0, BLOCK_SIZE)").arange(0, block)));
  Expr mask = withMask ? b.letAt("mask = offsets < n_elements", "mask", b.at("offsets < n_elements").lt(offs, n)) : Expr();
  Expr xv = b.letAt("x = tl.load", "x", b.loadAt("tl.load(x_ptr + offsets, mask=mask)", b.at("x_ptr + offsets").add(x, offs), mask));
  Expr yv = b.letAt("y = tl.load", "y", b.loadAt("tl.load(y_ptr + offsets, mask=mask)", b.at("y_ptr + offsets").add(y, offs), mask));
  Expr o = b.letAt("output = x + y", "output", b.at("x + y").add(xv, yv));
  b.storeAt("tl.store(output_ptr + offsets, output, mask=mask)", b.at("output_ptr + offsets").add(out, offs), o, mask);
  return b.build();
}

// triton-from-zero.md 4.2.
inline std::shared_ptr<const Kernel> softmaxKernel(int64_t block) {
  KernelBuilder b("softmax_kernel", R"(@triton.jit
def softmax_kernel(
    input_ptr,
    output_ptr,
    input_row_stride,
    output_row_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_max = tl.max(row, axis=0)
    row_minus_max = row - row_max
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=mask)
)", "softmax.py");
  Expr in = b.at("input_ptr").ptrParam("input_ptr", DType::FP32);
  Expr out = b.at("output_ptr").ptrParam("output_ptr", DType::FP32);
  Expr inStride = b.at("input_row_stride").scalarParam("input_row_stride");
  Expr outStride = b.at("output_row_stride").scalarParam("output_row_stride");
  Expr nCols = b.at("n_cols").scalarParam("n_cols");
  b.constexprParam("BLOCK_SIZE", Constant(block));
  Expr row = b.letAt("row_idx = tl.program_id(0)", "row_idx", b.pid(0));
  Expr rowStart = b.letAt("row_start_ptr = ", "row_start_ptr", b.at("input_ptr + row_idx * input_row_stride").add(in, b.mul(row, inStride)));
  Expr cols = b.letAt("col_offsets = tl.arange(0, BLOCK_SIZE)", "col_offsets", b.arange(0, block));
  Expr ptrs = b.letAt("input_ptrs = row_start_ptr + col_offsets", "input_ptrs", b.add(rowStart, cols));
  Expr mask = b.letAt("mask = col_offsets < n_cols", "mask", b.lt(cols, nCols));
  Expr r = b.letAt("row = tl.load", "row", b.loadAt("tl.load(input_ptrs, mask=mask, other=-float('inf'))", ptrs, mask, b.f32(-INFINITY)));
  Expr rowMax = b.letAt("row_max = tl.max(row, axis=0)", "row_max", b.at("tl.max(row, axis=0)").reduce(ReduceOp::Max, r, 0));
  Expr minus = b.letAt("row_minus_max = row - row_max", "row_minus_max", b.at("row - row_max").sub(r, rowMax));
  Expr num = b.letAt("numerator = tl.exp(row_minus_max)", "numerator", b.at("tl.exp(row_minus_max)").math(MathFn::Exp, minus));
  Expr den = b.letAt("denominator = tl.sum", "denominator", b.at("tl.sum(numerator, axis=0)").reduce(ReduceOp::Sum, num, 0));
  Expr sm = b.letAt("softmax_output = numerator / denominator", "softmax_output", b.at("numerator / denominator").div(num, den));
  Expr outStart = b.letAt("output_row_start_ptr = ", "output_row_start_ptr", b.at("output_ptr + row_idx * output_row_stride").add(out, b.mul(row, outStride)));
  Expr outPtrs = b.letAt("output_ptrs = output_row_start_ptr + col_offsets", "output_ptrs", b.add(outStart, cols));
  b.storeAt("tl.store(output_ptrs, softmax_output, mask=mask)", outPtrs, sm, mask);
  return b.build();
}

// triton-from-zero.md 4.3 (the kernel stores accumulator.to(tl.float16); `outDType` lets the
// benchmark store fp32 instead). tl.dot's default input precision for fp32 operands is tf32.
inline std::shared_ptr<const Kernel> matmulKernel(int64_t bm, int64_t bn, int64_t bk, DType inDType, DType outDType,
                                                  InputPrecision precision = InputPrecision::TF32) {
  KernelBuilder b("matmul_kernel", R"(@triton.jit
def matmul_kernel(
    a_ptr, b_ptr, c_ptr,
    M, N, K,
    stride_am, stride_ak,
    stride_bk, stride_bn,
    stride_cm, stride_cn,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        a_mask = (offs_am[:, None] < M) & ((k + offs_k[None, :]) < K)
        b_mask = ((k + offs_k[:, None]) < K) & (offs_bn[None, :] < N)
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b = tl.load(b_ptrs, mask=b_mask, other=0.0)
        accumulator += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)
)", "matmul.py");
  Expr a = b.at("a_ptr").ptrParam("a_ptr", inDType, true);
  Expr bp = b.at("b_ptr").ptrParam("b_ptr", inDType, true);
  Expr c = b.at("c_ptr").ptrParam("c_ptr", outDType, true);
  Expr M = b.at("M, N, K").scalarParam("M");
  Expr N = b.scalarParam("N");
  Expr K = b.scalarParam("K");
  Expr sam = b.at("stride_am").scalarParam("stride_am");
  Expr sak = b.at("stride_ak").scalarParam("stride_ak");
  Expr sbk = b.at("stride_bk").scalarParam("stride_bk");
  Expr sbn = b.at("stride_bn").scalarParam("stride_bn");
  Expr scm = b.at("stride_cm").scalarParam("stride_cm");
  Expr scn = b.at("stride_cn").scalarParam("stride_cn");
  b.constexprParam("BLOCK_SIZE_M", Constant(bm));
  b.constexprParam("BLOCK_SIZE_N", Constant(bn));
  b.constexprParam("BLOCK_SIZE_K", Constant(bk));
  Expr pm = b.letAt("pid_m = tl.program_id(axis=0)", "pid_m", b.pid(0));
  Expr pn = b.letAt("pid_n = tl.program_id(axis=1)", "pid_n", b.pid(1));
  Expr am = b.letAt("offs_am = ", "offs_am", b.add(b.mul(pm, bm), b.arange(0, bm)));
  Expr bnn = b.letAt("offs_bn = ", "offs_bn", b.add(b.mul(pn, bn), b.arange(0, bn)));
  Expr ok = b.letAt("offs_k = tl.arange(0, BLOCK_SIZE_K)", "offs_k", b.arange(0, bk));
  VarPtr aPtrs = b.varAt("a_ptrs = a_ptr", "a_ptrs", b.add(a, b.add(b.mul(b.expand(am, 1), sam), b.mul(b.expand(ok, 0), sak))));
  VarPtr bPtrs = b.varAt("b_ptrs = b_ptr", "b_ptrs", b.add(bp, b.add(b.mul(b.expand(ok, 1), sbk), b.mul(b.expand(bnn, 0), sbn))));
  VarPtr acc = b.varAt("accumulator = tl.zeros", "accumulator", b.zeros({bm, bn}, DType::FP32));
  b.at("for k in range(0, K, BLOCK_SIZE_K):").forRange("k", b.i32(0), K, b.i32(bk), [&](Expr k) {
    Expr aMask = b.letAt("a_mask = ", "a_mask", b.and_(b.lt(b.expand(am, 1), M), b.lt(b.add(k, b.expand(ok, 0)), K)));
    Expr bMask = b.letAt("b_mask = ", "b_mask", b.and_(b.lt(b.add(k, b.expand(ok, 1)), K), b.lt(b.expand(bnn, 0), N)));
    Expr av = b.letAt("a = tl.load(a_ptrs, mask=a_mask, other=0.0)", "a", b.loadAt("tl.load(a_ptrs, mask=a_mask, other=0.0)", b.ref(aPtrs), aMask, b.lit(inDType, 0)));
    Expr bv = b.letAt("b = tl.load(b_ptrs, mask=b_mask, other=0.0)", "b", b.loadAt("tl.load(b_ptrs, mask=b_mask, other=0.0)", b.ref(bPtrs), bMask, b.lit(inDType, 0)));
    b.assignAt("accumulator += tl.dot(a, b)", acc, b.at("tl.dot(a, b)").dot(av, bv, b.ref(acc), DType::FP32, precision));
    b.assignAt("a_ptrs += BLOCK_SIZE_K * stride_ak", aPtrs, b.add(b.ref(aPtrs), b.mul(sak, bk)));
    b.assignAt("b_ptrs += BLOCK_SIZE_K * stride_bk", bPtrs, b.add(b.ref(bPtrs), b.mul(sbk, bk)));
  });
  Expr cv = b.letAt("c = accumulator.to(tl.float16)", "c", b.at("accumulator.to(tl.float16)").cast(b.ref(acc), outDType));
  Expr cm = b.letAt("offs_cm = ", "offs_cm", b.add(b.mul(pm, bm), b.arange(0, bm)));
  Expr cn = b.letAt("offs_cn = ", "offs_cn", b.add(b.mul(pn, bn), b.arange(0, bn)));
  Expr cPtrs = b.letAt("c_ptrs = ", "c_ptrs", b.add(b.add(c, b.mul(b.expand(cm, 1), scm)), b.mul(b.expand(cn, 0), scn)));
  Expr cMask = b.letAt("c_mask = ", "c_mask", b.and_(b.lt(b.expand(cm, 1), M), b.lt(b.expand(cn, 0), N)));
  b.storeAt("tl.store(c_ptrs, c, mask=c_mask)", cPtrs, cv, cMask);
  return b.build();
}

// triton-practitioners-guide.md, Example 2 (uint8 image in, uint8 grey image out).
inline std::shared_ptr<const Kernel> rgb2greyKernel(int64_t bs0, int64_t bs1) {
  KernelBuilder b("rgb2grey_k", R"(@triton.jit
def rgb2grey_k(x_ptr, out_ptr, h, w, bs0: tl.constexpr, bs1: tl.constexpr):
    pid_0 = tl.program_id(0)
    pid_1 = tl.program_id(1)
    
    offs_0 = pid_0 * bs0 + tl.arange(0,bs0)  # 1d vector
    offs_1 = pid_1 * bs1 + tl.arange(0,bs1)  # 1d vector
    offs = w * offs_0[:,None] + offs_1[None, :]  # 2d matrix! - we multiply first offset by width, see image above

    mask_0 = offs_0 < h  # 1d vector
    mask_1 = offs_1 < w  # 1d vector
    mask = mask_0[:,None] & mask_1[None,:]  # 2d matrix! - data musn't go out of bounds along either axis, therefore `logical and` of the individual masks
    
    r = tl.load(x_ptr + 0*h*w+offs, mask=mask)
    g = tl.load(x_ptr + 1*h*w+offs, mask=mask)
    b = tl.load(x_ptr + 2*h*w+offs, mask=mask)

    out = 0.2989*r + 0.5870*g + 0.1140*b  # don't worry why it's these 3 numbers we're multiplying with

    tl.store(out_ptr + offs, out, mask=mask)
)", "rgb2grey.py");
  Expr x = b.at("x_ptr").ptrParam("x_ptr", DType::U8);
  Expr out = b.at("out_ptr").ptrParam("out_ptr", DType::U8);
  Expr h = b.at("h, w").scalarParam("h");
  Expr w = b.scalarParam("w");
  b.constexprParam("bs0", Constant(bs0));
  b.constexprParam("bs1", Constant(bs1));
  Expr p0 = b.letAt("pid_0 = tl.program_id(0)", "pid_0", b.pid(0));
  Expr p1 = b.letAt("pid_1 = tl.program_id(1)", "pid_1", b.pid(1));
  Expr o0 = b.letAt("offs_0 = ", "offs_0", b.add(b.mul(p0, bs0), b.arange(0, bs0)));
  Expr o1 = b.letAt("offs_1 = ", "offs_1", b.add(b.mul(p1, bs1), b.arange(0, bs1)));
  Expr offs = b.letAt("offs = w", "offs", b.add(b.mul(w, b.expand(o0, 1)), b.expand(o1, 0)));
  Expr m0 = b.letAt("mask_0 = offs_0 < h", "mask_0", b.lt(o0, h));
  Expr m1 = b.letAt("mask_1 = offs_1 < w", "mask_1", b.lt(o1, w));
  Expr mask = b.letAt("mask = mask_0", "mask", b.and_(b.expand(m0, 1), b.expand(m1, 0)));
  auto channel = [&](int c, const char* stmt, const char* load, const char* name) {
    Expr hw = b.mul(b.mul(b.i32(c), h), w);
    return b.letAt(stmt, name, b.loadAt(load, b.add(b.add(x, hw), offs), mask));
  };
  Expr r = channel(0, "r = tl.load", "tl.load(x_ptr + 0*h*w+offs, mask=mask)", "r");
  Expr g = channel(1, "g = tl.load", "tl.load(x_ptr + 1*h*w+offs, mask=mask)", "g");
  Expr bl = channel(2, "b = tl.load", "tl.load(x_ptr + 2*h*w+offs, mask=mask)", "b");
  b.at("0.2989*r + 0.5870*g + 0.1140*b");
  Expr sum = b.add(b.add(b.mul(b.f32(0.2989), b.cast(r, DType::FP32)), b.mul(b.f32(0.5870), b.cast(g, DType::FP32))),
                   b.mul(b.f32(0.1140), b.cast(bl, DType::FP32)));
  Expr o = b.letAt("out = 0.2989", "out", sum);
  b.storeAt("tl.store(out_ptr + offs, out, mask=mask)", b.add(out, offs), o, mask);
  return b.build();
}

// triton-practitioners-guide.md, Example 1: the three versions of copy_k (1 and 2 are the buggy
// ones), each with its print_if(f'...', '') host call.
inline std::shared_ptr<const Kernel> copyKernel(int version, int64_t bs, DType dtype = DType::I64) {
  const std::string offsLine = version == 1   ? "    offs = tl.arange(0, bs)\n"
                               : version == 2 ? "    offs = pid * n + tl.arange(0, bs)\n"
                                              : "    offs = pid * bs + tl.arange(0, bs)\n";
  KernelBuilder b("copy_k",
                  "@triton.jit\ndef copy_k(x_ptr, z_ptr, n, bs: tl.constexpr):\n    pid = tl.program_id(0)\n" + offsLine +
                      "    mask = offs < n\n"
                      "    x = tl.load(x_ptr + offs, mask)\n"
                      "    tl.store(z_ptr + offs, x, mask)\n"
                      "    print_if(f'pid = {pid} | offs = {offs}, mask = {mask}, x = {x}', '')\n",
                  "copy_k.py");
  Expr x = b.at("x_ptr").ptrParam("x_ptr", dtype);
  Expr z = b.at("z_ptr").ptrParam("z_ptr", dtype);
  Expr n = b.at("n, bs").scalarParam("n");
  b.constexprParam("bs", Constant(bs));
  Expr pid = b.letAt("pid = tl.program_id(0)", "pid", b.pid(0));
  Expr ar = b.at("tl.arange(0, bs)").arange(0, bs);
  Expr offsValue = version == 1 ? ar : version == 2 ? b.at("pid * n + tl.arange(0, bs)").add(b.mul(pid, n), ar)
                                                    : b.at("pid * bs + tl.arange(0, bs)").add(b.mul(pid, bs), ar);
  Expr offs = b.letAt("offs = ", "offs", offsValue);
  Expr mask = b.letAt("mask = offs < n", "mask", b.lt(offs, n));
  Expr xv = b.letAt("x = tl.load", "x", b.loadAt("tl.load(x_ptr + offs, mask)", b.add(x, offs), mask));
  b.storeAt("tl.store(z_ptr + offs, x, mask)", b.add(z, offs), xv, mask);
  b.at("print_if(f'pid = {pid} | offs = {offs}, mask = {mask}, x = {x}', '')");
  std::vector<FormatPart> parts{{"pid = ", pid, 0, ""}, {" | offs = ", offs, 0, ""}, {", mask = ", mask, 0, ""}, {", x = ", xv, 0, ""}};
  b.hostCall("print_if", {HostArg::ofFormat(std::move(parts)), HostArg::ofConstant(Constant(""))});
  return b.build();
}

// triton-practitioners-guide.md, Example 4: swizzle_k, with tl.swizzle2d lowered to arithmetic as
// the checker does (python/triton/language/standard.py) and the jit helpers inlined.
inline std::shared_ptr<const Kernel> swizzleKernel(int64_t groupSize) {
  KernelBuilder b("swizzle_k", R"(@triton.jit
def swizzle_k(x_ptr, z_ptr, group_sz: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    num_pid_m, num_pid_n = tl.num_programs(0), tl.num_programs(1)

    pid_m_, pid_n_ = tl.swizzle2d(pid_m, pid_n, num_pid_m, num_pid_n, group_sz)  # Weirdness: tl.swizzle2d doesn't work when simulating on CPU
    
    offs_m = get_1d_offset(1, n_prev_chunks=pid_m)
    offs_n = get_1d_offset(1, n_prev_chunks=pid_n)
    
    offs = get_2d_offset(offs_m, offs_n, stride_0=num_pid_n)
    mask = get_2d_mask(offs_m, offs_n, max_0=num_pid_m, max_1=num_pid_n )

    offs_sw_m = get_1d_offset(1, n_prev_chunks=pid_m_)
    offs_sw_n = get_1d_offset(1, n_prev_chunks=pid_n_)
    
    offs_sw = get_2d_offset(offs_sw_m, offs_sw_n, stride_0=num_pid_n)
    mask_sw = get_2d_mask(offs_sw_m, offs_sw_n, max_0=num_pid_m, max_1=num_pid_n)
    
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(z_ptr + offs_sw, x, mask=mask_sw)
)", "swizzle.py");
  Expr x = b.at("x_ptr").ptrParam("x_ptr", DType::I64);
  Expr z = b.at("z_ptr").ptrParam("z_ptr", DType::I64);
  b.constexprParam("group_sz", Constant(groupSize));
  Expr pm = b.letAt("pid_m, pid_n = ", "pid_m", b.pid(0));
  Expr pn = b.let("pid_n", b.pid(1));
  Expr npm = b.letAt("num_pid_m, num_pid_n = ", "num_pid_m", b.nprog(0));
  Expr npn = b.let("num_pid_n", b.nprog(1));
  // swizzle2d(i, j, size_i, size_j, size_g)
  b.at("tl.swizzle2d(pid_m, pid_n, num_pid_m, num_pid_n, group_sz)");
  Expr ij = b.let("ij", b.add(b.mul(pm, npn), pn));
  Expr sizeGj = b.let("size_gj", b.mul(npn, groupSize));
  Expr groupId = b.let("group_id", b.div(ij, sizeGj));
  Expr offI = b.let("off_i", b.mul(groupId, groupSize));
  Expr sizeG = b.let("size_g", b.minimum(b.sub(npm, offI), b.i32(groupSize)));
  Expr ij2 = b.let("ij", b.mod(ij, sizeGj));
  Expr newI = b.letAt("pid_m_, pid_n_ = ", "pid_m_", b.at("tl.swizzle2d(pid_m, pid_n, num_pid_m, num_pid_n, group_sz)").add(offI, b.mod(ij2, sizeG)));
  Expr newJ = b.letAt("pid_m_, pid_n_ = ", "pid_n_", b.at("tl.swizzle2d(pid_m, pid_n, num_pid_m, num_pid_n, group_sz)").div(ij2, sizeG));
  auto offset1d = [&](Expr chunk) { return b.add(b.mul(chunk, 1), b.arange(0, 1)); };
  auto offset2d = [&](Expr o0, Expr o1, Expr stride0) { return b.add(b.mul(b.expand(o0, 1), stride0), b.mul(b.expand(o1, 0), 1)); };
  auto mask2d = [&](Expr o0, Expr o1, Expr max0, Expr max1) { return b.and_(b.lt(b.expand(o0, 1), max0), b.lt(b.expand(o1, 0), max1)); };
  Expr om = b.letAt("offs_m = ", "offs_m", offset1d(pm));
  Expr on = b.letAt("offs_n = ", "offs_n", offset1d(pn));
  Expr offs = b.letAt("offs = get_2d_offset", "offs", offset2d(om, on, npn));
  Expr mask = b.letAt("mask = get_2d_mask", "mask", mask2d(om, on, npm, npn));
  Expr swm = b.letAt("offs_sw_m = ", "offs_sw_m", offset1d(newI));
  Expr swn = b.letAt("offs_sw_n = ", "offs_sw_n", offset1d(newJ));
  Expr offsSw = b.letAt("offs_sw = ", "offs_sw", offset2d(swm, swn, npn));
  Expr maskSw = b.letAt("mask_sw = ", "mask_sw", mask2d(swm, swn, npm, npn));
  Expr xv = b.letAt("x = tl.load(x_ptr + offs, mask=mask)", "x", b.loadAt("tl.load(x_ptr + offs, mask=mask)", b.add(x, offs), mask));
  b.storeAt("tl.store(z_ptr + offs_sw, x, mask=mask_sw)", b.add(z, offsSw), xv, maskSw);
  return b.build();
}

}  // namespace tilescope::sim::testing
