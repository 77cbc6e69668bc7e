z = copy(x, bs=2, kernel_fn=copy_k)
