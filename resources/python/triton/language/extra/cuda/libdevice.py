"""CUDA's libdevice for kernels, as `triton.language.extra.cuda.libdevice` (the same functions as
`triton.language.extra.libdevice`, resolved by tilescope's checker inside @triton.jit functions)."""
