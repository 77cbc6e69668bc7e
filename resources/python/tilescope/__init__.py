"""tilescope's own helpers for host code on embedded CPython (core/python): load_image (a PNG as a
CHW uint8 tensor) and check (an exercise's kernel against its reference)."""
from tilescope.checking import check
from tilescope.images import load_image

__all__ = ["check", "load_image"]
