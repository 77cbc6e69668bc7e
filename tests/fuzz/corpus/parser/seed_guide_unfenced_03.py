import os
# os.environ['TRITON_INTERPRET'] = '1'

import torch
import triton
import triton.language as tl

# moved util functions into separate file for better readability
from triton_util import cdiv, breakpoint_if, print_if, check_tensors_gpu_ready
