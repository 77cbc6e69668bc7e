#include "core/gpu/codegen/CudaPrelude.h"

namespace tilescope::gpu {

namespace {

// Every helper is __device__ __forceinline__ and named ts_*; generated code uses nothing else from
// here. Register types: fp16/bf16 values live in a float holding an exactly representable value.
constexpr std::string_view kPrelude = R"CUDA(// ---- tilescope prelude (core/gpu/codegen/CudaPrelude.cpp) ----
typedef signed char ts_i8;
typedef short ts_i16;
typedef int ts_i32;
typedef long long ts_i64;
typedef unsigned char ts_u8;
typedef unsigned short ts_u16;
typedef unsigned int ts_u32;
typedef unsigned long long ts_u64;
#define TS_DEV __device__ __forceinline__

// fp16 / bf16 <-> float (round to nearest even; NaN -> 0x7FFF like cvt.rn)
TS_DEV float ts_h2f(ts_u16 h) { float r; asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(h)); return r; }
TS_DEV ts_u16 ts_f2h(float x) { ts_u16 h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); return h; }
TS_DEV ts_u16 ts_f2h_rz(float x) { ts_u16 h; asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); return h; }
TS_DEV ts_u16 ts_d2h(double x) { ts_u16 h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(x)); return h; }
TS_DEV float ts_b2f(ts_u16 b) { return __uint_as_float(((ts_u32)b) << 16); }
TS_DEV ts_u16 ts_f2b(float x) { ts_u16 h; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(x)); return h; }
TS_DEV ts_u16 ts_f2b_rz(float x) {
  const ts_u32 u = __float_as_uint(x);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (ts_u16)0x7FFF;
  return (ts_u16)(u >> 16);
}
// double -> bf16 rounded once: round to odd in fp32 first (24 >= 8 + 2 bits), then to nearest.
TS_DEV ts_u16 ts_d2b(double x) {
  float f; asm("cvt.rz.f32.f64 %0, %1;" : "=f"(f) : "d"(x));
  if ((double)f != x && !(x != x) && !isinf(f)) f = __uint_as_float(__float_as_uint(f) | 1u);
  return ts_f2b(f);
}
TS_DEV float ts_rh(float x) { return ts_h2f(ts_f2h(x)); }
TS_DEV float ts_rb(float x) { return ts_b2f(ts_f2b(x)); }
TS_DEV float ts_rh_d(double x) { return ts_h2f(ts_d2h(x)); }
TS_DEV float ts_rb_d(double x) { return ts_b2f(ts_d2b(x)); }
TS_DEV float ts_tf32(float x) { ts_u32 r; asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x)); return __uint_as_float(r); }

// C integer division/remainder; x // 0 = -1 (all bits), x % 0 = x, MIN // -1 wraps.
template <class T, class U> TS_DEV T ts_sdiv(T a, T b) {
  if (b == 0) return (T)-1;
  if (b == (T)-1) return (T)(U)((U)0 - (U)a);
  return (T)(a / b);
}
template <class T> TS_DEV T ts_smod(T a, T b) {
  if (b == 0) return a;
  if (b == (T)-1) return (T)0;
  return (T)(a % b);
}
template <class T> TS_DEV T ts_udiv(T a, T b) { return b == 0 ? (T)~(T)0 : (T)(a / b); }
template <class T> TS_DEV T ts_umod(T a, T b) { return b == 0 ? a : (T)(a % b); }
// Shifts: the amount read as unsigned; >= width shifts everything out.
template <class T, class U> TS_DEV T ts_shl(T a, T b, int bits) {
  const U s = (U)b;
  return s >= (U)bits ? (T)0 : (T)(U)((ts_u64)(U)a << s);
}
template <class T, class U> TS_DEV T ts_shr_s(T a, T b, int bits) {
  const U s = (U)b;
  return s >= (U)bits ? (a < 0 ? (T)-1 : (T)0) : (T)(a >> s);
}
template <class T, class U> TS_DEV T ts_shr_u(T a, T b, int bits) {
  const U s = (U)b;
  return s >= (U)bits ? (T)0 : (T)(a >> s);
}

// float -> integer: truncate, NaN -> 0, saturate.
TS_DEV ts_i64 ts_f2s(double x, double lo, double hi, ts_i64 lov, ts_i64 hiv) {
  if (x != x) return 0;
  x = trunc(x);
  if (x <= lo) return lov;
  if (x >= hi) return hiv;
  return (ts_i64)x;
}
TS_DEV ts_u64 ts_f2u(double x, double hi, ts_u64 hiv) {
  if (x != x) return 0;
  x = trunc(x);
  if (x <= 0) return 0;
  if (x >= hi) return hiv;
  return (ts_u64)x;
}

TS_DEV float ts_maxnan(float a, float b) { return (a != a || b != b) ? __int_as_float(0x7FC00000) : fmaxf(a, b); }
TS_DEV float ts_minnan(float a, float b) { return (a != a || b != b) ? __int_as_float(0x7FC00000) : fminf(a, b); }
TS_DEV double ts_maxnan(double a, double b) { return (a != a || b != b) ? __longlong_as_double(0x7FF8000000000000LL) : fmax(a, b); }
TS_DEV double ts_minnan(double a, double b) { return (a != a || b != b) ? __longlong_as_double(0x7FF8000000000000LL) : fmin(a, b); }

// Philox 4x32 / 4x64 (triton.language.random).
struct ts_u32x4 { ts_u32 v[4]; };
struct ts_u64x4 { ts_u64 v[4]; };
TS_DEV ts_u32x4 ts_philox32(ts_u64 seed, ts_u32 offset, int rounds) {
  ts_u32 c0 = offset, c1 = 0, c2 = 0, c3 = 0, k0 = (ts_u32)seed, k1 = (ts_u32)(seed >> 32);
  for (int r = 0; r < rounds; ++r) {
    const ts_u32 a0 = c0, a2 = c2;
    c0 = __umulhi(0xCD9E8D57u, a2) ^ c1 ^ k0;
    c2 = __umulhi(0xD2511F53u, a0) ^ c3 ^ k1;
    c1 = 0xCD9E8D57u * a2;
    c3 = 0xD2511F53u * a0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  ts_u32x4 out = {{c0, c1, c2, c3}};
  return out;
}
TS_DEV ts_u64x4 ts_philox64(ts_u64 seed, ts_u64 offset, int rounds) {
  ts_u64 c0 = offset, c1 = 0, c2 = 0, c3 = 0, k0 = seed, k1 = 0;
  for (int r = 0; r < rounds; ++r) {
    const ts_u64 a0 = c0, a2 = c2;
    c0 = __umul64hi(0xCA5A826395121157ull, a2) ^ c1 ^ k0;
    c2 = __umul64hi(0xD2E7470EE14C6C93ull, a0) ^ c3 ^ k1;
    c1 = 0xCA5A826395121157ull * a2;
    c3 = 0xD2E7470EE14C6C93ull * a0;
    k0 += 0x9E3779B97F4A7C15ull;
    k1 += 0xBB67AE8584CAA73Bull;
  }
  ts_u64x4 out = {{c0, c1, c2, c3}};
  return out;
}
TS_DEV float ts_uniform32(ts_u32 x) {
  ts_i32 s = (ts_i32)x;
  if (s < 0) s = -s - 1;
  return (float)s * 4.6566127342e-10f;
}
TS_DEV float ts_uniform64(ts_u64 x) {
  ts_i64 s = (ts_i64)x;
  if (s < 0) s = -(s + 1);
  return (float)s * 1.0842020432385337e-19f;
}
TS_DEV float ts_normal(float u1, float u2) {
  u1 = fmaxf(1.0e-7f, u1);
  const float th = 6.283185307179586f * u2;
  const float r = sqrtf(-2.0f * logf(u1));
  return r * cosf(th);
}

TS_DEV float ts_randn32(ts_u64 s, ts_u32 o, int r) {
  const ts_u32x4 x = ts_philox32(s, o, r);
  return ts_normal(ts_uniform32(x.v[0]), ts_uniform32(x.v[1]));
}
TS_DEV float ts_randn64(ts_u64 s, ts_u64 o, int r) {
  const ts_u64x4 x = ts_philox64(s, o, r);
  return ts_normal(ts_uniform64(x.v[0]), ts_uniform64(x.v[1]));
}

// Atomics of any 32/64-bit type through a CAS loop on the bits.
template <int N> struct ts_word;
template <> struct ts_word<4> { typedef unsigned int type; };
template <> struct ts_word<8> { typedef unsigned long long type; };
template <class T> TS_DEV typename ts_word<sizeof(T)>::type ts_bits(T v) {
  typename ts_word<sizeof(T)>::type b; memcpy(&b, &v, sizeof(T)); return b;
}
template <class T> TS_DEV T ts_from_bits(typename ts_word<sizeof(T)>::type b) { T v; memcpy(&v, &b, sizeof(T)); return v; }
template <class T, class F> TS_DEV T ts_atomic_rmw(T* p, T v, F f) {
  typedef typename ts_word<sizeof(T)>::type W;
  W* a = (W*)p;
  W old = *(volatile W*)a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, ts_bits<T>(f(ts_from_bits<T>(assumed), v)));
  } while (old != assumed);
  return ts_from_bits<T>(old);
}
template <class T> TS_DEV T ts_atomic_cas(T* p, T cmp, T v) {
  typedef typename ts_word<sizeof(T)>::type W;
  return ts_from_bits<T>(atomicCAS((W*)p, ts_bits<T>(cmp), ts_bits<T>(v)));
}
struct ts_op_add { template <class T> TS_DEV T operator()(T a, T b) const { return (T)(a + b); } };
struct ts_op_max { template <class T> TS_DEV T operator()(T a, T b) const { return a > b ? a : b; } };
struct ts_op_min { template <class T> TS_DEV T operator()(T a, T b) const { return a < b ? a : b; } };
struct ts_op_fmax { template <class T> TS_DEV T operator()(T a, T b) const { return fmax(a, b); } };
struct ts_op_fmin { template <class T> TS_DEV T operator()(T a, T b) const { return fmin(a, b); } };
struct ts_op_xchg { template <class T> TS_DEV T operator()(T, T b) const { return b; } };
struct ts_op_and { template <class T> TS_DEV T operator()(T a, T b) const { return (T)(a & b); } };
struct ts_op_or { template <class T> TS_DEV T operator()(T a, T b) const { return (T)(a | b); } };
struct ts_op_xor { template <class T> TS_DEV T operator()(T a, T b) const { return (T)(a ^ b); } };

// Vector accesses of V consecutive memory elements (tile loads/stores of the blocked layout): in
// chunks of up to 16 bytes, used only when ts_vec_ok holds (consecutive pointers, the first aligned
// to the chunk, every mask true).
template <int B> struct ts_raw;
template <> struct ts_raw<2> { typedef unsigned short type; };
template <> struct ts_raw<4> { typedef unsigned int type; };
template <> struct ts_raw<8> { typedef uint2 type; };
template <> struct ts_raw<16> { typedef uint4 type; };
template <class M, int V> struct ts_vec {
  enum { bytes = (int)sizeof(M) * V, chunk = bytes < 16 ? bytes : 16, chunks = bytes / chunk };
  typedef typename ts_raw<chunk>::type R;
};
template <class M, int V> TS_DEV bool ts_vec_ok(M* const (&p)[V]) {
  bool ok = ((ts_u64)p[0] & (ts_u64)(ts_vec<M, V>::chunk - 1)) == 0;
#pragma unroll
  for (int k = 1; k < V; ++k) ok = ok & (p[k] == p[0] + k);
  return ok;
}
template <class M, int V> TS_DEV bool ts_vec_ok(M* const (&p)[V], const bool (&m)[V]) {
  bool ok = ts_vec_ok(p);
#pragma unroll
  for (int k = 0; k < V; ++k) ok = ok & m[k];
  return ok;
}
// The accesses themselves are inline PTX (volatile, "memory" clobber): NVVM cannot split them back
// into scalar accesses or move them across other memory accesses.
TS_DEV void ts_ld_raw(const void* p, uint4& r) {
  asm volatile("ld.global.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p) : "memory");
}
TS_DEV void ts_ld_raw(const void* p, uint2& r) { asm volatile("ld.global.v2.b32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "l"(p) : "memory"); }
TS_DEV void ts_ld_raw(const void* p, unsigned int& r) { asm volatile("ld.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory"); }
TS_DEV void ts_ld_raw(const void* p, unsigned short& r) { asm volatile("ld.global.b16 %0, [%1];" : "=h"(r) : "l"(p) : "memory"); }
TS_DEV void ts_st_raw(void* p, const uint4& r) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(r.x), "r"(r.y), "r"(r.z), "r"(r.w) : "memory");
}
TS_DEV void ts_st_raw(void* p, const uint2& r) { asm volatile("st.global.v2.b32 [%0], {%1, %2};" :: "l"(p), "r"(r.x), "r"(r.y) : "memory"); }
TS_DEV void ts_st_raw(void* p, const unsigned int& r) { asm volatile("st.global.b32 [%0], %1;" :: "l"(p), "r"(r) : "memory"); }
TS_DEV void ts_st_raw(void* p, const unsigned short& r) { asm volatile("st.global.b16 [%0], %1;" :: "l"(p), "h"(r) : "memory"); }
template <class M, int V> TS_DEV void ts_vld(const M* p, M (&v)[V]) {
  typedef typename ts_vec<M, V>::R R;
  R r[ts_vec<M, V>::chunks];
#pragma unroll
  for (int c = 0; c < ts_vec<M, V>::chunks; ++c) ts_ld_raw((const R*)p + c, r[c]);
  memcpy(v, r, sizeof(r));
}
// 16-bit elements as loaded, two per 32-bit word: where a branch joins vector-loaded and
// element-wise values, whole words merge, so nothing waits for the load before the join. The
// packing is inline PTX so that NVVM cannot split the words back into halves at the join.
TS_DEV unsigned ts_pack2(ts_u16 lo, ts_u16 hi) {
  unsigned w;
  asm("mov.b32 %0, {%1, %2};" : "=r"(w) : "h"(lo), "h"(hi));
  return w;
}
TS_DEV ts_u16 ts_half(unsigned w, int upper) {
  ts_u16 lo, hi;
  asm("mov.b32 {%0, %1}, %2;" : "=h"(lo), "=h"(hi) : "r"(w));
  return upper ? hi : lo;
}
template <int V> TS_DEV void ts_vld_words(const ts_u16* p, unsigned* w) {
  if (V == 8) {
    uint4 r;
    ts_ld_raw(p, r);
    w[0] = r.x, w[1] = r.y, w[2] = r.z, w[3] = r.w;
  } else if (V == 4) {
    uint2 r;
    ts_ld_raw(p, r);
    w[0] = r.x, w[1] = r.y;
  } else {
    ts_ld_raw(p, w[0]);
  }
}
// The same under a predicate instead of a branch (as Triton's masked loads): one basic block, so
// ptxas may schedule the loads next to their use; where c is false the words keep their values.
template <int V> TS_DEV void ts_vld_words_if(const ts_u16* p, unsigned* w, bool c) {
  if (V == 8) {
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %5, 0;\n @q ld.global.v4.b32 {%0, %1, %2, %3}, [%4];\n}"
                 : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "l"(p), "r"((int)c) : "memory");
  } else if (V == 4) {
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %3, 0;\n @q ld.global.v2.b32 {%0, %1}, [%2];\n}"
                 : "+r"(w[0]), "+r"(w[1]) : "l"(p), "r"((int)c) : "memory");
  } else {
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n @q ld.global.b32 %0, [%1];\n}" : "+r"(w[0]) : "l"(p), "r"((int)c) : "memory");
  }
}
template <class M, int V> TS_DEV void ts_vst(M* p, const M (&v)[V]) {
  typedef typename ts_vec<M, V>::R R;
  R r[ts_vec<M, V>::chunks];
  memcpy(r, v, sizeof(r));
#pragma unroll
  for (int c = 0; c < ts_vec<M, V>::chunks; ++c) ts_st_raw((R*)p + c, r[c]);
}

// The store under a predicate instead of a branch (16-byte chunks: V elements of M).
TS_DEV void ts_st_raw_if(void* p, const uint4& r, bool c) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %5, 0;\n @q st.global.v4.b32 [%0], {%1, %2, %3, %4};\n}"
               :: "l"(p), "r"(r.x), "r"(r.y), "r"(r.z), "r"(r.w), "r"((int)c) : "memory");
}
TS_DEV void ts_st_raw_if(void* p, const uint2& r, bool c) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %3, 0;\n @q st.global.v2.b32 [%0], {%1, %2};\n}"
               :: "l"(p), "r"(r.x), "r"(r.y), "r"((int)c) : "memory");
}
TS_DEV void ts_st_raw_if(void* p, const unsigned int& r, bool c) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n @q st.global.b32 [%0], %1;\n}" :: "l"(p), "r"(r), "r"((int)c) : "memory");
}
TS_DEV void ts_st_raw_if(void* p, const unsigned short& r, bool c) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n @q st.global.b16 [%0], %1;\n}" :: "l"(p), "h"(r), "r"((int)c) : "memory");
}
template <class M, int V> TS_DEV void ts_vst_if(M* p, const M (&v)[V], bool c) {
  typedef typename ts_vec<M, V>::R R;
  R r[ts_vec<M, V>::chunks];
  memcpy(r, v, sizeof(r));
#pragma unroll
  for (int k = 0; k < ts_vec<M, V>::chunks; ++k) ts_st_raw_if((R*)p + k, r[k], c);
}

// x / y correctly rounded, as `/` (div.rn.f32), for a tile divided by one scalar y: r = ts_rcp1(y)
// is computed once, and where both operands lie in (2^-60, 2^60) (every step normal, far from
// overflow) the quotient is the fast path of CUDA's own division, the same instructions, which that
// division takes there too; elsewhere the division itself, out of line. In line, each division's
// slow-path call kept the next one from starting.
TS_DEV float ts_rcp1(float y) {
  const float r = __fdividef(1.0f, y);  // the hardware's approximate reciprocal
  return __fmaf_rn(r, __fmaf_rn(-y, r, 1.0f), r);
}
__device__ __noinline__ float ts_div_slow(float x, float y) { return x / y; }
TS_DEV float ts_div_by(float x, float y, float r) {
  const float q0 = __fmaf_rn(x, r, 0.0f);
  const float q = __fmaf_rn(r, __fmaf_rn(-y, q0, x), q0);
  const float ax = fabsf(x), ay = fabsf(y);
  return ax > 0x1p-60f && ax < 0x1p60f && ay > 0x1p-60f && ay < 0x1p60f ? q : ts_div_slow(x, y);
}

// Shared-memory index with one padding word per 32 (reductions that read with a power-of-two stride).
TS_DEV int ts_pad(int i) { return i + (i >> 5); }

// tl.where on tiles: both arms are pure and evaluated as arguments, then selected, so that an arm
// with inline PTX (fp16 conversions) costs no branch per element.
template <class T> TS_DEV T ts_sel(bool c, T a, T b) { return c ? a : b; }

// Warp shuffles of register values (tree reductions).
TS_DEV float ts_shfl_xor(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
TS_DEV double ts_shfl_xor(double v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
template <class T> TS_DEV T ts_shfl_xor(T v, int m) {
  if (sizeof(T) > 4) return (T)__shfl_xor_sync(0xffffffffu, (long long)v, m);
  return (T)__shfl_xor_sync(0xffffffffu, (int)v, m);
}

// Reports the first failure (assertion, zero loop step) of the launch: code, then the program id.
TS_DEV void ts_fail(ts_u32* status, ts_u32 code) {
  if (atomicCAS(status, 0u, code) == 0u) {
    status[1] = blockIdx.x; status[2] = blockIdx.y; status[3] = blockIdx.z;
    __threadfence_system();
  }
}
// ---- end of prelude ----
)CUDA";

// Fragments are opaque register sets: 8 x f16x2 for A and B, 8 x f32 for the accumulator. Strides
// are in elements; pointers are generic addresses of shared memory.
constexpr std::string_view kTensorCorePrelude = R"CUDA(// ---- tensor cores (core/gpu/codegen/CudaPrelude.cpp) ----
// The operands live in shared memory: .shared addressing lets ptxas use LDSM / STS, where generic
// addresses would give one generic load per register.
TS_DEV unsigned ts_shared_addr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
// cp.async (sm_80+): 16 bytes global -> shared without registers; groups complete in order.
TS_DEV void ts_cp_async16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(ts_shared_addr(dst)), "l"(src) : "memory");
}
// The same where `copy` is true, as one predicated instruction (no branch around it).
TS_DEV void ts_cp_async16_if(void* dst, const void* src, bool copy) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\n@p cp.async.cg.shared.global [%0], [%1], 16;\n}\n" ::"r"(ts_shared_addr(dst)),
               "l"(src), "r"((int)copy)
               : "memory");
}
TS_DEV void ts_cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> TS_DEV void ts_cp_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }
// A and B fragments of m16n16k16 (f16: 8 registers, bf16: 4) and m16n16k8 (tf32: 4); fp32 accumulators.
#define TS_WMMA_LOAD8(NAME, OP)                                                                                 \
  TS_DEV void NAME(unsigned (&r)[8], const void* p, int ld) {                                                  \
    asm volatile(OP " {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], %9;"                                                  \
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]) \
                 : "r"(ts_shared_addr(p)), "r"(ld));                                                            \
  }
#define TS_WMMA_LOAD4(NAME, OP)                                                          \
  TS_DEV void NAME(unsigned (&r)[4], const void* p, int ld) {                           \
    asm volatile(OP " {%0,%1,%2,%3}, [%4], %5;"                                        \
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                       \
                 : "r"(ts_shared_addr(p)), "r"(ld));                                     \
  }
TS_WMMA_LOAD8(ts_wmma_load_a_f16, "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16")
TS_WMMA_LOAD8(ts_wmma_load_b_f16, "wmma.load.b.sync.aligned.row.m16n16k16.shared.f16")
TS_WMMA_LOAD4(ts_wmma_load_a_bf16, "wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16")
TS_WMMA_LOAD4(ts_wmma_load_b_bf16, "wmma.load.b.sync.aligned.row.m16n16k16.shared.bf16")
TS_WMMA_LOAD4(ts_wmma_load_a_tf32, "wmma.load.a.sync.aligned.row.m16n16k8.shared.tf32")
TS_WMMA_LOAD4(ts_wmma_load_b_tf32, "wmma.load.b.sync.aligned.row.m16n16k8.shared.tf32")
TS_DEV void ts_wmma_mma_f16(float (&d)[8], const unsigned (&a)[8], const unsigned (&b)[8]) {
  asm volatile("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, "
               "{%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17,%18,%19,%20,%21,%22,%23}, {%0,%1,%2,%3,%4,%5,%6,%7};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]),
                 "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
#define TS_WMMA_MMA4(NAME, OP)                                                                                       \
  TS_DEV void NAME(float (&d)[8], const unsigned (&a)[4], const unsigned (&b)[4]) {                                 \
    asm volatile(OP " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3,%4,%5,%6,%7};"   \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]));        \
  }
TS_WMMA_MMA4(ts_wmma_mma_bf16, "wmma.mma.sync.aligned.row.row.m16n16k16.f32.bf16.bf16.f32")
TS_WMMA_MMA4(ts_wmma_mma_tf32, "wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32")
TS_DEV void ts_wmma_load_c(const float* p, float (&d)[8], int ld) {
  asm volatile("wmma.load.c.sync.aligned.row.m16n16k16.shared.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], %9;"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
               : "r"(ts_shared_addr(p)), "r"(ld)
               : "memory");
}
TS_DEV void ts_wmma_store(float* p, const float (&d)[8], int ld) {
  asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%0], {%1,%2,%3,%4,%5,%6,%7,%8}, %9;"
               :
               : "r"(ts_shared_addr(p)), "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]), "f"(d[4]), "f"(d[5]), "f"(d[6]), "f"(d[7]), "r"(ld)
               : "memory");
}
// ---- end of tensor cores ----
)CUDA";

// int8 tensor-core helpers (sm_72+), after the tensor-core ones, only in kernels with an s8 dot.
constexpr std::string_view kInt8TensorCorePrelude = R"CUDA(// ---- int8 tensor cores (core/gpu/codegen/CudaPrelude.cpp) ----
// int8 operands (sm_72+): m16n16k16 A and B fragments of 2 registers (4 s8 each), s32 accumulators
// that wrap on overflow (no .satfinite), as the simulator's integer sums do.
#define TS_WMMA_LOAD2(NAME, OP)                                                                              \
  TS_DEV void NAME(unsigned (&r)[2], const void* p, int ld) {                                               \
    asm volatile(OP " {%0,%1}, [%2], %3;" : "=r"(r[0]), "=r"(r[1]) : "r"(ts_shared_addr(p)), "r"(ld));      \
  }
TS_WMMA_LOAD2(ts_wmma_load_a_s8, "wmma.load.a.sync.aligned.row.m16n16k16.shared.s8")
TS_WMMA_LOAD2(ts_wmma_load_b_s8, "wmma.load.b.sync.aligned.row.m16n16k16.shared.s8")
TS_DEV void ts_wmma_mma_s8(int (&d)[8], const unsigned (&a)[2], const unsigned (&b)[2]) {
  asm volatile("wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "
               "{%0,%1,%2,%3,%4,%5,%6,%7};"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7])
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]));
}
TS_DEV void ts_wmma_load_c(const int* p, int (&d)[8], int ld) {
  asm volatile("wmma.load.c.sync.aligned.row.m16n16k16.shared.s32 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], %9;"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7])
               : "r"(ts_shared_addr(p)), "r"(ld)
               : "memory");
}
TS_DEV void ts_wmma_store(int* p, const int (&d)[8], int ld) {
  asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.s32 [%0], {%1,%2,%3,%4,%5,%6,%7,%8}, %9;"
               :
               : "r"(ts_shared_addr(p)), "r"(d[0]), "r"(d[1]), "r"(d[2]), "r"(d[3]), "r"(d[4]), "r"(d[5]), "r"(d[6]), "r"(d[7]), "r"(ld)
               : "memory");
}
// ---- end of int8 tensor cores ----
)CUDA";

// Hopper's warpgroup MMA (sm_90a only), added to kernels that use it, before their wgmma wrappers.
constexpr std::string_view kWarpgroupPrelude = R"CUDA(// ---- warpgroup MMA, sm_90a (core/gpu/codegen/CudaPrelude.cpp) ----
// Writes to shared memory by this thread (cp.async, st.shared) become visible to wgmma's reads.
TS_DEV void ts_fence_async_shared() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
TS_DEV void ts_wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
TS_DEV void ts_wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> TS_DEV void ts_wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }
// Keeps the compiler from moving a read of an accumulator above the wait for the multiplies.
TS_DEV void ts_hold_register(float& r) { asm volatile("" : "+f"(r)::"memory"); }
// A shared-memory matrix descriptor with the 128-byte swizzle: start address, leading and stride
// byte offsets, each in 16-byte units.
TS_DEV unsigned long long ts_wgmma_desc(unsigned addr, unsigned leading, unsigned stride) {
  return (unsigned long long)((addr & 0x3FFFFu) >> 4) | ((unsigned long long)(leading >> 4) << 16) |
         ((unsigned long long)(stride >> 4) << 32) | (1ull << 62);
}
)CUDA";

}  // namespace

std::string_view cudaPrelude() { return kPrelude; }
std::string_view cudaTensorCorePrelude() { return kTensorCorePrelude; }
std::string_view cudaWarpgroupPrelude() { return kWarpgroupPrelude; }
std::string_view cudaInt8TensorCorePrelude() { return kInt8TensorCorePrelude; }

}  // namespace tilescope::gpu
