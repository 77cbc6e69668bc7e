#pragma once
// The int8 tensor-core helpers (wmma s8 m16n16k16 with s32 accumulators) on the CPU, beside
// WarpEmulation.h, for Int8Dot's emulated run of a generated int8 matmul. wmma's fragment layouts
// are opaque in the PTX ISA, so this picks one that loads, multiplies and stores agree on (lane l
// holds row l / 2, columns 8 (l % 2) .. + 7 of each 16 x 16 matrix): the run checks the emitter's
// staging, padding, warp blocks, ring slots and barriers, and the exact int32 (wrapping) sums.
#include "WarpEmulation.h"

#define __builtin_assume(x) ((void)0)  // a hint to NVRTC only

TS_DEV void ts_cp_async16_if(void* dst, const void* src, bool copy) {
  if (copy) memcpy(dst, src, 16);
}
static ts_u32 g_s8[1024][4];
static int g_s32[1024][8];
// 8 consecutive elements of row l / 2 (column 8 (l % 2)) of a 16 x 16 matrix at p with row stride ld.
template <class T> static inline const T* s8Row(const void* p, int ld) {
  const int l = tid() & 31;
  return (const T*)p + (l / 2) * ld + 8 * (l % 2);
}
TS_DEV void ts_wmma_load_a_s8(unsigned (&r)[2], const void* p, int ld) { memcpy(r, s8Row<ts_i8>(p, ld), 8); }
TS_DEV void ts_wmma_load_b_s8(unsigned (&r)[2], const void* p, int ld) { memcpy(r, s8Row<ts_i8>(p, ld), 8); }
TS_DEV void ts_wmma_load_c(const int* p, int (&d)[8], int ld) { memcpy(d, s8Row<int>(p, ld), 32); }
TS_DEV void ts_wmma_store(int* p, const int (&d)[8], int ld) { memcpy((int*)s8Row<int>(p, ld), d, 32); }
// d (row l / 2, columns 8 (l % 2) ..) += A B over the warp's fragments, wrapping as int32 does.
TS_DEV void ts_wmma_mma_s8(int (&d)[8], const unsigned (&a)[2], const unsigned (&b)[2]) {
  const int w = tid() >> 5, l = tid() & 31;
  g_s8[tid()][0] = a[0]; g_s8[tid()][1] = a[1]; g_s8[tid()][2] = b[0]; g_s8[tid()][3] = b[1];
  warpsync();
  auto A = [&](int m, int k) { return (int)((const ts_i8*)&g_s8[w * 32 + 2 * m + k / 8][0])[k % 8]; };
  auto B = [&](int k, int n) { return (int)((const ts_i8*)&g_s8[w * 32 + 2 * k + n / 8][2])[n % 8]; };
  for (int j = 0; j < 8; ++j) {
    ts_u32 s = (ts_u32)d[j];
    for (int k = 0; k < 16; ++k) s += (ts_u32)(A(l / 2, k) * B(k, 8 * (l % 2) + j));
    g_s32[tid()][j] = (int)s;
  }
  warpsync();
  memcpy(d, g_s32[tid()], 32);
}
