@triton.jit
def add_kernel(x_ptr, n: int = 3, *args, k, BLOCK: tl.constexpr = 4, **kw) -> None:
    """doc"""
    pid = tl.program_id(axis=0)
    a = x[:, None] + y[None, :] * z[1:2, ::2]
    a, (b, *c) = d = f(*p, **q)
    x += -2 ** -y
    if a < b <= c and not d or e:
        pass
    elif x is not None: return
    else:
        s = f"v={v!r:>{w}} {{lit}} {x=}" 'tail'
    g = sum(i for i in range(10) if i % 2)
    h = {'a': 1, **o}; k = {1, 2}; l = [i * 2 for i in y]
    del a[0], b.c
    lam = lambda m, q=2: (m, q)
    return b'\x00', 0x_FF, 1_000, 1e-5, .5, 2., 99999999999999999999999
