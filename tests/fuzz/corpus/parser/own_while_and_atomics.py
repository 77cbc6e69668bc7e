import triton
import triton.language as tl


@triton.jit
def bucket_count(keys, counts, n, BUCKETS: tl.constexpr, STEP: tl.constexpr):
    base = tl.program_id(0) * STEP
    offs = base + tl.arange(0, STEP)
    k = tl.load(keys + offs, mask=offs < n, other=0) % BUCKETS
    tl.atomic_add(counts + k, 1, mask=offs < n)
    left = n - base
    rounds = 0
    while left > 0:
        left -= STEP * tl.num_programs(0)
        rounds += 1
    if rounds > 1 and base == 0:
        tl.device_assert(rounds < 1000, "too many rounds")
    else:
        pass
    tl.static_print("buckets", BUCKETS)
