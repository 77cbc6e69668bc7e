@triton.jit
def matmul_kernel(
    # 矩阵指针
    a_ptr, b_ptr, c_ptr,
    # 矩阵维度
    M, N, K,
    # 矩阵�长
    stride_am, stride_ak,
    stride_bk, stride_bn,
    stride_cm, stride_cn,
    # �大�
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
):
    """
    计算 C = A @ B

    A: (M, K)  B: (K, N)  C: (M, N)

    分�计算示�图:
    ┌─────────────────────�     ┌─────────────────────�
    │         A           │     │         B           │
    │    ┌─────�          │     │  ┌─────┬─────┬───�  │
    │    │Block│→→→→→→→→→→│ × →→│→→│     │     │   │  │
    │    │ A   │  K方�    │     │  │Block│     │   │  │
    │    └─────┘          │     │  │ B   │     │   │  │
    │                     │     │  └─────┴─────┴───┘  │
    └─────────────────────┘     └─────────────────────┘
                                         ↓
                                ┌─────────────────────�
                                │         C           │
                                │    ┌─────�          │
                                │    │Block│ = 累加结�│
                                │    │ C   │          │
                                │    └─────┘          │
                                └─────────────────────┘
    """
    # 2D program id
    pid_m = tl.program_id(axis=0)  # 行方�
    pid_n = tl.program_id(axis=1)  # 列方�

    # 计算当��的�移�
    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)

    # �始化A和B的指针
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    # 累加器�始化为0
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    # 沿K维度循�
    for k in range(0, K, BLOCK_SIZE_K):
        # 边界检查
        a_mask = (offs_am[:, None] < M) & ((k + offs_k[None, :]) < K)
        b_mask = ((k + offs_k[:, None]) < K) & (offs_bn[None, :] < N)

        # 加载A和B的�
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b = tl.load(b_ptrs, mask=b_mask, other=0.0)

        # �矩阵乘法累加
        accumulator += tl.dot(a, b)

        # 移动指针到下一个K�
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    # 输出结�
    c = accumulator.to(tl.float16)

    # 计算输出�置
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)

    tl.store(c_ptrs, c, mask=c_mask)
