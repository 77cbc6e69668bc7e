# 查看PTX代�
@triton.jit
def simple_kernel(x_ptr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x * 2)

# 编译并查看
x = torch.randn(1024, device='cuda')
simple_kernel[(1,)](x, BLOCK_SIZE=1024)

# ��编译�的kernel信�
print(simple_kernel.cache)  # 查看缓�的编译结�
