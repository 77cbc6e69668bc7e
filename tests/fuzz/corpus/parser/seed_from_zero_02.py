import torch
import triton
import triton.language as tl

@triton.jit
def add_kernel(
    x_ptr,          # 输入指针x
    y_ptr,          # 输入指针y
    output_ptr,     # 输出指针
    n_elements,     # 总元素数
    BLOCK_SIZE: tl.constexpr,  # 编译时常�
):
    """
    计算: output = x + y

    内�布局:
    ┌─────────────────────────────────────────────────�
    │ x:      [x0, x1, x2, x3, x4, x5, x6, x7, ...]   │
    │ y:      [y0, y1, y2, y3, y4, y5, y6, y7, ...]   │
    │ output: [z0, z1, z2, z3, z4, z5, z6, z7, ...]   │
    └─────────────────────────────────────────────────┘

    �个program处�BLOCK_SIZE个元素:
    ┌──────────────� ┌──────────────� ┌──────────────�
    │  Program 0   │ │  Program 1   │ │  Program 2   │
    │ [0:BLOCK_SIZE]│ │[BS:2*BS]    │ │[2*BS:3*BS]  │
    └──────────────┘ └──────────────┘ └──────────────┘
    """
    # ��当�program的ID
    pid = tl.program_id(axis=0)

    # 计算当�block处�的数�范围
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)

    # 创建mask，处�边界情况
    mask = offsets < n_elements

    # �全局内�加载数�
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)

    # 执行加法
    output = x + y

    # 将结�写�全局内�
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """��加法的Python包装函数"""
    # 检查输入
    assert x.is_cuda and y.is_cuda
    assert x.shape == y.shape

    # 分�输出
    output = torch.empty_like(x)
    n_elements = output.numel()

    # 计算grid大�
    BLOCK_SIZE = 1024
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']),)

    # �动kernel
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)

    return output


# 测试
if __name__ == "__main__":
    torch.manual_seed(0)
    size = 98432
    x = torch.rand(size, device='cuda')
    y = torch.rand(size, device='cuda')

    output_triton = add(x, y)
    output_torch = x + y

    print(f"最大误差: {torch.max(torch.abs(output_triton - output_torch))}")
    print("✓ 测试通过!" if torch.allclose(output_triton, output_torch) else "✗ 测试失败!")
