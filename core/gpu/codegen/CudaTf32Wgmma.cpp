// tf32 dots (fp32 operands, input_precision="tf32") of a pipelined K loop on Hopper's warpgroup MMA
// (sm_90a). wgmma reads 32-bit operands from shared memory only K-major, and the loop's B (K x N, N
// contiguous) is not; so the loop computes the transposed product, C^T = B^T A^T: wgmma's A is B^T,
// fed from registers (each thread loads its fragment from B's padded rows in the ring and rounds it
// to tf32), and wgmma's B is A, staged as loaded (K contiguous) in the 128-byte swizzle and read
// through descriptors, after each thread has rounded the chunks it copied in place. Warpgroup g owns
// columns [g * rowsPerGroup, ...) of the result, as m64 x BM accumulators (CudaEmitter::WarpgroupMma
// with `transposed`), which go back to C's layout through shared memory after the loop. Triton
// instead transposes B through registers into a second shared tile each step.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"

namespace tilescope::gpu {

namespace {

constexpr int64_t kPanel = 32;             // fp32 elements per 128-byte swizzled row

}  // namespace

std::string CudaEmitter::tf32WarpgroupInstruction(int64_t n) {
  const std::string name = "ts_wgmma_m64n" + n2s(n) + "_tf32_rs";
  if (warpgroupInstructions_.count(name)) return name;
  // d += A * B for one 64 x n tile and k = 8: A from four registers per thread, B K-major through
  // its descriptor, scale-d on.
  const int64_t regs = n / 2;
  std::string outs, list;
  wgmmaAccumulatorOperands(regs, list, outs);
  std::string text = "TS_DEV void " + name + "(float (&d)[" + n2s(regs) + "], const unsigned (&a)[4], unsigned long long b) {\n";
  text += "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" + n2s(regs + 5) + ", 0;\\n\"\n";
  text += "               \"wgmma.mma_async.sync.aligned.m64n" + n2s(n) + "k8.f32.tf32.tf32 {" + list + "}, {%" + n2s(regs) + ", %" +
          n2s(regs + 1) + ", %" + n2s(regs + 2) + ", %" + n2s(regs + 3) + "}, %" + n2s(regs + 4) + ", p, 1, 1;\\n}\\n\"\n";
  text += "               : " + outs + "\n               : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"l\"(b), \"r\"(1));\n}\n";
  warpgroupInstructions_[name] = text;
  return name;
}

void CudaEmitter::roundOwnChunks(const OperandStream& s, const std::string& base) {
  // The chunks stageOperand gave this thread (cp.async or element-wise), complete after the wait.
  const int64_t chunks = s.rows * s.cols / 4;
  const int64_t perThread = (chunks + threads_ - 1) / threads_;
  line("#pragma unroll");
  open("for (int ts_r = 0; ts_r < " + n2s(perThread) + "; ++ts_r)");
  line("const int ts_c = ts_tid + ts_r * " + n2s(threads_) + ";");
  if (chunks % threads_ != 0) line("if (ts_c >= " + n2s(chunks) + ") break;");
  line("const int ts_row = (ts_c * 4) / " + n2s(s.cols) + ", ts_col = (ts_c * 4) % " + n2s(s.cols) + ";");
  line("uint4* ts_q = (uint4*)(" + base + " + " + std::to_string(s.offset) + " + (ts_col / " + n2s(kPanel) + ") * " +
       n2s(s.rows * 128) + " + ts_row * 128 + ((((ts_col % " + n2s(kPanel) + ") / 4) ^ (ts_row % 8)) * 16));");
  line("uint4 ts_v = *ts_q;");
  line("ts_v.x = __float_as_uint(ts_tf32(__uint_as_float(ts_v.x))); ts_v.y = __float_as_uint(ts_tf32(__uint_as_float(ts_v.y)));");
  line("ts_v.z = __float_as_uint(ts_tf32(__uint_as_float(ts_v.z))); ts_v.w = __float_as_uint(ts_tf32(__uint_as_float(ts_v.w)));");
  line("*ts_q = ts_v;");
  close();
}

void CudaEmitter::tf32WarpgroupStep(const ResidentAccumulator& r) {
  const Pipeline& p = *pipeline_;
  const WarpgroupMma& g = *p.wgmma;
  const TensorCoreLayout& l = r.layout;
  const std::string stage = p.ring + " + " + p.slot + " * " + std::to_string(p.stageBytes);
  // The stage is complete; its A chunks, rounded by their copiers, become visible to the tensor
  // cores (async proxy) through the fence, to every warpgroup through the barrier. Every warpgroup
  // waited for its previous multiplies before it reached the barrier, so the slot they read is free.
  line("ts_cp_wait<" + n2s(p.stages - 2) + ">();");
  roundOwnChunks(p.a, stage);
  line("ts_fence_async_shared();");
  sync();
  open("");
  line("const unsigned ts_sa = ts_shared_addr(" + stage + ");");
  line("const float* ts_sb = (const float*)(" + stage + " + " + std::to_string(p.b.offset) + ");");
  // wgmma's A fragment (m64 x k8, 32-bit): register v of lane l in warp w holds row 16w + l / 4 + 8 (v % 2),
  // column l % 4 + 4 (v / 2); a row of B^T is a column of B.
  line("const int ts_wt = ts_tid & 127;");
  line("const int ts_n0 = (ts_tid >> 7) * " + n2s(g.rowsPerGroup) + " + (ts_wt >> 5) * 16 + ((ts_wt & 31) >> 2), ts_k0 = ts_wt & 3;");
  const int64_t steps = l.k / 8;
  line("unsigned ts_ra[" + n2s(steps) + "][" + n2s(g.tiles) + "][4];");
  line("#pragma unroll");
  open("for (int ts_k = 0; ts_k < " + n2s(steps) + "; ++ts_k)");
  line("#pragma unroll");
  open("for (int ts_t = 0; ts_t < " + n2s(g.tiles) + "; ++ts_t)");
  line("const float* ts_f = ts_sb + (ts_k * 8 + ts_k0) * " + n2s(p.b.ld) + " + ts_n0 + ts_t * 64;");
  line("ts_ra[ts_k][ts_t][0] = __float_as_uint(ts_tf32(ts_f[0]));");
  line("ts_ra[ts_k][ts_t][1] = __float_as_uint(ts_tf32(ts_f[8]));");
  line("ts_ra[ts_k][ts_t][2] = __float_as_uint(ts_tf32(ts_f[" + n2s(4 * p.b.ld) + "]));");
  line("ts_ra[ts_k][ts_t][3] = __float_as_uint(ts_tf32(ts_f[" + n2s(4 * p.b.ld + 8) + "]));");
  close();
  close();
  line("ts_wgmma_fence();");
  line("#pragma unroll");
  open("for (int ts_k = 0; ts_k < " + n2s(steps) + "; ++ts_k)");
  line("#pragma unroll");
  open("for (int ts_t = 0; ts_t < " + n2s(g.tiles) + "; ++ts_t)");
  // A's panel ts_k / 4 (BM rows of 128 bytes), 32 bytes per k-step inside the row.
  line(tf32WarpgroupInstruction(g.n) + "(" + r.frags + "[ts_t], ts_ra[ts_k][ts_t], ts_wgmma_desc(ts_sa + (ts_k / 4) * " +
       n2s(l.m * 128) + " + (ts_k % 4) * 32, 16, 1024));");
  close();
  close();
  line("ts_wgmma_commit();");
  // The copies of a later iteration go into the slot the previous one read while these multiply.
  stageNextIteration();
  // The fragment registers are the multiplies' until they are done: the next iteration rewrites them.
  line("ts_wgmma_wait<0>();");
  holdWarpgroupAccumulator(g, r.frags);
  close();
  advanceSlot();
}

void CudaEmitter::moveTransposedAccumulator(const TensorCoreLayout& l, const WarpgroupMma& g, const std::string& acc,
                                            bool toShared) {
  // Register 4i + j of thread t (warp w of its warpgroup, lane t % 32) holds row 16w + lane / 4 +
  // 8 (j / 2) of the warpgroup's 64-row tile of C^T (a column of C) and column 8i + 2 (lane % 4) + j % 2
  // (a row of C). Lanes of one register hit 32 distinct banks (ldc % 32 == 4).
  open("");
  line("const int ts_wt = ts_tid & 127;");
  line("float* ts_c = (float*)(ts_smem + " + std::to_string(l.offC) + ");");
  line("#pragma unroll");
  open("for (int ts_t = 0; ts_t < " + n2s(g.tiles) + "; ++ts_t)");
  line("#pragma unroll");
  open("for (int ts_r = 0; ts_r < " + n2s(g.n / 2) + "; ++ts_r)");
  line("const int ts_col = (ts_tid >> 7) * " + n2s(g.rowsPerGroup) +
       " + ts_t * 64 + (ts_wt >> 5) * 16 + ((ts_wt & 31) >> 2) + 8 * ((ts_r & 3) >> 1);");
  line("const int ts_row = 8 * (ts_r >> 2) + 2 * (ts_wt & 3) + (ts_r & 1);");
  line(toShared ? "ts_c[ts_row * " + n2s(l.ldc) + " + ts_col] = " + acc + "[ts_t][ts_r];"
                : acc + "[ts_t][ts_r] = ts_c[ts_row * " + n2s(l.ldc) + " + ts_col];");
  close();
  close();
  close();
  sync();
}

}  // namespace tilescope::gpu
