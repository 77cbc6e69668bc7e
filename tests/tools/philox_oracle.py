#!/usr/bin/env python3
"""Independent oracle for core/sim/Philox: Triton's random.py re-done with Python integers.

Pure Python (numpy is not needed): fp32 rounding is emulated with struct. Run it to print the
values that tests/sim/PhiloxTest.cpp checks against:

    python3 tests/tools/philox_oracle.py

It follows triton/language/random.py step by step: philox_impl (key bumped after every round),
philox (seed split into lo/hi 32-bit keys for 32-bit offsets; key = (seed, 0) for 64-bit ones),
uint_to_uniform_float and pair_uniform_to_normal (fp32 at every step).
"""
import math
import struct

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def philox(c, k, rounds, bits):
    if bits == 32:
        ra, rb, ka, kb, m = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85, M32
    else:
        ra, rb, ka, kb, m = 0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B, M64
    c0, c1, c2, c3 = c
    k0, k1 = k
    for _ in range(rounds):
        _c0, _c2 = c0, c2
        c0 = ((rb * _c2) >> bits) ^ c1 ^ k0
        c2 = ((ra * _c0) >> bits) ^ c3 ^ k1
        c1 = (rb * _c2) & m
        c3 = (ra * _c0) & m
        k0 = (k0 + ka) & m
        k1 = (k1 + kb) & m
    return c0, c1, c2, c3


def randint4x(seed, offset, bits=32, rounds=10):
    seed &= M64  # seed.to(tl.uint64): negative Python ints wrap like a sign extension
    if bits == 32:
        return philox((offset & M32, 0, 0, 0), (seed & M32, seed >> 32), rounds, 32)
    return philox((offset & M64, 0, 0, 0), (seed, 0), rounds, 64)


def uint_to_uniform(x, bits=32):
    if bits == 32:
        s = x - (1 << 32) if x >= 1 << 31 else x
        scale = f32(4.6566127342e-10)
    else:
        s = x - (1 << 64) if x >= 1 << 63 else x
        scale = f32(1.0842020432385337e-19)
    if s < 0:
        s = -s - 1
    return f32(f32(float(s)) * scale)


def pair_uniform_to_normal(u1, u2):
    u1 = max(f32(1.0e-7), u1)
    th = f32(f32(6.283185307179586) * u2)
    r = f32(math.sqrt(f32(-2.0 * f32(math.log(u1)))))
    return f32(r * f32(math.cos(th)))


def main():
    print('KAT philox4x32-10')
    for c, k in [((0, 0, 0, 0), (0, 0)), ((M32,) * 4, (M32, M32)),
                 ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0))]:
        print('  ', ' '.join('%08x' % v for v in philox(c, k, 10, 32)))
    print('KAT philox4x64-10')
    for c, k in [((0, 0, 0, 0), (0, 0)), ((M64,) * 4, (M64, M64)),
                 ((0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89),
                  (0x452821e638d01377, 0xbe5466cf34e90c6c))]:
        print('  ', ' '.join('%016x' % v for v in philox(c, k, 10, 64)))
    print('randint4x32(seed, offset)')
    for seed, off in [(0, 0), (42, 0), (42, 1), (42, 7), (123456789, 1000), (-1, 5), (0x1234567890ABCDEF, 3)]:
        print('  seed=%d offset=%d ->' % (seed, off), ' '.join('0x%08x' % v for v in randint4x(seed, off)))
    print('randint4x64(seed, offset)')
    for seed, off in [(42, 0), (42, 1 << 40)]:
        print('  seed=%d offset=%d ->' % (seed, off), ' '.join('0x%016x' % v for v in randint4x(seed, off, 64)))
    print('rand / randn (32-bit offsets), as float32 hex')
    for seed, off in [(42, 0), (42, 1), (42, 7), (123456789, 1000), (7, 3)]:
        i1, i2, _, _ = randint4x(seed, off)
        u = uint_to_uniform(i1)
        n = pair_uniform_to_normal(uint_to_uniform(i1), uint_to_uniform(i2))
        print('  seed=%d offset=%d rand=%r (%s) randn=%r (%s)' % (
            seed, off, u, struct.pack('>f', u).hex(), n, struct.pack('>f', n).hex()))
    print('rand (64-bit offset)')
    i1 = randint4x(42, 1 << 40, 64)[0]
    u = uint_to_uniform(i1, 64)
    print('  seed=42 offset=2^40 rand=%r (%s)' % (u, struct.pack('>f', u).hex()))


if __name__ == '__main__':
    main()
