"""triton.language as host code sees it: constexpr and the dtypes. The functions of the kernel language
(tl.load, tl.arange, ...) exist only inside kernels, which tilescope's checker reads from source."""


class constexpr:
    """tl.constexpr: the annotation of compile-time parameters, and a wrapper of compile-time values."""

    _tilescope_constexpr = True

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value}]"

    def __index__(self):
        return self.value.__index__()

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, constexpr) else other)

    def __hash__(self):
        return hash(self.value)


class dtype:
    """A kernel-language dtype (tl.float16 prints as fp16, as in Triton)."""

    def __init__(self, name):
        self.name = name
        self._tilescope_dtype = name

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def is_floating(self):
        return self.name.startswith(("fp", "bf"))


int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
float8e4nv = dtype("fp8e4nv")
float8e5 = dtype("fp8e5")
