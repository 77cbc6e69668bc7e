@triton.jit
def layernorm_kernel(
    X, Y, W, B,      # 输入�输出�����置
    Mean, Rstd,      # �值和逆标准差 (�选输出)
    stride,          # 行�长
    N,               # �行元素数
    eps,             # epsilon
    BLOCK_SIZE: tl.constexpr,
):
    """
    LayerNorm: y = (x - mean) / sqrt(var + eps) * weight + bias

    计算过程:
    ┌─────────────────────────────────────────────────────────�
    │  1. 计算�值: mean = sum(x) / N                          │
    │  2. 计算方差: var = sum((x - mean)^2) / N                │
    │  3. 归一化: x_norm = (x - mean) / sqrt(var + eps)       │
    │  4. 缩放平移: y = x_norm * weight + bias                │
    └─────────────────────────────────────────────────────────┘
    """
    row = tl.program_id(0)

    # 计算当�行的起始指针
    X += row * stride
    Y += row * stride

    # 列�移
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N

    # 加载数�
    x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)

    # 计算�值
    mean = tl.sum(x, axis=0) / N

    # 计算方差
    xmean = x - mean
    var = tl.sum(xmean * xmean, axis=0) / N

    # 计算逆标准差
    rstd = 1 / tl.sqrt(var + eps)

    # 归一化
    x_hat = xmean * rstd

    # 加载��和�置
    w = tl.load(W + cols, mask=mask, other=1.0)
    b = tl.load(B + cols, mask=mask, other=0.0)

    # 缩放和平移
    y = x_hat * w + b

    # �储结�
    tl.store(Y + cols, y, mask=mask)

    # �选：�储�值和逆标准差
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
