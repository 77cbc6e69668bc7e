# x,y = 输入张�, z = 输出张�, n = x的大�, bs = �大�
def add_cuda_k(x, y, z, n, bs):
    # 定��特定kernel�在执行的整体计算的哪一部分
    block_id = ... # 在我们的例��: 是[0,1]�的一个
    thread_id = ... # 在我们的例��: 是[0,1,2,3]�的一个

    # 识别�特定kernel需�的数��置
    offs = block_id * bs + thread_id
    
    # �护��, 确�我们�会越界
    if offs < n:

        # 读�数�
        x_value = x[offs]
        y_value = y[offs]
        
        # 执行�作
        z_value = x_value + y_value
        
        # 写入数�
        z[offs] = z_value

    # ��: offs, x_value, y_value, x_value 都是标�!
    # �护�件也是一�标�, 因为它检查一个值上的一个�件。
