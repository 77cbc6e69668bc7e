grouped_autotuned_matmul(a,b)
