"""The built-in torch: tilescope's C++ tensor library (torch's semantics, printing and CPU random
generator) behind torch's Python API, so that code written for torch and a GPU runs on any machine.
`device='cuda'` tensors live in host memory and work on every backend. What is not here yet is an
AttributeError saying so; installed PyTorch is the other choice (issue 22)."""
import builtins as _builtins
import collections as _collections
import operator as _operator
import sys as _sys
import types as _types

import _tilescope
from _tilescope import Tensor, dtype

__version__ = "2.11.0+tilescope"
__tilescope_builtin__ = True  # tilescope.torch_choice tells it from installed PyTorch


class Size(tuple):
    """tensor.shape: a tuple that prints as torch.Size([2, 3])."""

    def __repr__(self):
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


class device:
    """torch.device('cuda:0'); compares equal to its string."""

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        elif ":" in type:
            type, _, number = type.partition(":")
            index = _builtins.int(number)
        if type not in ("cpu", "cuda"):
            raise RuntimeError(f"Expected one of cpu, cuda device type at start of device string: {type}")
        self.type = type
        self.index = index

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


def _size(args, size=None):
    if size is not None:
        if args:
            raise TypeError("the size was given both positionally and as size=")
        args = (size,)
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = args[0]
    return [_operator.index(s) for s in args]


def _device(d):
    return None if d is None else str(d)


# --- Tensor's Python-side API (the C++ type provides the primitives) -----------------------------
Tensor.shape = property(lambda self: Size(self._shape()))
Tensor.device = property(lambda self: device(self._device()))
Tensor.__module__ = "torch"


def _tensor_size(self, dim=None):
    shape = self._shape()
    return Size(shape) if dim is None else shape[dim]


def _tensor_stride(self, dim=None):
    strides = self._stride()
    return strides if dim is None else strides[dim]


def _tensor_to(self, *args, dtype=None, device=None, **_ignored):
    for a in args:
        if isinstance(a, _tilescope.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        else:
            device = a
    out = self
    if device is not None:
        out = out._to_device(str(globals()["device"](device)))
    if dtype is not None:
        out = out._to_dtype(dtype)
    return out


Tensor.size = _tensor_size
Tensor.stride = _tensor_stride
Tensor.view = lambda self, *shape: self._view(_size(shape))
Tensor.reshape = lambda self, *shape: self._reshape(_size(shape))
Tensor.to = _tensor_to
Tensor.expand = lambda self, *sizes: self._expand(_size(sizes))
Tensor.permute = lambda self, *dims: self._permute(_size(dims))


def _return_type(name):
    """torch.return_types.max and the like: (values, indices), also by name."""
    fields = _collections.namedtuple(name, ["values", "indices"])
    fields.__module__ = "torch.return_types"
    fields.__repr__ = lambda self: f"torch.return_types.{name}(\nvalues={self.values},\nindices={self.indices})"
    return fields


_max, _min, _sort, _topk = (_return_type(n) for n in ("max", "min", "sort", "topk"))


_whole_max, _whole_min, _whole_sum, _whole_mean = Tensor.max, Tensor.min, Tensor.sum, Tensor.mean


def _dims(dim):
    return [dim] if isinstance(dim, _builtins.int) else list(dim)


Tensor.max = lambda self, dim=None, keepdim=False: (_whole_max(self) if dim is None else _max(
    *_tilescope.max_dim(self, _operator.index(dim), keepdim)))
Tensor.min = lambda self, dim=None, keepdim=False: (_whole_min(self) if dim is None else _min(
    *_tilescope.min_dim(self, _operator.index(dim), keepdim)))
Tensor.sum = lambda self, dim=None, keepdim=False, dtype=None: (_whole_sum(self).to(dtype) if dtype is not None else
                                                               _whole_sum(self)) if dim is None else _tilescope.sum_dims(
                                                                   self, _dims(dim), keepdim, dtype)
Tensor.mean = lambda self, dim=None, keepdim=False, dtype=None: (_whole_mean(self) if dim is None else
                                                                _tilescope.mean_dims(self, _dims(dim), keepdim, dtype))
Tensor.argmax = lambda self, dim=None, keepdim=False: _tilescope.argmax(self, dim, keepdim)
Tensor.softmax = lambda self, dim: _tilescope.softmax(self, _operator.index(dim), None)
Tensor.matmul = lambda self, other: _tilescope.matmul(self, other)
Tensor.__matmul__ = lambda self, other: _tilescope.matmul(self, other) if isinstance(other, Tensor) else NotImplemented
Tensor.exp = lambda self: _tilescope.exp(self)
Tensor.log = lambda self: _tilescope.log(self)
Tensor.sqrt = lambda self: _tilescope.sqrt(self)
Tensor.numpy = lambda self: __import__("numpy").array(self.tolist())
Tensor.requires_grad = property(lambda self: False)
# requires_grad_(True) is accepted so that forward passes run; backward() says what to do.
Tensor.requires_grad_ = lambda self, requires_grad=True: self
Tensor.detach = lambda self: self


# What needs autograd; the built-in torch has none, installed PyTorch has it.
_AUTOGRAD = {"backward", "grad", "grad_fn", "retain_grad", "register_hook", "is_leaf", "autograd", "enable_grad",
             "set_grad_enabled", "func", "compile"}
_USE_INSTALLED = ("; installed PyTorch has it: choose it with `tilescope-cli run --torch system`, the preference "
                  "(Preferences: Python torch) or the notebook's metadata {\"tilescope\": {\"torch\": \"system\"}}")


def _tensor_missing(self, name):
    if name in _AUTOGRAD:
        raise AttributeError(f"'Tensor' object has no attribute '{name}': tilescope's built-in torch has no autograd"
                             + _USE_INSTALLED)
    raise AttributeError(f"'Tensor' object has no attribute '{name}': tilescope's built-in torch does not have it "
                         "(yet); docs/HOST_LANGUAGE.md lists what it has")


Tensor.__getattr__ = _tensor_missing


# --- factories ------------------------------------------------------------------------------------
def tensor(data, dtype=None, device=None, requires_grad=False):
    return _tilescope.tensor(data, dtype, _device(device))


def empty(*args, size=None, dtype=None, device=None, requires_grad=False, **_layout):
    return _tilescope.empty(_size(args, size), dtype, _device(device))


def zeros(*args, size=None, dtype=None, device=None, requires_grad=False, **_layout):
    return _tilescope.zeros(_size(args, size), dtype, _device(device))


def ones(*args, size=None, dtype=None, device=None, requires_grad=False, **_layout):
    return _tilescope.ones(_size(args, size), dtype, _device(device))


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    return _tilescope.full(_size((size,)), fill_value, dtype, _device(device))


def rand(*args, size=None, dtype=None, device=None, generator=None, requires_grad=False, **_layout):
    return _tilescope.rand(_size(args, size), dtype, _device(device))


def randn(*args, size=None, dtype=None, device=None, generator=None, requires_grad=False, **_layout):
    return _tilescope.randn(_size(args, size), dtype, _device(device))


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    return _tilescope.arange(start, end, step, dtype, _device(device))


def rand_like(input, dtype=None, device=None, requires_grad=False, **_layout):
    return _tilescope.rand_like(input, dtype, _device(device))


def randn_like(input, dtype=None, device=None, requires_grad=False, **_layout):
    return _tilescope.randn_like(input, dtype, _device(device))


def empty_strided(size, stride, dtype=None, device=None, requires_grad=False, **_layout):
    return _tilescope.empty_strided(_size((size,)), _size((stride,)), dtype, _device(device))


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    """Like torch: the first half counts up from start, the second half down from end, so both ends
    are exact."""
    if steps == 1:
        return full((1,), _builtins.float(start), dtype=dtype if dtype is not None else float32, device=device)
    step = (end - start) / (steps - 1)
    i = arange(steps, dtype=float64)
    values = where(i < steps // 2, start + i * step, end - (steps - 1 - i) * step)
    values = values.to(dtype if dtype is not None else float32)
    return values if device is None else values.to(_device(device))


def empty_like(input, dtype=None, device=None, requires_grad=False):
    return _tilescope.empty_like(input, dtype, _device(device))


def zeros_like(input, dtype=None, device=None, requires_grad=False):
    return _tilescope.zeros_like(input, dtype, _device(device))


def ones_like(input, dtype=None, device=None, requires_grad=False):
    return _tilescope.ones_like(input, dtype, _device(device))


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False, **_layout):
    return _tilescope.full(_size((tuple(input.shape),)), fill_value, input.dtype if dtype is None else dtype,
                           _device(input.device if device is None else device))


def manual_seed(seed):
    _tilescope.manual_seed(_builtins.int(seed))


# --- functions ------------------------------------------------------------------------------------
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _tilescope.allclose(input, other, rtol, atol, equal_nan)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _tilescope.isclose(input, other, rtol, atol, equal_nan)


def equal(input, other):
    return _tilescope.equal(input, other)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


def abs(input):
    return input.abs()


def sum(input, dim=None, keepdim=False, dtype=None):
    return input.sum(dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, dtype=None):
    return input.mean(dim, keepdim, dtype=dtype)


def max(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return _tilescope.maximum(input, dim)
    return input.max(dim, keepdim)


def min(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return _tilescope.minimum(input, dim)
    return input.min(dim, keepdim)


def argmax(input, dim=None, keepdim=False):
    return _tilescope.argmax(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _tilescope.argmin(input, dim, keepdim)


def all(input, dim=None, keepdim=False):
    return _tilescope.all(input, dim, keepdim)


def any(input, dim=None, keepdim=False):
    return _tilescope.any(input, dim, keepdim)


def softmax(input, dim=None, dtype=None, *, axis=None):
    return _tilescope.softmax(input, _dim(dim, axis, "softmax"), dtype)


def log_softmax(input, dim=None, dtype=None, *, axis=None):
    return _tilescope.log_softmax(input, _dim(dim, axis, "log_softmax"), dtype)


def matmul(input, other):
    return _tilescope.matmul(input, other)


mm = matmul


def stack(tensors, dim=0):
    return _tilescope.stack(list(tensors), dim)


def cat(tensors, dim=0):
    return _tilescope.cat(list(tensors), dim)


concat = concatenate = cat


def cumsum(input, dim, dtype=None):
    result = _tilescope.cumsum(input, dim)
    return result if dtype is None else result.to(dtype)


def cumprod(input, dim, dtype=None):
    result = _tilescope.cumprod(input, dim)
    return result if dtype is None else result.to(dtype)


def where(condition, input, other):
    return _tilescope.where(condition, input, other)


def clamp(input, min=None, max=None):
    return _tilescope.clamp(input, min, max)


clip = clamp


def masked_fill(input, mask, value):
    return _tilescope.masked_fill(input, mask, value)


def triu(input, diagonal=0):
    return _tilescope.triangle(input, diagonal, True)


def tril(input, diagonal=0):
    return _tilescope.triangle(input, diagonal, False)


def isnan(input):
    return input != input


def isinf(input):
    return (input == _builtins.float("inf")) | (input == -_builtins.float("inf"))


def isfinite(input):
    return ~(isnan(input) | isinf(input))


def flip(input, dims):
    return _tilescope.flip(input, [dims] if isinstance(dims, _builtins.int) else list(dims))


def sort(input, dim=-1, descending=False, stable=False):
    return _sort(*_tilescope.sort(input, dim, descending))


def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending).indices


def topk(input, k, dim=-1, largest=True, sorted=True):
    return _topk(*_tilescope.topk(input, k, dim, largest))


def gather(input, dim, index):
    return _tilescope.gather(input, dim, index)


def randint(low, high=None, size=None, dtype=None, device=None, generator=None, requires_grad=False):
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    return _tilescope.randint(low, high, list(size), dtype if dtype is not None else int64, _device(device))


def _unary(name):
    return lambda input: _tilescope.unary(name, input)


def _dim(dim, axis, what):
    dim = axis if dim is None else dim
    if dim is None:
        raise TypeError(f"{what}() missing the dim argument")
    return _operator.index(dim)


maximum = _tilescope.maximum
minimum = _tilescope.minimum
exp = _tilescope.exp
log = _tilescope.log
sqrt = _tilescope.sqrt
exp2, log2, rsqrt, sin, cos, tanh, sigmoid, reciprocal, floor, ceil, round, trunc, logical_not = (
    _unary(n) for n in ("exp2", "log2", "rsqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal", "floor", "ceil",
                        "round", "trunc", "logical_not"))

# The functions above as tensor methods too (x.cumsum(0), x.masked_fill_(m, 0), ...); sum, mean, max,
# min, argmax, softmax, matmul, exp, log and sqrt have theirs above.
for _name in ("log_softmax", "argmin", "all", "any", "cumsum", "cumprod", "clamp", "clip", "masked_fill", "triu",
              "tril", "isnan", "isinf", "isfinite", "sort", "argsort", "topk", "gather", "exp2", "log2", "rsqrt", "sin",
              "cos", "tanh", "sigmoid", "reciprocal", "floor", "ceil", "round", "trunc", "logical_not"):
    # Wrapped: a function of _tilescope is no descriptor, so it would not bind self.
    setattr(Tensor, _name, (lambda f: lambda self, *args, **kwargs: f(self, *args, **kwargs))(globals()[_name]))
Tensor.flip = lambda self, *dims: flip(self, dims[0] if len(dims) == 1 and not isinstance(dims[0], _builtins.int) else dims)
Tensor.masked_fill_ = lambda self, mask, value: self.copy_(masked_fill(self, mask, value))


class no_grad:
    """There is no autograd in the built-in torch: a context manager (and decorator) that does nothing."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        return fn


# --- torch.cuda: device='cuda' works on every machine ----------------------------------------------
cuda = _types.ModuleType("torch.cuda", "CUDA as the built-in torch sees it: always there.")
cuda.is_available = lambda: True
cuda.device_count = lambda: 1
cuda.current_device = lambda: 0
# Kernel launches on the GPU backend are asynchronous: this waits for them and raises a failure among
# them (a device assertion, with the kernel's line and the program), as torch.cuda.synchronize does.
cuda.synchronize = lambda device=None: _tilescope.synchronize("torch.cuda.synchronize()")
cuda.manual_seed = manual_seed
cuda.manual_seed_all = manual_seed


class _DeviceProperties:
    """torch.cuda.get_device_properties(): the device kernels run on (an H100's figures without one)."""

    def __init__(self, p):
        self.name = p["name"]
        self.major, self.minor = p["major"], p["minor"]
        self.multi_processor_count = p["multiprocessor_count"]
        self.total_memory = p["total_memory"]
        self.warp_size = p["warpSize"]

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1 << 20)}MB, multi_processor_count={self.multi_processor_count})")


def _get_device_capability(device=None):
    p = _tilescope.device_properties()
    return (p["major"], p["minor"])


class Stream:
    """torch.cuda.Stream: kernels run in order on one stream here; a stream is a name for it."""

    def __init__(self, device=None, priority=0, **_kwargs):
        self.device = device
        self.priority = priority

    def synchronize(self):
        _tilescope.synchronize("torch.cuda.Stream.synchronize()")

    def wait_stream(self, stream):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_current_stream = Stream()


def _set_stream(stream):
    global _current_stream
    _current_stream = stream


cuda.get_device_capability = _get_device_capability
cuda.get_device_properties = lambda device=None: _DeviceProperties(_tilescope.device_properties())
cuda.get_device_name = lambda device=None: _tilescope.device_properties()["name"]
cuda.Stream = Stream
cuda.set_stream = _set_stream
cuda.current_stream = lambda device=None: _current_stream
cuda.default_stream = lambda device=None: _current_stream
cuda.stream = lambda stream: stream
cuda.empty_cache = lambda: None
cuda.set_device = lambda device: None
_sys.modules["torch.cuda"] = cuda

# --- torch.autograd: Function runs forward passes; backward needs installed PyTorch ----------------
autograd = _types.ModuleType("torch.autograd", "autograd as far as the built-in torch goes: forward passes.")


class _FunctionContext:

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_dirty(self, *tensors):
        pass

    def mark_non_differentiable(self, *tensors):
        pass

    def set_materialize_grads(self, value):
        pass


class Function:
    """torch.autograd.Function: apply() runs forward(ctx, ...); there is no backward pass here."""

    @classmethod
    def apply(cls, *args, **kwargs):
        return cls.forward(_FunctionContext(), *args, **kwargs)


autograd.Function = Function
autograd.grad = lambda *args, **kwargs: (_ for _ in ()).throw(
    AttributeError("torch.autograd.grad: tilescope's built-in torch has no autograd" + _USE_INSTALLED))
_sys.modules["torch.autograd"] = autograd

# --- torch.nn.functional and torch.testing ----------------------------------------------------------
nn = _types.ModuleType("torch.nn", "torch.nn as far as the built-in torch goes: functional.")
functional = _types.ModuleType("torch.nn.functional")
functional.softmax = softmax
functional.log_softmax = log_softmax
functional.sigmoid = sigmoid
functional.tanh = tanh
functional.relu = lambda input, inplace=False: clamp(input, min=0)


def _layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return _tilescope.layer_norm(input, _size((normalized_shape,)), weight, bias, _builtins.float(eps))


functional.layer_norm = _layer_norm
nn.functional = functional
_sys.modules["torch.nn"] = nn
_sys.modules["torch.nn.functional"] = functional

testing = _types.ModuleType("torch.testing", "torch.testing.assert_close on the built-in torch's tensors.")


def _assert_close(actual, expected, *, rtol=None, atol=None, equal_nan=False, check_device=True, check_dtype=True,
                  msg=None, **_kwargs):
    """torch.testing.assert_close: torch's checks, default tolerances by dtype and message."""
    actual = actual if isinstance(actual, Tensor) else tensor(actual)
    expected = expected if isinstance(expected, Tensor) else tensor(expected, dtype=actual.dtype)
    message = _tilescope.torch_assert_close_message(actual, expected, rtol, atol, equal_nan, check_device, check_dtype)
    if message is not None:
        raise AssertionError(msg if msg is not None else message)


testing.assert_close = _assert_close
_sys.modules["torch.testing"] = testing

# dtypes; `float`, `int` and `bool` shadow the builtins only from here on.
globals().update({
    "float16": dtype("float16"), "half": dtype("float16"), "bfloat16": dtype("bfloat16"),
    "float32": dtype("float32"), "float": dtype("float32"), "float64": dtype("float64"),
    "double": dtype("float64"), "int8": dtype("int8"), "int16": dtype("int16"), "short": dtype("int16"),
    "int32": dtype("int32"), "int": dtype("int32"), "int64": dtype("int64"), "long": dtype("int64"),
    "uint8": dtype("uint8"), "bool": dtype("bool"),
    # fp8 tensors store and convert (.to(), copies, views, printing, kernel arguments); arithmetic on
    # them is an error saying to convert first, as with PyTorch's CPU tensors.
    "float8_e4m3fn": dtype("float8_e4m3fn"), "float8_e5m2": dtype("float8_e5m2"),
})


def __getattr__(name):
    if name in ("float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"):
        raise AttributeError(f"module 'torch' has no attribute '{name}': tilescope's built-in torch has the fp8 "
                             "dtypes float8_e4m3fn and float8_e5m2 (NVIDIA's, tl.float8e4nv and tl.float8e5), "
                             "not this one" + _USE_INSTALLED)
    if name in _AUTOGRAD:
        raise AttributeError(f"module 'torch' has no attribute '{name}': tilescope's built-in torch has no autograd"
                             + _USE_INSTALLED)
    raise AttributeError(f"module 'torch' has no attribute '{name}': tilescope's built-in torch does not have it "
                         "(yet); docs/HOST_LANGUAGE.md lists what it has")
