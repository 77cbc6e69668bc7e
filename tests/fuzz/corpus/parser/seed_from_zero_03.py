@triton.jit
def softmax_kernel(
    input_ptr,
    output_ptr,
    input_row_stride,   # 行�长
    output_row_stride,
    n_cols,             # 列数
    BLOCK_SIZE: tl.constexpr,
):
    """
    计算行方�的Softmax

    Softmax(x_i) = exp(x_i - max(x)) / sum(exp(x - max(x)))

    数�布局 (�个program处�一行):
    ┌────────────────────────────────────────�
    │ Row 0: [x00, x01, x02, ..., x0n] → Program 0
    │ Row 1: [x10, x11, x12, ..., x1n] → Program 1
    │ Row 2: [x20, x21, x22, ..., x2n] → Program 2
    │ ...
    └────────────────────────────────────────┘
    """
    # �个program处�一行
    row_idx = tl.program_id(0)

    # 计算当�行的起始指针
    row_start_ptr = input_ptr + row_idx * input_row_stride

    # 列�移�
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets

    # 边界mask
    mask = col_offsets < n_cols

    # 加载一行数� (越界�置用-inf填充)
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))

    # 数值稳定的softmax计算
    # Step 1: ��最大值
    row_max = tl.max(row, axis=0)
    row_minus_max = row - row_max

    # Step 2: 计算exp
    numerator = tl.exp(row_minus_max)

    # Step 3: 计算sum
    denominator = tl.sum(numerator, axis=0)

    # Step 4: 归一化
    softmax_output = numerator / denominator

    # �储结�
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    """Softmax的Python包装"""
    n_rows, n_cols = x.shape

    # 找到最近的2的幂次作为BLOCK_SIZE
    BLOCK_SIZE = triton.next_power_of_2(n_cols)

    # 创建输出tensor
    y = torch.empty_like(x)

    # �动kernel，�行一个program
    softmax_kernel[(n_rows,)](
        x, y,
        x.stride(0), y.stride(0),
        n_cols,
        BLOCK_SIZE=BLOCK_SIZE,
    )

    return y
