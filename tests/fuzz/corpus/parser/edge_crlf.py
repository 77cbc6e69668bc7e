import torch
x = (1,
     2)
if x:
    y = 1
