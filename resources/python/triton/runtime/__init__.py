"""triton.runtime for host code on embedded CPython: `driver.active`, the device kernels run on, as
Triton's tutorials query it (the torch device, the target, device properties). Without a GPU, or on
the simulator, it describes an H100 (core/python/DriverBindings.cpp), so occupancy arithmetic gives
sensible grids."""
from .driver import driver

__all__ = ["driver"]
