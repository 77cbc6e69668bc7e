"""triton.language.extra as host code sees it: the names kernels import libdevice under
(`from triton.language.extra import libdevice`, `tl.extra.cuda.libdevice`). Its functions exist only
inside kernels, which tilescope's checker reads from source."""
from . import cuda, libdevice

__all__ = ["cuda", "libdevice"]
