#pragma once
// A CPU stand-in for the CUDA a register loop uses (CudaRegisterLoopTest compiles a generated
// kernel's body against it with the host compiler): one std::thread per CUDA thread, std::barrier
// for __syncthreads and for the warp collectives (__shfl_xor_sync, ldmatrix .x4 with and without
// .trans, mma.sync m16n8k16 f16/bf16 with the PTX ISA's fragment layouts: A a0a1 (row g, cols 2q,
// 2q+1), a2a3 (row g+8), a4a5 (row g, cols +8), a6a7; B b0b1 (rows 2q, 2q+1, col g), b2b3 (rows +8);
// C c0c1 (row g), c2c3 (row g+8)), cp.async as a copy, the 16-bit conversions in software; and
// Hopper's wgmma m64nNk16 (a warpgroup collective, done at once: commit and wait are no-ops) with A
// from registers (mma.sync's A layout per warp) or a descriptor, B from a descriptor, shared memory
// read as the PTX ISA's canonical swizzled layouts say for the descriptor's mode (128B, 64B or 32B
// = W; K-major: 8-row groups SBO apart, rows W bytes; MN-major: W/2-element atoms along N LBO apart,
// 8-row groups along K SBO apart; the 128B swizzle XORs address bits 4-6 with bits 7-9, 64B bits
// 4-5 with 7-8, 32B bit 4 with bit 7). It checks the emitter's index arithmetic,
// stages and barriers without a GPU; the device tests check the hardware.
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
typedef signed char ts_i8; typedef short ts_i16; typedef int ts_i32; typedef long long ts_i64;
typedef unsigned char ts_u8; typedef unsigned short ts_u16; typedef unsigned int ts_u32; typedef unsigned long long ts_u64;
struct Dim { unsigned x = 0, y = 0, z = 0; };
thread_local Dim threadIdx, blockIdx;
alignas(1024) static unsigned char g_smem[232448];
static std::barrier<>* g_block;
static std::barrier<>* g_warp[32];
static std::barrier<>* g_group[8];
static float g_xf[1024];
static ts_u32 g_xu[1024][6];
static const void* g_ptr[1024];
#define __global__
#define __launch_bounds__(x)
#define __align__(x)
#define __restrict__
#define TS_DEV static inline
static inline int tid() { return (int)threadIdx.x; }
static inline void __syncthreads() { g_block->arrive_and_wait(); }
static inline void warpsync() { g_warp[tid() >> 5]->arrive_and_wait(); }
static inline float __int_as_float(int x) { float f; memcpy(&f, &x, 4); return f; }
static inline float __shfl_xor_sync(unsigned, float v, int m) {
  int w = tid() >> 5, l = tid() & 31;
  g_xf[tid()] = v; warpsync();
  float r = g_xf[(w << 5) | (l ^ m)]; warpsync();
  return r;
}
TS_DEV ts_u16 ts_f2h(float x) { _Float16 h = (_Float16)x; ts_u16 b; memcpy(&b, &h, 2); return b; }
TS_DEV float ts_h2f(ts_u16 b) { _Float16 h; memcpy(&h, &b, 2); return (float)h; }
TS_DEV unsigned ts_pack2(ts_u16 lo, ts_u16 hi) { return (unsigned)lo | ((unsigned)hi << 16); }
TS_DEV ts_u16 ts_half(unsigned w, int upper) { return upper ? (ts_u16)(w >> 16) : (ts_u16)w; }
template <class M, int V> TS_DEV bool ts_vec_ok(M* const (&p)[V]) {
  bool ok = ((ts_u64)p[0] & (ts_u64)(16 - 1)) == 0;
  for (int k = 1; k < V; ++k) ok = ok & (p[k] == p[0] + k);
  return ok;
}
template <int V> TS_DEV void ts_vld_words(const ts_u16* p, unsigned* w) { memcpy(w, p, V * 2); }
template <class M, int V> TS_DEV void ts_vst(M* p, const M (&v)[V]) { memcpy(p, v, sizeof(M) * V); }
template <int V> TS_DEV void ts_vld_words_if(const ts_u16* p, unsigned* w, bool c) {
  if (c) memcpy(w, p, V * 2);
}
template <class M, int V> TS_DEV void ts_vst_if(M* p, const M (&v)[V], bool c) {
  if (c) memcpy(p, v, sizeof(M) * V);
}
template <class T> TS_DEV T ts_sel(bool c, T a, T b) { return c ? a : b; }
TS_DEV void ts_cp_async16(void* dst, const void* src) { memcpy(dst, src, 16); }
TS_DEV void ts_cp_commit() {}
template <int N> TS_DEV void ts_cp_wait() {}
TS_DEV void ts_fail(ts_u32*, unsigned c) { printf("fail %u\n", c); }
TS_DEV void ldsm(ts_u32* r, const void* p, bool trans) {
  int w = tid() >> 5, l = tid() & 31;
  g_ptr[tid()] = p; warpsync();
  for (int i = 0; i < 4; ++i) {
    if (!trans) {
      const ts_u16* row = (const ts_u16*)g_ptr[w * 32 + i * 8 + l / 4];
      r[i] = ts_pack2(row[2 * (l % 4)], row[2 * (l % 4) + 1]);
    } else {
      const ts_u16* r0 = (const ts_u16*)g_ptr[w * 32 + i * 8 + 2 * (l % 4)];
      const ts_u16* r1 = (const ts_u16*)g_ptr[w * 32 + i * 8 + 2 * (l % 4) + 1];
      r[i] = ts_pack2(r0[l / 4], r1[l / 4]);
    }
  }
  warpsync();
}
TS_DEV void ts_ldsm4(ts_u32* r, const void* p) { ldsm(r, p, false); }
TS_DEV void ts_ldsm4_t(ts_u32* r, const void* p) { ldsm(r, p, true); }
// mma.sync m16n8k16 with fp32 accumulators, per the PTX ISA's fragment layouts: `toFloat` reads one
// 16-bit element (fp16 or bf16) of A and B.
TS_DEV void mma16816(float* c, const ts_u32* a, ts_u32 b0, ts_u32 b1, float (*toFloat)(ts_u16)) {
  int w = tid() >> 5, l = tid() & 31;
  for (int i = 0; i < 4; ++i) g_xu[tid()][i] = a[i];
  g_xu[tid()][4] = b0; g_xu[tid()][5] = b1;
  warpsync();
  float out[4];
  for (int r = 0; r < 4; ++r) {
    int row = l / 4 + 8 * (r >> 1), col = 2 * (l % 4) + (r & 1);
    float s = c[r];
    for (int k = 0; k < 16; ++k) {
      int al = (row % 8) * 4 + (k % 8) / 2, areg = (row >= 8 ? 1 : 0) + (k >= 8 ? 2 : 0);
      int bl = col * 4 + (k % 8) / 2, breg = 4 + (k >= 8 ? 1 : 0);
      float av = toFloat(ts_half(g_xu[w * 32 + al][areg], k % 2));
      float bv = toFloat(ts_half(g_xu[w * 32 + bl][breg], k % 2));
      s += av * bv;
    }
    out[r] = s;
  }
  warpsync();
  for (int r = 0; r < 4; ++r) c[r] = out[r];
}
TS_DEV void ts_mma16816_f16(float* c, const ts_u32* a, ts_u32 b0, ts_u32 b1) { mma16816(c, a, b0, b1, ts_h2f); }
TS_DEV ts_u32 ts_pack_f16(float lo, float hi) { return ts_pack2(ts_f2h(lo), ts_f2h(hi)); }
TS_DEV ts_u16 ts_f2b(float x) { ts_u32 u; memcpy(&u, &x, 4); u += 0x7fff + ((u >> 16) & 1); return (ts_u16)(u >> 16); }
TS_DEV float ts_b2f(ts_u16 b) { ts_u32 u = (ts_u32)b << 16; float f; memcpy(&f, &u, 4); return f; }
TS_DEV ts_u32 ts_pack_bf16(float lo, float hi) { return ts_pack2(ts_f2b(lo), ts_f2b(hi)); }
TS_DEV void ts_mma16816_bf16(float* c, const ts_u32* a, ts_u32 b0, ts_u32 b1) { mma16816(c, a, b0, b1, ts_b2f); }
template <class M, int V> TS_DEV bool ts_vec_ok(M* const (&p)[V], const bool (&m)[V]) {
  bool ok = ts_vec_ok(p);
  for (int k = 0; k < V; ++k) ok = ok & m[k];
  return ok;
}

// ---- Hopper: warpgroup MMA (wgmma) ----
TS_DEV unsigned ts_shared_addr(const void* p) { return (unsigned)((const unsigned char*)p - g_smem); }
TS_DEV void ts_fence_async_shared() {}
TS_DEV void ts_wgmma_fence() {}
TS_DEV void ts_wgmma_commit() {}
template <int N> TS_DEV void ts_wgmma_wait() {}
TS_DEV void ts_hold_register(float&) {}
static inline ts_u64 wg_desc(unsigned addr, unsigned leading, unsigned stride, ts_u64 mode) {
  return (ts_u64)((addr & 0x3FFFFu) >> 4) | ((ts_u64)(leading >> 4) << 16) | ((ts_u64)(stride >> 4) << 32) | (mode << 62);
}
TS_DEV ts_u64 ts_wgmma_desc(unsigned addr, unsigned leading, unsigned stride) { return wg_desc(addr, leading, stride, 1); }
TS_DEV ts_u64 ts_wgmma_desc_64b(unsigned addr, unsigned leading, unsigned stride) { return wg_desc(addr, leading, stride, 2); }
TS_DEV ts_u64 ts_wgmma_desc_32b(unsigned addr, unsigned leading, unsigned stride) { return wg_desc(addr, leading, stride, 3); }
static inline void groupsync() { g_group[tid() >> 7]->arrive_and_wait(); }
// The descriptor's swizzle width W in bytes: mode 1 128B, 2 64B, 3 32B (0, no swizzle, unused here).
static inline unsigned wg_width(ts_u64 desc) {
  const unsigned mode = (unsigned)(desc >> 62);
  if (mode == 0) { printf("wgmma: a descriptor without swizzle\n"); std::abort(); }
  return 256u >> mode;
}
// The 16-bit element at byte offset `off` from the descriptor's start, through its swizzle: the
// 16-byte chunk bits 4.. (log2(W) - 4 of them) XORed with the same number of bits from bit 7 up.
static inline ts_u16 wg_load(ts_u64 desc, unsigned off) {
  unsigned addr = (unsigned)((desc & 0x3FFFu) << 4) + off;
  const unsigned chunkMask = wg_width(desc) / 16 - 1;
  addr ^= ((addr >> 7) & chunkMask) << 4;
  ts_u16 v;
  memcpy(&v, g_smem + addr, 2);
  return v;
}
static inline unsigned wg_lbo(ts_u64 d) { return (unsigned)((d >> 16) & 0x3FFFu) << 4; }
static inline unsigned wg_sbo(ts_u64 d) { return (unsigned)((d >> 32) & 0x3FFFu) << 4; }
static ts_u32 g_wa[1024][4];
static ts_u64 g_wdesc[1024][2];
// d (N/2 registers a thread) += A (64 x 16) * B (16 x N): A from `a` (registers) or `adesc` (K-major),
// B K-major (N rows of K) or MN-major (K rows of N).
template <int N> TS_DEV void wg_mma(float* d, const ts_u32* a, ts_u64 adesc, ts_u64 bdesc, bool bMn, bool bf16) {
  const int t = tid(), base = t & ~127;
  if (a)
    for (int i = 0; i < 4; ++i) g_wa[t][i] = a[i];
  g_wdesc[t][0] = adesc;
  g_wdesc[t][1] = bdesc;
  groupsync();
  auto conv = [&](ts_u16 x) { return bf16 ? ts_b2f(x) : ts_h2f(x); };
  auto A = [&](int m, int k) -> float {
    const ts_u64 ad = g_wdesc[base][0];
    if (!a) return conv(wg_load(ad, (unsigned)(m / 8) * wg_sbo(ad) + (m % 8) * wg_width(ad) + 2 * k));
    const int warp = m / 16, g = m % 8, reg = ((m % 16) >= 8 ? 1 : 0) + (k >= 8 ? 2 : 0);
    const int lane = g * 4 + (k % 8) / 2;
    return conv(ts_half(g_wa[base + warp * 32 + lane][reg], k % 2));
  };
  auto B = [&](int k, int n) -> float {
    const ts_u64 bd = g_wdesc[base][1];
    const unsigned w = wg_width(bd), atom = w / 2;  // atom: elements along N per row of the swizzle
    if (!bMn) return conv(wg_load(bd, (unsigned)(n / 8) * wg_sbo(bd) + (n % 8) * w + 2 * k));
    return conv(wg_load(bd, (unsigned)(n / atom) * wg_lbo(bd) + (unsigned)(k / 8) * wg_sbo(bd) + (k % 8) * w + 2 * (n % atom)));
  };
  float out[N / 2];
  const int warp = (t & 127) >> 5, l = t & 31;
  for (int r = 0; r < N / 2; ++r) {
    const int row = 16 * warp + l / 4 + 8 * ((r & 3) >> 1), col = 8 * (r >> 2) + 2 * (l % 4) + (r & 1);
    float s = d[r];
    for (int k = 0; k < 16; ++k) s += A(row, k) * B(k, col);
    out[r] = s;
  }
  groupsync();
  for (int r = 0; r < N / 2; ++r) d[r] = out[r];
}
// The wrappers the emitter generates (their text is in the prelude the test strips), by name.
#define TS_WG(n, e, bf)                                                                                                 \
  TS_DEV void ts_wgmma_ra_m64n##n##_##e(float (&d)[n / 2], const ts_u32* a, ts_u64 b) { wg_mma<n>(d, a, 0, b, false, bf); } \
  TS_DEV void ts_wgmma_ra_m64n##n##_##e##_t(float (&d)[n / 2], const ts_u32* a, ts_u64 b) { wg_mma<n>(d, a, 0, b, true, bf); } \
  TS_DEV void ts_wgmma_m64n##n##_##e(float (&d)[n / 2], ts_u64 a, ts_u64 b) { wg_mma<n>(d, nullptr, a, b, true, bf); }     \
  TS_DEV void ts_wgmma_m64n##n##_##e##_kb(float (&d)[n / 2], ts_u64 a, ts_u64 b) { wg_mma<n>(d, nullptr, a, b, false, bf); }
TS_WG(32, f16, false)
TS_WG(64, f16, false)
TS_WG(128, f16, false)
TS_WG(32, bf16, true)
TS_WG(64, bf16, true)
TS_WG(128, bf16, true)

// Runs `body` on `threads` emulated CUDA threads for each program of a programsX x programsY grid,
// one program after another, with the block, warp and warpgroup barriers set up for them.
template <class F> static void emulateGrid(int programsX, int programsY, int threads, F body) {
  std::barrier<> block(threads);
  g_block = &block;
  for (int w = 0; w < threads / 32; ++w) g_warp[w] = new std::barrier<>(32);
  for (int g = 0; g < (threads + 127) / 128; ++g) g_group[g] = new std::barrier<>(threads < 128 ? threads : 128);
  for (int by = 0; by < programsY; ++by)
    for (int bx = 0; bx < programsX; ++bx) {
      std::vector<std::thread> ts;
      for (int t = 0; t < threads; ++t)
        ts.emplace_back([&, t] {
          threadIdx.x = t;
          blockIdx.x = bx;
          blockIdx.y = by;
          body();
        });
      for (auto& t : ts) t.join();
    }
}
