"""triton.language.extra.cuda: where Triton's CUDA backend keeps libdevice."""
from . import libdevice

__all__ = ["libdevice"]
