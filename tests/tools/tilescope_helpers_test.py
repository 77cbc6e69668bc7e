#!/usr/bin/env python3
"""tilescope.check and tilescope.load_image (resources/python/tilescope) through `tilescope-cli run`:
each verdict check prints (match, mismatch with the first elements, invalid access with the program,
not solved yet) and the PNG decoder on every row filter.

usage: tilescope_helpers_test.py CLI"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "resources", "python"))
from tilescope.images import decode_png  # noqa: E402  (pure Python: no engine needed)

CHECKS = r'''
import torch, triton, triton.language as tl, tilescope

@triton.jit
def right(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + i, tl.load(x_ptr + i, mask=i < n) * 2, mask=i < n)

@triton.jit
def short(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + i, tl.load(x_ptr + i, mask=i < n - 2) * 2, mask=i < n - 2)

@triton.jit
def unmasked(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + i, tl.load(x_ptr + i) * 2)

@triton.jit
def empty(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """to do"""
    pass

def double_ref(x, out, n):
    out.copy_(x * 2)

x = torch.arange(10, dtype=torch.int32)
for k in (right, short, unmasked, empty):
    tilescope.check(k, double_ref, x, torch.zeros(10, dtype=torch.int32), 10, grid=(3,), BLOCK=4, title=k.__name__)
print("x unchanged:", x.tolist() == list(range(10)))
'''

EXPECTED = [
    "right: Results match",
    "short: short: 2 elements differ from the reference",
    "  out_ptr[8] = 0, expected 16",
    "  out_ptr[9] = 0, expected 18",
    "unmasked: unmasked failed: invalid access",
    "program pid (2, 0, 0)",
    "empty: not solved yet (the body of empty is still empty)",
    "x unchanged: True",
]


def png(width, height, colour, samples, rows, filters):
    """A PNG whose row y is filtered with filters[y] (raw rows given unfiltered)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    out, previous = b"", bytes(width * samples)
    for row, f in zip(rows, filters):
        enc = bytearray()
        for i, v in enumerate(row):
            left = row[i - samples] if i >= samples else 0
            up = previous[i]
            up_left = previous[i - samples] if i >= samples else 0
            if f == 0: pred = 0
            elif f == 1: pred = left
            elif f == 2: pred = up
            elif f == 3: pred = (left + up) >> 1
            else:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
            enc.append((v - pred) & 0xFF)
        out += bytes([f]) + bytes(enc)
        previous = row
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(out)) + chunk(b"IEND", b"")


def test_decoder():
    width, height = 7, 5
    rows = [bytes((x * 37 + y * 91 + c * 13) % 256 for x in range(width) for c in range(4)) for y in range(height)]
    data = png(width, height, 6, 4, rows, [0, 1, 2, 3, 4])
    w, h, channels, pixels = decode_png(data, "rgba.png")
    assert (w, h, channels) == (width, height, 3), (w, h, channels)
    want = bytes(b for row in rows for i, b in enumerate(row) if i % 4 < 3)
    assert pixels == want, "RGBA rows with filters 0-4 decode to their pixels, alpha dropped"
    grey = [bytes((x * 50 + y) % 256 for x in range(width)) for y in range(height)]
    assert decode_png(png(width, height, 0, 1, grey, [4, 3, 2, 1, 0]), "g.png")[3] == b"".join(grey)
    for bad, words in ((b"GIF89a", "not a PNG"), (png(2, 2, 3, 1, [b"\0\0"] * 2, [0, 0]), "palette")):
        try:
            decode_png(bad, "bad.png")
        except ValueError as e:
            assert words in str(e) and "bad.png" in str(e), str(e)
        else:
            raise AssertionError(f"{words}: no error")


def run(cli, source, cwd):
    path = os.path.join(cwd, "script.py")
    with open(path, "w") as f:
        f.write(source)
    r = subprocess.run([cli, "run", "--backend", "sim", path], capture_output=True,
                       text=True, cwd=cwd, timeout=120)
    return r.returncode, r.stdout + r.stderr


def main():
    cli = os.path.abspath(sys.argv[1])
    test_decoder()
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = run(cli, CHECKS, tmp)
        assert rc == 0, out
        for line in EXPECTED:
            assert line in out, f"missing {line!r} in:\n{out}"
        # The shipped picture through the engine's torch: shape, and pixels the generator drew.
        rc, out = run(cli, "import tilescope\nimg = tilescope.load_image('images/hills.png')\n"
                           "print(tuple(img.shape), img.dtype, img[:, 24, 104].tolist(), img[:, 0, 0].tolist())\n", tmp)
        assert rc == 0, out
        assert "(3, 90, 140) torch.uint8 [255, 214, 90] [70, 130, 230]" in out, out
        rc, out = run(cli, "import tilescope\ntilescope.load_image('no-such.png')\n", tmp)
        assert rc == 1 and "no image file 'no-such.png'" in out, out
    print("ok")


if __name__ == "__main__":
    main()
