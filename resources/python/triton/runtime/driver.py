"""triton.runtime.driver: `driver.active` is the CUDA driver as tilescope runs it."""
import _tilescope


class GPUTarget:
    """Triton's GPUTarget(backend, arch, warp_size)."""

    def __init__(self, backend, arch, warp_size):
        self.backend = backend
        self.arch = arch
        self.warp_size = warp_size

    def __repr__(self):
        return f"GPUTarget(backend='{self.backend}', arch={self.arch}, warp_size={self.warp_size})"

    def __eq__(self, other):
        return isinstance(other, GPUTarget) and (self.backend, self.arch, self.warp_size) == (
            other.backend, other.arch, other.warp_size)

    def __hash__(self):
        return hash((self.backend, self.arch, self.warp_size))


class _Utils:

    @staticmethod
    def get_device_properties(device=0):
        """{'max_shared_mem', 'multiprocessor_count', 'max_num_regs', 'warpSize', ...} of the device."""
        return dict(_tilescope.device_properties())


class CudaDriver:
    utils = _Utils()
    backend = "cuda"

    def get_current_target(self):
        p = _tilescope.device_properties()
        return GPUTarget("cuda", p["major"] * 10 + p["minor"], 32)

    def get_active_torch_device(self):
        import torch
        if getattr(torch, "__tilescope_builtin__", False) or torch.cuda.is_available():
            return torch.device("cuda", 0)
        # Installed PyTorch without CUDA: kernels run on the simulator on CPU tensors.
        return torch.device("cpu")

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        pass

    def get_current_stream(self, device=None):
        return 0

    def get_device_interface(self):
        import torch
        return torch.cuda

    def get_benchmarker(self):
        from ..testing import do_bench
        return do_bench

    def is_active(self):
        return True


class _DriverConfig:
    """triton.runtime.driver: `active` is the driver in use (always CUDA here)."""

    def __init__(self):
        self.active = CudaDriver()
        self.default = self.active

    def set_active(self, driver):
        self.active = driver

    def reset_active(self):
        self.active = self.default


driver = _DriverConfig()
