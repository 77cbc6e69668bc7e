"""tilescope.load_image: a PNG file as a channels x height x width uint8 tensor, the layout the example
kernels read. PNG is decoded here with the standard library (zlib), so it works with the built-in torch
and with an installed one alike, and needs no imaging package. Supported: 8-bit greyscale, RGB, and
either with alpha (the alpha channel is dropped), not interlaced; anything else gets a ValueError that
says what the file is and what to save it as."""
import os
import struct
import zlib

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # PNG colour type -> samples per pixel
_KINDS = {0: "greyscale", 2: "RGB", 3: "palette", 4: "greyscale with alpha", 6: "RGB with alpha"}


def _chunks(data, path):
    pos = len(_SIGNATURE)
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length:
            raise ValueError(f"{path}: the PNG file is cut short (chunk {kind.decode('latin-1')!r})")
        yield kind, body
        if kind == b"IEND":
            return
        pos += 12 + length
    raise ValueError(f"{path}: the PNG file has no IEND chunk (cut short?)")


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(raw, width, height, bpp, path):
    stride = width * bpp
    out = bytearray(height * stride)
    previous = bytearray(stride)
    pos = 0
    for y in range(height):
        kind = raw[pos]
        row = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if kind == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 0xFF
        elif kind == 2:
            for i in range(stride):
                row[i] = (row[i] + previous[i]) & 0xFF
        elif kind == 3:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                up_left = previous[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + _paeth(left, previous[i], up_left)) & 0xFF
        elif kind != 0:
            raise ValueError(f"{path}: row {y} uses PNG filter {kind}, which does not exist (corrupt file?)")
        out[y * stride:(y + 1) * stride] = row
        previous = row
    return out


def decode_png(data, path="<png>"):
    """(width, height, channels, pixels): pixels row-major, channels interleaved, alpha dropped."""
    if not data.startswith(_SIGNATURE):
        raise ValueError(f"{path}: not a PNG file; tilescope.load_image reads PNG only (convert it, e.g. "
                         "with `convert FILE out.png`)")
    header = None
    compressed = bytearray()
    for kind, body in _chunks(data, path):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed += body
    if header is None:
        raise ValueError(f"{path}: the PNG file has no IHDR chunk")
    width, height, depth, colour, _compression, _filter, interlace = header
    if depth != 8 or colour not in _CHANNELS or interlace != 0:
        kind = _KINDS.get(colour, f"colour type {colour}")
        raise ValueError(f"{path}: a {depth}-bit {kind} PNG{' (interlaced)' if interlace else ''}; "
                         "tilescope.load_image reads 8-bit greyscale or RGB PNGs, not interlaced: save it as that")
    samples = _CHANNELS[colour]
    try:
        raw = zlib.decompress(bytes(compressed))
    except zlib.error as e:
        raise ValueError(f"{path}: the PNG's image data is corrupt ({e})") from None
    if len(raw) < height * (1 + width * samples):
        raise ValueError(f"{path}: the PNG's image data is shorter than {width} x {height} pixels")
    pixels = _unfilter(raw, width, height, samples, path)
    keep = 1 if samples <= 2 else 3  # drop alpha
    if keep != samples:
        pixels = bytearray(b for i, b in enumerate(pixels) if i % samples < keep)
    return width, height, keep, bytes(pixels)


# tilescope's examples folder: share/tilescope/examples installed, examples/ in the source tree (this file
# is share/tilescope/python/tilescope/images.py or resources/python/tilescope/images.py).
_PACKAGES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_EXAMPLE_DIRS = (os.path.join(os.path.dirname(_PACKAGES), "examples"),
                 os.path.join(os.path.dirname(os.path.dirname(_PACKAGES)), "examples"))


def _find(path):
    path = os.fspath(path)
    if os.path.isabs(path) or os.path.exists(path):
        return path
    for folder in _EXAMPLE_DIRS:
        candidate = os.path.join(folder, path)
        if os.path.exists(candidate):
            return candidate
    raise FileNotFoundError(f"no image file {path!r} in the current folder ({os.getcwd()}) or in tilescope's "
                            "examples folder; give its full path")


def load_image(path):
    """The PNG at `path` as a uint8 tensor of shape (channels, height, width): 3 channels (R, G, B) for a
    colour picture, 1 for a grey one; an alpha channel is dropped. A relative path is looked up in the
    current folder, then in tilescope's examples folder, so the example notebooks find their pictures
    wherever they are run from."""
    import torch
    path = _find(path)
    with open(path, "rb") as f:
        data = f.read()
    width, height, channels, pixels = decode_png(data, str(path))
    hwc = torch.tensor(list(pixels), dtype=torch.uint8).reshape(height, width, channels)
    return hwc.permute(2, 0, 1).contiguous()
