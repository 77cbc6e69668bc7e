// Tensor descriptor boxes copied by Hopper's tensor memory accelerator (TMA, sm_90a) in a pipelined
// wgmma loop (CudaEmitter::Pipeline::tma). As Triton 3.6 does for tl.make_tensor_descriptor, each
// descriptor's tensor map (128 bytes) is built in the kernel: warp 0 zero-fills it in shared memory,
// thread 0 writes its fields with `tensormap.replace` (address, dims, strides, box, element type,
// the 128-byte swizzle, the padding), and `tensormap.cp_fenceproxy` copies it into the program's
// slot of the global scratch (the `ts_scratch` argument) and releases it to the tensor proxy; the
// acquire fence follows. A map is rebuilt only when its address, dims or strides change (once per
// group of the grouped GEMM, not per tile). Thread 0 then issues one `cp.async.bulk.tensor.2d` per
// 64-column panel of a box into the swizzled stage (the layout wgmma reads), completing on the
// stage's mbarrier, which every thread waits on before the multiplies. Out-of-bounds elements of a
// box are filled by TMA itself (zero, or NaN for padding_option="nan"): the simulator's padding.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaPrelude.h"
#include "core/gpu/codegen/CudaTypes.h"
#include "core/gpu/passes/VarCensus.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::gpu {

namespace {

constexpr int64_t kPanel = 64;     // 16-bit elements per 128-byte swizzled row

constexpr std::string_view kTmaPrelude = R"CUDA(// ---- tensor memory accelerator, sm_90a (core/gpu/codegen/CudaTma.cpp) ----
TS_DEV void ts_mbar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(ts_shared_addr(bar)), "r"(count) : "memory");
}
// Makes the initialised barriers visible to the tensor engine's completions.
TS_DEV void ts_mbar_fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
// Thread 0's arrival, announcing the bytes the stage's copies will bring.
TS_DEV void ts_mbar_expect_tx(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(ts_shared_addr(bar)), "r"(bytes) : "memory");
}
TS_DEV bool ts_mbar_try_wait(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}
// Waits until the barrier's phase `parity` has completed (its copies landed).
TS_DEV void ts_mbar_wait(unsigned long long* bar, unsigned parity) {
  const unsigned a = ts_shared_addr(bar);
  while (!ts_mbar_try_wait(a, parity)) {
  }
}
// One box of a 2-D tensor map at (c0 innermost, c1) into shared memory, completing on bar.
TS_DEV void ts_tma_load2(void* dst, const void* map, int c0, int c1, unsigned long long* bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               ::"r"(ts_shared_addr(dst)), "l"(map), "r"(c0), "r"(c1), "r"(ts_shared_addr(bar))
               : "memory");
}
// Global writes of this program before the copies (generic proxy) become visible to them (async proxy).
TS_DEV void ts_fence_async_global() { asm volatile("fence.proxy.async.global;" ::: "memory"); }
// Builds a 2-D tiled tensor map with the 128-byte swizzle at gmap (128 bytes of global memory):
// dims and box innermost first, the outer dim's stride in bytes; ELEM and FILL are the element
// type and fill mode codes (immediates in PTX). Called by all of warp 0.
template <unsigned ELEM, unsigned FILL>
TS_DEV void ts_tma_build2(void* gmap, unsigned* smem, const void* base, unsigned dim0, unsigned dim1,
                          unsigned long long stride1, unsigned box0, unsigned box1) {
  const unsigned lane = threadIdx.x & 31u;
  smem[lane] = 0u;
  __syncwarp();
  if (lane == 0) {
    const unsigned a = ts_shared_addr(smem);
    const unsigned one = 1u;
    asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(a), "l"(base) : "memory");
    asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], %1;" ::"r"(a), "r"(one) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(a), "r"(box0) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(a), "r"(box1) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(a), "r"(dim0) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(a), "r"(dim1) : "memory");
    asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;" ::"r"(a), "l"(stride1) : "memory");
    asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(a), "r"(one) : "memory");
    asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(a), "r"(one) : "memory");
    asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], %1;" ::"r"(a), "n"(ELEM) : "memory");
    asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;" ::"r"(a) : "memory");
    asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;" ::"r"(a) : "memory");
    asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], %1;" ::"r"(a), "n"(FILL) : "memory");
  }
  __syncwarp();
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
               ::"l"(gmap), "r"(ts_shared_addr(smem))
               : "memory");
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
}
// ---- end of tensor memory accelerator ----
)CUDA";

}  // namespace

std::string_view cudaTmaPrelude() { return kTmaPrelude; }

void CudaEmitter::tmaPrologue() {
  Pipeline& p = *pipeline_;
  const std::string id = p.slot.substr(7);
  p.bars = "ts_bar" + id;
  p.phase = "ts_phase" + id;
  // Function scope, at the kernel's top: the barriers are initialised once and keep their phases
  // (and the maps their keys) across entries of the loop (the persistent grouped GEMM's tiles).
  std::string& top = tmaTop_;
  top += "  __shared__ __align__(8) unsigned long long " + p.bars + "[" + n2s(p.stages) + "];\n";
  top += "  unsigned " + p.phase + " = 0u;\n";
  top += "  if (ts_tid == 0) {\n";
  top += "    for (int ts_s = 0; ts_s < " + n2s(p.stages) + "; ++ts_s) ts_mbar_init(&" + p.bars + "[ts_s], 1u);\n";
  top += "    ts_mbar_fence_init();\n";
  top += "  }\n";
  top += "  __syncthreads();\n";
  line("// operands by TMA: tensor maps in this program's scratch, rebuilt when the descriptor changes");
  for (OperandStream* s : {&p.a, &p.b}) {
    const ir::TensorBox& box = *s->load->box;
    const int index = tmaMaps_++;
    s->map = "ts_map" + n2s(index);
    const std::string key = "ts_mapkey" + n2s(index);
    top += "  __shared__ __align__(128) unsigned ts_mapsm" + n2s(index) + "[32];\n";
    // The address, dims and outer stride the map was last built for (an address never 0 here).
    top += "  ts_u64 " + key + "[4] = {0ull, 0ull, 0ull, 0ull};\n";
    line("unsigned char* const " + s->map + " = ts_scratch + (blockIdx.x + (ts_u64)gridDim.x * (blockIdx.y + (ts_u64)gridDim.y * "
         "blockIdx.z)) * TS_TMA_SCRATCH + " + n2s(index * 128) + ";");
    open("");
    line("const ts_u64 ts_kb = (ts_u64)(" + expr(box.base) + ");");
    line("const ts_u64 ts_kd0 = (ts_u64)(" + expr(box.shape[1]) + "), ts_kd1 = (ts_u64)(" + expr(box.shape[0]) + ");");
    const int64_t elemBytes = ir::bitWidth(s->load->type.dtype()) / 8;
    line("const ts_u64 ts_ks1 = (ts_u64)(" + expr(box.strides[0]) + ") * " + n2s(elemBytes) + "ull;");
    open("if (ts_kb != " + key + "[0] || ts_kd0 != " + key + "[1] || ts_kd1 != " + key + "[2] || ts_ks1 != " + key + "[3])");
    line(key + "[0] = ts_kb; " + key + "[1] = ts_kd0; " + key + "[2] = ts_kd1; " + key + "[3] = ts_ks1;");
    const std::string elemtype = s->load->type.dtype() == ir::DType::BF16 ? "10u" : "6u";
    line("if (ts_tid < 32) ts_tma_build2<" + elemtype + ", " + (box.padNan ? "1u" : "0u") + ">(" + s->map + ", ts_mapsm" + n2s(index) +
         ", (const void*)ts_kb, (unsigned)ts_kd0, (unsigned)ts_kd1, ts_ks1, " + n2s(kPanel) + "u, " + n2s(s->rows) + "u);");
    close();
    close();
  }
  // The ring was last written and read by ordinary accesses (the previous tile's result staging):
  // those come before the engine's writes into it, and the program's earlier global stores before
  // its reads.
  line("ts_fence_async_shared();");
  sync();
  line("if (ts_tid == 0) ts_fence_async_global();");
}

void CudaEmitter::tmaStage(const std::string& slot, const std::string& base) {
  const Pipeline& p = *pipeline_;
  const size_t bytes = static_cast<size_t>(p.a.rows * p.a.cols + p.b.rows * p.b.cols) * 2;
  open("if (ts_tid == 0)");
  line("ts_mbar_expect_tx(&" + p.bars + "[" + slot + "], " + std::to_string(bytes) + "u);");
  for (const OperandStream* s : {&p.a, &p.b}) {
    const ir::TensorBox& box = *s->load->box;
    const std::string row = "(int)(" + expr(box.offsets[0]) + ")", col = "(int)(" + expr(box.offsets[1]) + ")";
    // Panel q: columns 64q.. of every row, rows x 128 bytes, after the q panels before it.
    for (int64_t q = 0; q < s->cols / kPanel; ++q)
      line("ts_tma_load2(" + base + " + " + std::to_string(s->offset + static_cast<size_t>(q * s->rows * 128)) + ", " + s->map + ", " +
           col + (q ? " + " + n2s(q * kPanel) : "") + ", " + row + ", &" + p.bars + "[" + slot + "]);");
  }
  close();
}

void CudaEmitter::tmaWait() {
  const Pipeline& p = *pipeline_;
  line("ts_mbar_wait(&" + p.bars + "[" + p.slot + "], (" + p.phase + " >> " + p.slot + ") & 1u);");
  line(p.phase + " ^= 1u << " + p.slot + ";");
}

}  // namespace tilescope::gpu
