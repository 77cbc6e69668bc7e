#pragma once
// Installed PyTorch's current CUDA stream as the stream GPU launches go on (gpu::LaunchStream's
// source), as Triton launches on torch.cuda.current_stream(): a kernel launched after
// `torch.cuda.set_stream(s)` runs on s, after torch's work queued there and before torch's next.
// The built-in torch keeps the null stream (it runs everything in order on one stream).
namespace tilescope::python {

// Sets the source once the embedded interpreter runs (with the GIL). Until torch is imported the
// source looks for it at each launch; the built-in torch or a PyTorch without CUDA removes it; with
// installed PyTorch each launch calls torch._C._cuda_getCurrentRawStream(0) (device 0, the one
// GpuRuntime runs on), which builds no Python object but the int it returns.
void installTorchStreamSource();

}  // namespace tilescope::python
