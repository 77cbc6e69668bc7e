"""
核心概念解释：

1. program_id: 当�程��例的唯一标识符
2. BLOCK_SIZE: �个程��例处�的元素数�
3. offsets: 当�block�处�的数��移�
4. mask: 边界检查，防�越界访问
"""

# 概念示�
@triton.jit
def concept_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # 1. ��当�程�ID
    pid = tl.program_id(axis=0)  # 第0维的程�ID

    # 2. 计算当�block的起始�置
    block_start = pid * BLOCK_SIZE

    # 3. 计算当�block内的�移�
    offsets = block_start + tl.arange(0, BLOCK_SIZE)

    # 4. 创建mask防�越界
    mask = offsets < n_elements

    # 5. 加载数�
    x = tl.load(x_ptr + offsets, mask=mask)

    # 6. 计算
    output = x * 2

    # 7. �储结�
    tl.store(output_ptr + offsets, output, mask=mask)
