# 注�：这是为了说�，�法�完全�确。请��下文以���确的Triton�法

def add_triton_k(x, y, z, n, bs):
    # 定��特定kernel�在执行的整体计算的哪一部分
    block_id = tl.program_id(0)  # 在我们的例��: 是[0,1]�的一个
    
    # 识别�特定kernel需�的数��置
    offs = block_id * bs + tl.arange(0, bs) # <- 这是一个��!
    
    # �护����一个��，这是一个布尔��
    mask = offs < n # <- 这是一个布尔��!
    
    # 读�数�
    x_values = x[offs] # <- 读�一个��!
    y_values = y[offs] # <- 读�一个��!
    
    # 执行�作
    z_value = x_value + y_value  # <- ��相加!
    
    # 写入数�
    z[offs] = z_value  # <- 写入一个��!
