# 基本导入
import torch
import triton
import triton.language as tl
