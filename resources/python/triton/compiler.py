"""triton.compiler for host code on embedded CPython: CompilationError, and CompiledKernel, what
kernel.warmup() returns (on the engine's side core/python/CompiledKernelObject):
its registers, spills, threads, shared memory and options, its CUDA C++ and PTX, and handle[grid](*params)
launching that specialization."""
import types

import _tilescope

CompilationError = _tilescope.CompilationError

__all__ = ["CompilationError", "CompiledKernel"]


class CompiledKernel:
    def __init__(self, name, handle):
        self.name = name
        self._handle = handle
        self._asm = None

    def __repr__(self):
        return f"<CompiledKernel {self.name}>"

    @property
    def n_regs(self):
        return self._handle.attribute("n_regs")

    @property
    def n_spills(self):
        return self._handle.attribute("n_spills")

    @property
    def n_max_threads(self):
        return self._handle.attribute("n_max_threads")

    @property
    def metadata(self):
        return types.SimpleNamespace(**self._handle.attribute("metadata"))

    @property
    def asm(self):
        """{'cuda': the generated CUDA C++, 'ptx': its PTX} (compiled on first access)."""
        if self._asm is None:
            self._asm = self._handle.attribute("asm")
        return self._asm

    def _init_handles(self):
        """Triton loads the module here; tilescope loads it at the first launch."""

    def __getitem__(self, grid):
        if callable(grid):
            raise TypeError("a compiled kernel's grid is a tuple of ints")
        grid = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
        return lambda *params: self._handle.launch(grid, list(params))
