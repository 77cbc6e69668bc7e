# triton_util: the debugging helpers of UmerHA's "Triton practitioners guide" (the module its
# matmul chapters import with `from triton_util import cdiv, breakpoint_if, print_if,
# check_tensors_gpu_ready`). tilescope ships this source and interprets it like user code.
import os
from IPython.core.debugger import set_trace


def test_pid_conds(conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """Test if condition on pids are fulfilled
    E.g.:
        '=0'  checks that pid_0 == 0
        ',>1' checks that pid_1 > 1
        '>1,=0' checks that pid_0 > 1 and pid_1 == 0
    """
    pids = pid_0[0], pid_1[0], pid_2[0]
    conds = conds.replace(' ', '').split(',')
    for i, (cond, pid) in enumerate(zip(conds, pids)):
        if cond == '': continue
        op, threshold = cond[0], int(cond[1:])
        if op not in ['<', '>', '>=', '<=', '=', '!=']:
            raise ValueError(f"Rules may only use these ops: '<','>','>=','<=','=', '!='. Invalid rule: '{cond}'.")
        op = '==' if op == '=' else op
        if not eval(f'{pid} {op} {threshold}'): return False
    return True


assert test_pid_conds('')
assert test_pid_conds('>0', [1], [1])
assert not test_pid_conds('>0', [0], [1])
assert test_pid_conds('=0,=1', [0], [1], [0])


def breakpoint_if(conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """Stop kernel, if any condition of pids is fulfilled"""
    if test_pid_conds(conds, pid_0, pid_1, pid_2): set_trace()


def print_if(txt, conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """Print txt, if any condition of pids is fulfilled"""
    if test_pid_conds(conds, pid_0, pid_1, pid_2): print(txt)


def check_tensors_gpu_ready(*tensors):
    """Check that all tensors are contiguous and, unless simulating, on the GPU"""
    for t in tensors:
        assert t.is_contiguous, "A tensor is not contiguous"
        if not os.environ.get('TRITON_INTERPRET') == '1': assert t.is_cuda, "A tensor is not on cuda"


def cdiv(a, b):
    """Ceiling division of a by b"""
    return (a + b - 1) // b
