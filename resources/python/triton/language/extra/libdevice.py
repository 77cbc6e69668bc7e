"""CUDA's libdevice for kernels (`libdevice.tanh(x)`, ...): tl builtins under libdevice's names and
libdevice's own math, all resolved by tilescope's checker inside @triton.jit functions."""
