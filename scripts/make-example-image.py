#!/usr/bin/env python3
"""Draws examples/images/hills.png, the picture the example notebooks greyscale: a sky that darkens
upwards, a sun, two ranges of hills and a striped field, all computed here (no image from elsewhere).
Written with the standard library only (zlib), as an 8-bit RGB PNG; run it to make the file again."""
import math
import os
import struct
import sys
import zlib

WIDTH, HEIGHT = 140, 90


def pixel(x, y):
    sky = (70 + y, 130 + y // 2, 230 - y // 3)
    r, g, b = sky
    # The sun: a disc with a soft rim.
    d = math.hypot(x - 104, y - 24)
    if d < 13:
        r, g, b = 255, 214, 90
    elif d < 18:
        t = (d - 13) / 5
        r, g, b = (int(255 * (1 - t) + r * t), int(214 * (1 - t) + g * t), int(90 * (1 - t) + b * t))
    far = 50 + 8 * math.sin(x / 15.0) + 5 * math.sin(x / 6.0 + 1.3)
    near = 64 + 10 * math.sin(x / 20.0 + 2.0)
    if y > far:
        r, g, b = 96, 120, 150
    if y > near:
        r, g, b = 60, 140 - (y - 64), 60
    if y > 77:
        stripe = ((x + 2 * y) // 8) % 2
        r, g, b = (200, 170, 60) if stripe else (170, 140, 40)
    return bytes((max(0, min(255, r)), max(0, min(255, g)), max(0, min(255, b))))


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in rows)  # filter 0 (None) on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "examples", "images", "hills.png")
    rows = [b"".join(pixel(x, y) for x in range(WIDTH)) for y in range(HEIGHT)]
    with open(out, "wb") as f:
        f.write(png(WIDTH, HEIGHT, rows))
    print(f"wrote {out} ({WIDTH} x {HEIGHT})")


if __name__ == "__main__":
    main()
