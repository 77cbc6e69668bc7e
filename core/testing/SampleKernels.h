#pragma once
// Kernels of the usual kinds (vector add, row softmax, tiled matmul, image to grey, a block copy
// in a buggy and a correct form, a tl.swizzle2d map), written for these tests and lowered by hand
// with KernelBuilder the way the checker lowers them, so the simulator can be tested before (and
// independently of) the checker. Every IR node points at the snippet of the Python text it comes
// from. core/bench/bench_simulator.cpp uses these too.
#include <cmath>
#include <string>

#include "core/testing/KernelBuilder.h"

namespace tilescope::sim::testing {

// withMask = false drops the masks from the IR (the classic out-of-bounds bug).
inline std::shared_ptr<const Kernel> addKernel(int64_t tile, bool withMask = true, DType dtype = DType::FP32) {
  KernelBuilder b("vec_add", R"(@triton.jit
def vec_add(a_ptr, b_ptr, out_ptr, length, TILE: tl.constexpr):
    pid = tl.program_id(axis=0)
    first = pid * TILE
    idx = first + tl.arange(0, TILE)
    inside = idx < length
    a = tl.load(a_ptr + idx, mask=inside)
    b = tl.load(b_ptr + idx, mask=inside)
    total = a + b
    tl.store(out_ptr + idx, total, mask=inside)
)", "vec_add.py");
  Expr a = b.at("a_ptr").ptrParam("a_ptr", dtype, true);
  Expr bp = b.at("b_ptr").ptrParam("b_ptr", dtype, true);
  Expr out = b.at("out_ptr").ptrParam("out_ptr", dtype, true);
  Expr n = b.at("length").scalarParam("length");
  b.constexprParam("TILE", Constant(tile));
  Expr pid = b.letAt("pid = tl.program_id(axis=0)", "pid", b.at("tl.program_id(axis=0)").pid(0));
  Expr first = b.letAt("first = pid * TILE", "first", b.at("pid * TILE").mul(pid, tile));
  Expr idx = b.letAt("idx = first", "idx", b.at("first + tl.arange(0, TILE)").add(first, b.at("tl.arange(0, TILE)").arange(0, tile)));
  Expr inside = withMask ? b.letAt("inside = idx < length", "inside", b.at("idx < length").lt(idx, n)) : Expr();
  Expr av = b.letAt("a = tl.load", "a", b.loadAt("tl.load(a_ptr + idx, mask=inside)", b.at("a_ptr + idx").add(a, idx), inside));
  Expr bv = b.letAt("b = tl.load", "b", b.loadAt("tl.load(b_ptr + idx, mask=inside)", b.at("b_ptr + idx").add(bp, idx), inside));
  Expr total = b.letAt("total = a + b", "total", b.at("a + b").add(av, bv));
  b.storeAt("tl.store(out_ptr + idx, total, mask=inside)", b.at("out_ptr + idx").add(out, idx), total, inside);
  return b.build();
}

// One program per row; the row's maximum is subtracted before exponentiating.
inline std::shared_ptr<const Kernel> softmaxKernel(int64_t lanes) {
  KernelBuilder b("row_softmax", R"(@triton.jit
def row_softmax(src_ptr, dst_ptr, src_pitch, dst_pitch, width, LANES: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, LANES)
    live = cols < width
    vals = tl.load(src_ptr + r * src_pitch + cols, mask=live, other=-float('inf'))
    top = tl.max(vals, axis=0)
    shifted = vals - top
    e = tl.exp(shifted)
    norm = tl.sum(e, axis=0)
    probs = e / norm
    tl.store(dst_ptr + r * dst_pitch + cols, probs, mask=live)
)", "row_softmax.py");
  Expr src = b.at("src_ptr").ptrParam("src_ptr", DType::FP32);
  Expr dst = b.at("dst_ptr").ptrParam("dst_ptr", DType::FP32);
  Expr srcPitch = b.at("src_pitch").scalarParam("src_pitch");
  Expr dstPitch = b.at("dst_pitch").scalarParam("dst_pitch");
  Expr width = b.at("width").scalarParam("width");
  b.constexprParam("LANES", Constant(lanes));
  Expr r = b.letAt("r = tl.program_id(0)", "r", b.pid(0));
  Expr cols = b.letAt("cols = tl.arange(0, LANES)", "cols", b.arange(0, lanes));
  Expr live = b.letAt("live = cols < width", "live", b.lt(cols, width));
  Expr inPtrs = b.at("src_ptr + r * src_pitch + cols").add(b.add(src, b.mul(r, srcPitch)), cols);
  Expr vals = b.letAt("vals = tl.load", "vals", b.loadAt("tl.load(src_ptr + r * src_pitch + cols, mask=live, other=-float('inf'))", inPtrs, live, b.f32(-INFINITY)));
  Expr top = b.letAt("top = tl.max(vals, axis=0)", "top", b.at("tl.max(vals, axis=0)").reduce(ReduceOp::Max, vals, 0));
  Expr shifted = b.letAt("shifted = vals - top", "shifted", b.at("vals - top").sub(vals, top));
  Expr e = b.letAt("e = tl.exp(shifted)", "e", b.at("tl.exp(shifted)").math(MathFn::Exp, shifted));
  Expr norm = b.letAt("norm = tl.sum", "norm", b.at("tl.sum(e, axis=0)").reduce(ReduceOp::Sum, e, 0));
  Expr probs = b.letAt("probs = e / norm", "probs", b.at("e / norm").div(e, norm));
  Expr outPtrs = b.at("dst_ptr + r * dst_pitch + cols").add(b.add(dst, b.mul(r, dstPitch)), cols);
  b.storeAt("tl.store(dst_ptr + r * dst_pitch + cols, probs, mask=live)", outPtrs, probs, live);
  return b.build();
}

// A TM x TN tile of C per program, K walked in TK steps with masked loads, the fp32 accumulator
// stored as fp16 (`outDType` lets the benchmark store fp32 instead). tl.dot's default input
// precision for fp32 operands is tf32.
inline std::shared_ptr<const Kernel> matmulKernel(int64_t tm, int64_t tn, int64_t tk, DType inDType, DType outDType,
                                                  InputPrecision precision = InputPrecision::TF32) {
  KernelBuilder b("tile_matmul", R"(@triton.jit
def tile_matmul(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
                TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr):
    pm = tl.program_id(axis=0)
    pn = tl.program_id(axis=1)
    rows = pm * TM + tl.arange(0, TM)
    cols = pn * TN + tl.arange(0, TN)
    ks = tl.arange(0, TK)
    a_at = a_ptr + rows[:, None] * s_am + ks[None, :] * s_ak
    b_at = b_ptr + ks[:, None] * s_bk + cols[None, :] * s_bn
    acc = tl.zeros((TM, TN), dtype=tl.float32)
    for k0 in range(0, K, TK):
        a_ok = (rows[:, None] < M) & (k0 + ks[None, :] < K)
        b_ok = (k0 + ks[:, None] < K) & (cols[None, :] < N)
        a = tl.load(a_at, mask=a_ok, other=0.0)
        b = tl.load(b_at, mask=b_ok, other=0.0)
        acc += tl.dot(a, b)
        a_at += TK * s_ak
        b_at += TK * s_bk
    c = acc.to(tl.float16)
    c_ok = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(c_ptr + rows[:, None] * s_cm + cols[None, :] * s_cn, c, mask=c_ok)
)", "tile_matmul.py");
  Expr a = b.at("a_ptr").ptrParam("a_ptr", inDType, true);
  Expr bp = b.at("b_ptr").ptrParam("b_ptr", inDType, true);
  Expr c = b.at("c_ptr").ptrParam("c_ptr", outDType, true);
  Expr M = b.at("M, N, K").scalarParam("M");
  Expr N = b.scalarParam("N");
  Expr K = b.scalarParam("K");
  Expr sam = b.at("s_am").scalarParam("s_am");
  Expr sak = b.at("s_ak").scalarParam("s_ak");
  Expr sbk = b.at("s_bk").scalarParam("s_bk");
  Expr sbn = b.at("s_bn").scalarParam("s_bn");
  Expr scm = b.at("s_cm").scalarParam("s_cm");
  Expr scn = b.at("s_cn").scalarParam("s_cn");
  b.constexprParam("TM", Constant(tm));
  b.constexprParam("TN", Constant(tn));
  b.constexprParam("TK", Constant(tk));
  Expr pm = b.letAt("pm = tl.program_id(axis=0)", "pm", b.pid(0));
  Expr pn = b.letAt("pn = tl.program_id(axis=1)", "pn", b.pid(1));
  Expr rows = b.letAt("rows = ", "rows", b.add(b.mul(pm, tm), b.arange(0, tm)));
  Expr cols = b.letAt("cols = ", "cols", b.add(b.mul(pn, tn), b.arange(0, tn)));
  Expr ks = b.letAt("ks = tl.arange(0, TK)", "ks", b.arange(0, tk));
  VarPtr aAt = b.varAt("a_at = a_ptr", "a_at", b.add(a, b.add(b.mul(b.expand(rows, 1), sam), b.mul(b.expand(ks, 0), sak))));
  VarPtr bAt = b.varAt("b_at = b_ptr", "b_at", b.add(bp, b.add(b.mul(b.expand(ks, 1), sbk), b.mul(b.expand(cols, 0), sbn))));
  VarPtr acc = b.varAt("acc = tl.zeros", "acc", b.zeros({tm, tn}, DType::FP32));
  b.at("for k0 in range(0, K, TK):").forRange("k0", b.i32(0), K, b.i32(tk), [&](Expr k0) {
    Expr aOk = b.letAt("a_ok = ", "a_ok", b.and_(b.lt(b.expand(rows, 1), M), b.lt(b.add(k0, b.expand(ks, 0)), K)));
    Expr bOk = b.letAt("b_ok = ", "b_ok", b.and_(b.lt(b.add(k0, b.expand(ks, 1)), K), b.lt(b.expand(cols, 0), N)));
    Expr av = b.letAt("a = tl.load(a_at, mask=a_ok, other=0.0)", "a", b.loadAt("tl.load(a_at, mask=a_ok, other=0.0)", b.ref(aAt), aOk, b.lit(inDType, 0)));
    Expr bv = b.letAt("b = tl.load(b_at, mask=b_ok, other=0.0)", "b", b.loadAt("tl.load(b_at, mask=b_ok, other=0.0)", b.ref(bAt), bOk, b.lit(inDType, 0)));
    b.assignAt("acc += tl.dot(a, b)", acc, b.at("tl.dot(a, b)").dot(av, bv, b.ref(acc), DType::FP32, precision));
    b.assignAt("a_at += TK * s_ak", aAt, b.add(b.ref(aAt), b.mul(sak, tk)));
    b.assignAt("b_at += TK * s_bk", bAt, b.add(b.ref(bAt), b.mul(sbk, tk)));
  });
  Expr cv = b.letAt("c = acc.to(tl.float16)", "c", b.at("acc.to(tl.float16)").cast(b.ref(acc), outDType));
  Expr cOk = b.letAt("c_ok = ", "c_ok", b.and_(b.lt(b.expand(rows, 1), M), b.lt(b.expand(cols, 0), N)));
  Expr cPtrs = b.at("c_ptr + rows[:, None] * s_cm + cols[None, :] * s_cn").add(b.add(c, b.mul(b.expand(rows, 1), scm)), b.mul(b.expand(cols, 0), scn));
  b.storeAt("tl.store(c_ptr + rows[:, None] * s_cm + cols[None, :] * s_cn, c, mask=c_ok)", cPtrs, cv, cOk);
  return b.build();
}

// A 3 x h x w uint8 image (planes red, green, blue) to an h x w uint8 grey image with the Rec. 601
// luma weights, in BH x BW blocks of pixels.
inline constexpr double kGreyRed = 0.299, kGreyGreen = 0.587, kGreyBlue = 0.114;
inline std::shared_ptr<const Kernel> rgb2greyKernel(int64_t bh, int64_t bw) {
  KernelBuilder b("to_grey", R"(@triton.jit
def to_grey(img_ptr, grey_ptr, h, w, BH: tl.constexpr, BW: tl.constexpr):
    ys = tl.program_id(0) * BH + tl.arange(0, BH)
    xs = tl.program_id(1) * BW + tl.arange(0, BW)
    pix = ys[:, None] * w + xs[None, :]
    ok = (ys[:, None] < h) & (xs[None, :] < w)
    plane = h * w
    red = tl.load(img_ptr + pix, mask=ok)
    green = tl.load(img_ptr + plane + pix, mask=ok)
    blue = tl.load(img_ptr + 2 * plane + pix, mask=ok)
    grey = 0.299 * red + 0.587 * green + 0.114 * blue
    tl.store(grey_ptr + pix, grey, mask=ok)
)", "to_grey.py");
  Expr img = b.at("img_ptr").ptrParam("img_ptr", DType::U8);
  Expr grey = b.at("grey_ptr").ptrParam("grey_ptr", DType::U8);
  Expr h = b.at("h, w").scalarParam("h");
  Expr w = b.scalarParam("w");
  b.constexprParam("BH", Constant(bh));
  b.constexprParam("BW", Constant(bw));
  Expr ys = b.letAt("ys = ", "ys", b.add(b.mul(b.pid(0), bh), b.arange(0, bh)));
  Expr xs = b.letAt("xs = ", "xs", b.add(b.mul(b.pid(1), bw), b.arange(0, bw)));
  Expr pix = b.letAt("pix = ", "pix", b.add(b.mul(b.expand(ys, 1), w), b.expand(xs, 0)));
  Expr ok = b.letAt("ok = ", "ok", b.and_(b.lt(b.expand(ys, 1), h), b.lt(b.expand(xs, 0), w)));
  Expr plane = b.letAt("plane = h * w", "plane", b.mul(h, w));
  Expr red = b.letAt("red = tl.load", "red", b.loadAt("tl.load(img_ptr + pix, mask=ok)", b.add(img, pix), ok));
  Expr green = b.letAt("green = tl.load", "green", b.loadAt("tl.load(img_ptr + plane + pix, mask=ok)", b.add(b.add(img, plane), pix), ok));
  Expr blue = b.letAt("blue = tl.load", "blue", b.loadAt("tl.load(img_ptr + 2 * plane + pix, mask=ok)", b.add(b.add(img, b.mul(b.i32(2), plane)), pix), ok));
  b.at("0.299 * red + 0.587 * green + 0.114 * blue");
  Expr sum = b.add(b.add(b.mul(b.f32(kGreyRed), b.cast(red, DType::FP32)), b.mul(b.f32(kGreyGreen), b.cast(green, DType::FP32))),
                   b.mul(b.f32(kGreyBlue), b.cast(blue, DType::FP32)));
  Expr g = b.letAt("grey = 0.299", "grey", sum);
  b.storeAt("tl.store(grey_ptr + pix, grey, mask=ok)", b.add(grey, pix), g, ok);
  return b.build();
}

// A block copy with a host-side print_if per program. Version 1 forgets the program's offset
// (every program copies block 0), version 2 scales the program id by the length instead of the
// block size (programs past 0 land outside and are masked off), version 3 is right.
inline std::shared_ptr<const Kernel> copyKernel(int version, int64_t block, DType dtype = DType::I64) {
  const std::string idxLine = version == 1   ? "    idx = tl.arange(0, B)\n"
                              : version == 2 ? "    idx = pid * n + tl.arange(0, B)\n"
                                             : "    idx = pid * B + tl.arange(0, B)\n";
  KernelBuilder b("copy_blocks",
                  "@triton.jit\ndef copy_blocks(src_ptr, dst_ptr, n, B: tl.constexpr):\n    pid = tl.program_id(0)\n" + idxLine +
                      "    inside = idx < n\n"
                      "    v = tl.load(src_ptr + idx, inside)\n"
                      "    tl.store(dst_ptr + idx, v, inside)\n"
                      "    print_if(f'program {pid}: idx {idx} inside {inside} got {v}', '')\n",
                  "copy_blocks.py");
  Expr src = b.at("src_ptr").ptrParam("src_ptr", dtype);
  Expr dst = b.at("dst_ptr").ptrParam("dst_ptr", dtype);
  Expr n = b.at("n, B").scalarParam("n");
  b.constexprParam("B", Constant(block));
  Expr pid = b.letAt("pid = tl.program_id(0)", "pid", b.pid(0));
  Expr ar = b.at("tl.arange(0, B)").arange(0, block);
  Expr idxValue = version == 1 ? ar : version == 2 ? b.at("pid * n + tl.arange(0, B)").add(b.mul(pid, n), ar)
                                                   : b.at("pid * B + tl.arange(0, B)").add(b.mul(pid, block), ar);
  Expr idx = b.letAt("idx = ", "idx", idxValue);
  Expr inside = b.letAt("inside = idx < n", "inside", b.lt(idx, n));
  Expr v = b.letAt("v = tl.load", "v", b.loadAt("tl.load(src_ptr + idx, inside)", b.add(src, idx), inside));
  b.storeAt("tl.store(dst_ptr + idx, v, inside)", b.add(dst, idx), v, inside);
  b.at("print_if(f'program {pid}: idx {idx} inside {inside} got {v}', '')");
  std::vector<FormatPart> parts{{"program ", pid, 0, ""}, {": idx ", idx, 0, ""}, {" inside ", inside, 0, ""}, {" got ", v, 0, ""}};
  b.hostCall("print_if", {HostArg::ofFormat(std::move(parts)), HostArg::ofConstant(Constant(""))});
  return b.build();
}

// Each program (i, j) of an R x C grid copies element (i, j) of an R x C matrix to where
// tl.swizzle2d sends it, with swizzle2d lowered to arithmetic as the checker does
// (python/triton/language/standard.py).
inline std::shared_ptr<const Kernel> swizzleKernel(int64_t groupSize) {
  KernelBuilder b("swizzle_map", R"(@triton.jit
def swizzle_map(src_ptr, dst_ptr, GROUP: tl.constexpr):
    i, j = tl.program_id(0), tl.program_id(1)
    ni, nj = tl.num_programs(0), tl.num_programs(1)
    si, sj = tl.swizzle2d(i, j, ni, nj, GROUP)
    one = tl.arange(0, 1)
    v = tl.load(src_ptr + i * nj + j + one)
    tl.store(dst_ptr + si * nj + sj + one, v)
)", "swizzle_map.py");
  Expr src = b.at("src_ptr").ptrParam("src_ptr", DType::I64);
  Expr dst = b.at("dst_ptr").ptrParam("dst_ptr", DType::I64);
  b.constexprParam("GROUP", Constant(groupSize));
  Expr i = b.letAt("i, j = ", "i", b.pid(0));
  Expr j = b.let("j", b.pid(1));
  Expr ni = b.letAt("ni, nj = ", "ni", b.nprog(0));
  Expr nj = b.let("nj", b.nprog(1));
  // swizzle2d(i, j, size_i, size_j, size_g)
  b.at("tl.swizzle2d(i, j, ni, nj, GROUP)");
  Expr ij = b.let("ij", b.add(b.mul(i, nj), j));
  Expr sizeGj = b.let("size_gj", b.mul(nj, groupSize));
  Expr groupId = b.let("group_id", b.div(ij, sizeGj));
  Expr offI = b.let("off_i", b.mul(groupId, groupSize));
  Expr sizeG = b.let("size_g", b.minimum(b.sub(ni, offI), b.i32(groupSize)));
  Expr ij2 = b.let("ij", b.mod(ij, sizeGj));
  Expr si = b.letAt("si, sj = ", "si", b.at("tl.swizzle2d(i, j, ni, nj, GROUP)").add(offI, b.mod(ij2, sizeG)));
  Expr sj = b.letAt("si, sj = ", "sj", b.at("tl.swizzle2d(i, j, ni, nj, GROUP)").div(ij2, sizeG));
  Expr one = b.letAt("one = tl.arange(0, 1)", "one", b.arange(0, 1));
  Expr v = b.letAt("v = tl.load", "v", b.loadAt("tl.load(src_ptr + i * nj + j + one)", b.add(src, b.add(b.add(b.mul(i, nj), j), one))));
  b.storeAt("tl.store(dst_ptr + si * nj + sj + one, v)", b.add(dst, b.add(b.add(b.mul(si, nj), sj), one)), v);
  return b.build();
}

}  // namespace tilescope::sim::testing
