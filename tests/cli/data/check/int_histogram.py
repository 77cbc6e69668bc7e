# A histogram of int32 values: the kernel reads its input as ints and uses them as offsets into the
# bins. Nothing here launches it, so `check` cannot know the element types and must not guess fp32.
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(values_ptr, bins_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(values_ptr + offs, mask=mask, other=0)
    bucket = v % NUM_BINS
    tl.atomic_add(bins_ptr + bucket, 1, mask=mask)
