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
from . import testing
from . import runtime

__all__ = ["jit", "JITFunction", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2", "CompilationError", "testing",
           "language"]

__version__ = "3.6.0+tilescope"

# A kernel that does not compile; str() is the clang-style diagnostic with its caret.
CompilationError = _tilescope.CompilationError

_MISSING = object()
_NO_OPTIONS = {}

# Launch options a call may pass next to the kernel's own parameters.
_LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "enable_fp_fusion", "maxnreg", "debug")


def cdiv(x, y):
    return (x + y - 1) // y


# triton.set_allocator(fn): Triton calls fn for the global scratch that TMA descriptors need. Ours
# comes from tilescope's GPU runtime with each launch that needs it (the tensor maps of
# core/gpu/codegen/CudaTma.cpp), so the allocator is kept and never called.
_allocator = None


def set_allocator(allocator):
    global _allocator
    if allocator is not None and not callable(allocator):
        raise TypeError("triton.set_allocator() takes a function (size, alignment, stream) -> buffer, "
                        "or None; got " + type(allocator).__name__)
    _allocator = allocator


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


def _parameter_names(fn, which, option):
    """The parameter names that `option` (do_not_specialize=[...]) lists by name or index; a name the
    kernel does not have, or an index past its parameters, is a ValueError saying which."""
    if not which:
        return []
    params = list(inspect.signature(fn).parameters)
    names = []
    for p in which:
        if isinstance(p, int):
            if not -len(params) <= p < len(params):
                raise ValueError(f"triton.jit({option}=...): kernel '{fn.__name__}' has {len(params)} parameters; "
                                 f"index {p} is out of range")
            names.append(params[p])
        elif p in params:
            names.append(p)
        else:
            raise ValueError(f"triton.jit({option}=...): kernel '{fn.__name__}' has no parameter '{p}' "
                             f"(its parameters: {', '.join(params)})")
    return names


class JITFunction(_tilescope.LaunchSubscript):
    """A @triton.jit function: `kernel[grid](*args, **kwargs)` launches it. `kernel[grid]` is answered
    in C++ (_tilescope.LaunchSubscript) when the grid is the previous one's object, and by
    _launcher_for otherwise."""

    def __init__(self, fn, do_not_specialize=None, do_not_specialize_on_alignment=None, **options):
        self.fn = fn
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.options = options
        lines, first_line = inspect.getsourcelines(fn)
        self.src = "".join(lines)
        functools.update_wrapper(self, fn)
        self._plans = {}
        self._launchers = {}
        self._kernel = _tilescope.Kernel(fn.__name__, self.src, fn.__code__.co_filename, max(first_line, 1),
                                         _parameter_names(fn, do_not_specialize, "do_not_specialize"),
                                         _parameter_names(fn, do_not_specialize_on_alignment, "do_not_specialize_on_alignment"))
        # A kernel defined again (its notebook cell run again after an edit) starts compiling, in the
        # background, for the specializations its previous definition was launched with on the GPU.
        self._kernel.prefetch_redefined(self._resolve_globals)

    def __repr__(self):
        return f"JITFunction({self.fn.__module__}:{self.fn.__qualname__})"

    # The sentinel of _globals_read's missing names, for _tilescope.BoundLaunch.
    _MISSING = _MISSING

    def _launcher_for(self, grid):
        # kernel[grid](*args, **kwargs): JITFunction.run's work, in C++ for calls its plans bind. One
        # per grid object (a constant tuple, a grid function): the launcher holds its grid, so the
        # object's id cannot be reused while it is cached.
        bound = self._launchers.get(id(grid))
        if bound is None:
            if len(self._launchers) >= 64:
                self._launchers.clear()
            bound = self._launchers[id(grid)] = _tilescope.BoundLaunch(self, self._kernel, grid)
        return bound

    @property
    def cache(self):
        """{device: {specialization key: description}} of the specializations checked so far (Triton
        keeps compiled kernels there; tilescope lists what it checked)."""
        return {0: dict(self._kernel.cached_specializations)}

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

    def _bind(self, args, kwargs, grid):
        """(grid, arguments in parameter order, launch options), bound as a Python call binds."""
        options = {k: kwargs.pop(k) for k in _LAUNCH_OPTIONS if k in kwargs and k not in self.arg_names}
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        if callable(grid):
            grid = grid(dict(bound.arguments))
        if not isinstance(grid, (tuple, list)):
            grid = (grid,)
        if not self._kernel.has_globals or self._globals_changed():
            self._resolve_globals()
        # A parameter named like a launch option (the fused-softmax tutorial's `num_stages: tl.constexpr`)
        # gets the value and sets the option too, as in Triton: from it on, arguments go by name.
        positional, by_name = [], False
        for name, value in bound.arguments.items():
            by_name = by_name or name in _LAUNCH_OPTIONS
            if by_name:
                options[name] = value
            else:
                positional.append(value)
        return tuple(grid), positional, options

    def _plan_for(self, nargs, names):
        """How a call with `nargs` positional arguments and these keyword names binds (worked out
        once by inspect.Signature.bind, which also raises Python's TypeError for a bad call):
        per parameter, ('arg', index) | ('kw', name) | ('default', value); None when the call passes
        launch options, which take the general path."""
        if any(n in _LAUNCH_OPTIONS and n not in self.arg_names for n in names):
            return None
        probe = self.signature.bind(*range(nargs), **{n: n for n in names})
        plan = []
        for name, param in self.signature.parameters.items():
            if name in probe.arguments:
                v = probe.arguments[name]
                plan.append(("kw", v) if isinstance(v, str) else ("arg", v))
            else:
                plan.append(("default", param.default))
        if any(name in _LAUNCH_OPTIONS for name in self.arg_names):
            return None  # parameters named like launch options go by name (see _bind)
        return plan

    def run(self, *args, grid, **kwargs):
        # The fast path for a call shape seen before: no inspect binding, one call into the engine.
        key = (len(args), tuple(kwargs))
        plan = self._plans.get(key, _MISSING)
        if plan is _MISSING:
            plan = self._plans[key] = self._plan_for(len(args), key[1])
        if plan is None:
            return self._kernel.launch(*self._bind(args, kwargs, grid))
        values = [args[i] if how == "arg" else kwargs[i] if how == "kw" else i for how, i in plan]
        if callable(grid):
            grid = grid(dict(zip(self.arg_names, values)))
        if not isinstance(grid, tuple):
            grid = tuple(grid) if isinstance(grid, list) else (grid,)
        if not self._kernel.has_globals or self._globals_changed():
            self._resolve_globals()
        self._kernel.launch(grid, values, _NO_OPTIONS)

    def warmup(self, *args, grid, **kwargs):
        """Checks and compiles the kernel for these arguments without launching it; the compiled
        kernel reports its resources (n_regs, n_spills, metadata.shared, ...) and launches with
        handle[grid](*every_param)."""
        from .compiler import CompiledKernel
        return CompiledKernel(self.__name__, self._kernel.warmup(*self._bind(args, kwargs, grid)))

    def _check(self, *args, grid, **kwargs):
        """Checks the kernel for these arguments without launching it (CompilationError if it fails)."""
        self._kernel.check(*self._bind(args, kwargs, grid))


class Config:
    """triton.Config: meta-parameters and launch options for @triton.autotune."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}

    def __str__(self):
        fields = [f"{k}: {v!r}" for k, v in self.kwargs.items()]
        fields += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}", f"num_stages: {self.num_stages}"]
        return ", ".join(fields)

    __repr__ = __str__


def _innermost(fn):
    while not isinstance(fn, JITFunction):
        fn = fn.fn
    return fn


def _named_arguments(fn, args, kwargs):
    jit = _innermost(fn)
    return dict(jit.signature.bind_partial(*args, **kwargs).arguments)


class Autotuner:
    """@triton.autotune: on the GPU backend each key's configs are timed, as Triton times them, and the
    fastest is kept; the simulator cannot time them, so there each key takes the first config that
    checks for its arguments, and a note says so once."""

    def __init__(self, fn, configs, key):
        if not configs:
            raise ValueError("triton.autotune needs at least one triton.Config")
        self.fn = fn
        self.configs = list(configs)
        self.keys = list(key)
        self.cache = {}
        self.best_config = None
        functools.update_wrapper(self, _innermost(fn), updated=())

    def __getitem__(self, grid):
        return functools.partial(self.run, grid=grid)

    def _choose(self, args, kwargs, grid):
        named = _named_arguments(self.fn, args, kwargs)
        key = tuple(repr(named.get(k)) for k in self.keys)
        if key not in self.cache and not _tilescope.simulated():
            fastest = self._time_configs(args, kwargs, grid)
            if fastest is not None:
                self.cache[key] = fastest
        if key not in self.cache:
            first_error = None
            for config in self.configs:
                try:
                    _check(self.fn, args, {**kwargs, **config.all_kwargs()}, grid)
                except CompilationError as e:
                    first_error = first_error or e
                    continue
                self.cache[key] = config
                if not _noted.get(id(self)):
                    _noted[id(self)] = True
                    print(f"autotune: tilescope's embedded Python does not time configs yet; {self.__name__} uses "
                          f"the first config that checks: {config}")
                break
            else:
                raise first_error
        self.best_config = self.cache[key]
        return self.best_config

    def _time_configs(self, args, kwargs, grid):
        """Each config launched once (it compiles), then timed by CUDA events: the median of 2 to 100
        launches, about 100 ms of them. Configs the GPU cannot run (a CompilationError, too much
        shared memory) are skipped, as Triton prunes them. Returns the fastest (None: none ran)."""
        best, best_ms, table = None, 0.0, ""
        for config in self.configs:
            def launch(config=config):
                self.fn.run(*args, grid=grid, **kwargs, **config.all_kwargs())
            try:
                launch()
                samples = [_tilescope.time_call(launch)]
                reps = min(max(int(100.0 / max(samples[0], 1e-3)), 2), 100)
                samples += [_tilescope.time_call(launch) for _ in range(reps - 1)]
            except Exception as e:
                if not isinstance(e, CompilationError) and "shared memory" not in str(e):
                    raise
                table += f"  {config}: skipped ({str(e)[:120]})\n"
                continue
            samples.sort()
            median = samples[len(samples) // 2]
            table += f"  {config}: {median:.4f} ms\n"
            if best is None or median < best_ms:
                best, best_ms = config, median
        if best is not None and not _noted.get(("timed", self.__name__)):
            _noted[("timed", self.__name__)] = True
            print(f"autotune: timed {len(self.configs)} configs of {self.__name__} on the GPU (median device time); "
                  f"using {best}\n" + table, end="")
        return best

    def run(self, *args, grid, **kwargs):
        config = self._choose(args, kwargs, grid)
        return self.fn.run(*args, grid=grid, **kwargs, **config.all_kwargs())


class Heuristics:
    """@triton.heuristics({'NAME': lambda args: ...}): meta-parameters computed from the arguments."""

    def __init__(self, fn, values):
        self.fn = fn
        self.values = dict(values)
        functools.update_wrapper(self, _innermost(fn), updated=())

    def __getitem__(self, grid):
        return functools.partial(self.run, grid=grid)

    def _with_values(self, args, kwargs):
        named = _named_arguments(self.fn, args, kwargs)
        for name, rule in self.values.items():
            named[name] = kwargs[name] = rule(named)
        return kwargs

    def run(self, *args, grid, **kwargs):
        return self.fn.run(*args, grid=grid, **self._with_values(args, dict(kwargs)))


def _check(fn, args, kwargs, grid):
    if isinstance(fn, Heuristics):
        kwargs = fn._with_values(args, dict(kwargs))
        fn = fn.fn
    _innermost(fn)._check(*args, grid=grid, **kwargs)


_noted = {}


def autotune(configs, key, **_options):
    return lambda fn: Autotuner(fn, configs, key)


def heuristics(values):
    return lambda fn: Heuristics(fn, values)


def jit(fn=None, **options):
    """@triton.jit or @triton.jit(do_not_specialize=[...], ...)."""
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)
