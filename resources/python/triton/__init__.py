"""tilescope's triton for host code on embedded CPython: @triton.jit kernels are checked by tilescope's
front end and run on its simulator or GPU backend (the native module _tilescope).

The kernel's source comes from inspect.getsource (notebook cells are registered with linecache, so
kernels defined in cells work), its globals from the function's __globals__ at the first launch, as
Triton resolves them when it first compiles, and again when one of them has changed since. Launch arguments bind exactly as a Python call would.
"""
import functools
import inspect

import _tilescope

from . import language

__all__ = ["jit", "JITFunction", "cdiv", "next_power_of_2", "CompilationError", "language"]

__version__ = "3.6.0+tilescope"

# A kernel that does not compile; str() is the clang-style diagnostic with its caret.
CompilationError = _tilescope.CompilationError

_MISSING = object()

# Launch options a call may pass next to the kernel's own parameters.
_LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "enable_fp_fusion", "maxnreg", "debug")


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    n = int(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()


def _code_names(code):
    names = set(code.co_names)
    for const in code.co_consts:
        if inspect.iscode(const):
            names |= _code_names(const)
    return names


def _parameter_names(fn, which):
    if not which:
        return []
    params = list(inspect.signature(fn).parameters)
    return [params[p] if isinstance(p, int) else p for p in which]


class JITFunction:
    """A @triton.jit function: `kernel[grid](*args, **kwargs)` launches it."""

    def __init__(self, fn, do_not_specialize=None, do_not_specialize_on_alignment=None, **options):
        self.fn = fn
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.options = options
        lines, first_line = inspect.getsourcelines(fn)
        self.src = "".join(lines)
        functools.update_wrapper(self, fn)
        self._kernel = _tilescope.Kernel(fn.__name__, self.src, fn.__code__.co_filename, max(first_line, 1),
                                         _parameter_names(fn, do_not_specialize),
                                         _parameter_names(fn, do_not_specialize_on_alignment))

    def __repr__(self):
        return f"JITFunction({self.fn.__module__}:{self.fn.__qualname__})"

    def __getitem__(self, grid):
        return functools.partial(self.run, grid=grid)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"'{self.__name__}' is a @triton.jit kernel: launch it with {self.__name__}[grid](...); "
                           "it can be called directly only from another kernel")

    def _collect(self, values, helpers, seen, read):
        if id(self) in seen:
            return
        seen.add(id(self))
        scope = self.fn.__globals__
        for name in sorted(_code_names(self.fn.__code__)):
            value = scope.get(name, _MISSING)
            read.append((scope, name, value))
            if value is _MISSING:
                continue
            if isinstance(value, JITFunction):
                value._collect(values, helpers, seen, read)
                helpers.append(value._kernel)
            else:
                values.setdefault(name, value)

    def _resolve_globals(self):
        """Gives the checker the globals the kernel (and the kernels it calls) read, and remembers
        them: a launch after one of them changed (a notebook cell run again) resolves them again."""
        values, helpers, read = {}, [], []
        self._collect(values, helpers, set(), read)
        self._kernel.set_globals(values, helpers)
        self._globals_read = read

    def _globals_changed(self):
        return any(scope.get(name, _MISSING) is not value for scope, name, value in self._globals_read)

    def run(self, *args, grid, **kwargs):
        options = {k: kwargs.pop(k) for k in _LAUNCH_OPTIONS if k in kwargs and k not in self.arg_names}
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        if callable(grid):
            grid = grid(dict(bound.arguments))
        if not isinstance(grid, (tuple, list)):
            grid = (grid,)
        if not self._kernel.has_globals or self._globals_changed():
            self._resolve_globals()
        self._kernel.launch(tuple(grid), list(bound.arguments.values()), options)


def jit(fn=None, **options):
    """@triton.jit or @triton.jit(do_not_specialize=[...], ...)."""
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)
