# 1. 使用print调试 (仅在第一个program)
@triton.jit
def debug_kernel(x_ptr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    if pid == 0:
        tl.device_print("Program ID:", pid)

    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offs)

    if pid == 0:
        tl.device_print("First element:", tl.load(x_ptr))

# 2. 使用triton.testing进行基准测试
@triton.testing.perf_report(
    triton.testing.Benchmark(
        x_names=['size'],                   # x轴�数�
        x_vals=[2**i for i in range(12, 28, 1)],  # x轴值
        line_arg='provider',                # ��的线
        line_vals=['triton', 'torch'],     # 线的值
        line_names=['Triton', 'Torch'],    # 线的�称
        styles=[('blue', '-'), ('green', '-')],
        ylabel='GB/s',                     # y轴标�
        plot_name='vector-add-performance', # 图表�称
        args={},
    )
)
def benchmark(size, provider):
    x = torch.rand(size, device='cuda', dtype=torch.float32)
    y = torch.rand(size, device='cuda', dtype=torch.float32)

    if provider == 'torch':
        ms = triton.testing.do_bench(lambda: x + y)
    if provider == 'triton':
        ms = triton.testing.do_bench(lambda: add(x, y))

    gbps = 3 * x.numel() * x.element_size() / ms * 1e-6
    return gbps
