"""tilescope's `cupy`: only what comparing Triton with hand-written CUDA needs, `RawKernel` and
`is_available`, backed by the engine (core/python/RawKernel: NVRTC, the GPU backend's device copies of
tensors). A RawKernel runs on the GPU backend only; on the simulator calling one says so."""
import _tilescope

__all__ = ["RawKernel", "is_available"]


def is_available():
    """True when RawKernels can run: the GPU backend is in use and has a device."""
    return _tilescope.cupy_available()


class RawKernel:
    """cupy.RawKernel(code, name): kernel((blocks,), (threads,), (arg, ...)) launches `name`, a
    __global__ function of `code`; tensors pass their device memory, numbers the declared types."""

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False):
        self.code = code
        self.name = name
        self._handle = _tilescope.RawKernelHandle(code, name, [str(o) for o in (options or ())], backend)

    def __repr__(self):
        return f"<RawKernel {self.name}>"

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        grid = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
        block = tuple(block) if isinstance(block, (tuple, list)) else (block,)
        self._handle.launch(grid, block, tuple(args))
