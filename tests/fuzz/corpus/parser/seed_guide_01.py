import torch
import triton
import triton.language as tl
