# triton_util for tilescope: small debugging helpers that Triton notebooks import with
# `from triton_util import cdiv, breakpoint_if, print_if, check_tensors_gpu_ready, test_pid_conds`.
# Written for tilescope (interpreted like user code); the names and call conventions are the ones
# such programs expect.
import os
from IPython.core.debugger import set_trace

# Comparison operators a pid condition may use, two-character ones first so '>=' is not read as '>'.
_PID_OPERATORS = ['>=', '<=', '!=', '==', '<', '>', '=']


def _pid_value(pid):
    # Inside a simulated kernel a pid arrives as a one-element array; callers may also pass ints.
    if isinstance(pid, int):
        return pid
    return int(pid[0])


def _holds(value, op, bound):
    if op == '<':
        return value < bound
    if op == '>':
        return value > bound
    if op == '<=':
        return value <= bound
    if op == '>=':
        return value >= bound
    if op == '!=':
        return value != bound
    return value == bound  # '=' and '=='


def test_pid_conds(conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """True when the program ids satisfy every condition in `conds`.

    `conds` is a comma-separated list with one entry per axis, e.g. '>1,=0' means
    pid_0 > 1 and pid_1 == 0. An empty entry puts no constraint on its axis, so ''
    is always true and ',<2' only looks at pid_1.
    """
    values = [_pid_value(pid_0), _pid_value(pid_1), _pid_value(pid_2)]
    entries = conds.replace(' ', '').split(',')
    if len(entries) > 3:
        raise ValueError(f"pid condition '{conds}' has {len(entries)} entries; a launch has at most 3 axes.")
    for axis in range(len(entries)):
        entry = entries[axis]
        if entry == '':
            continue
        op = None
        for candidate in _PID_OPERATORS:
            if op is None and entry.startswith(candidate):
                op = candidate
        rest = entry[len(op):] if op is not None else ''
        if op is None or rest == '' or not rest.lstrip('-').isdigit():
            raise ValueError(f"pid condition '{entry}' is not an operator (<, >, <=, >=, =, !=) followed by a number.")
        if not _holds(values[axis], op, int(rest)):
            return False
    return True


def breakpoint_if(conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """Enter the debugger in the programs whose ids satisfy `conds` (see test_pid_conds)."""
    if test_pid_conds(conds, pid_0, pid_1, pid_2):
        set_trace()


def print_if(txt, conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """Print `txt` from the programs whose ids satisfy `conds` (see test_pid_conds)."""
    if test_pid_conds(conds, pid_0, pid_1, pid_2):
        print(txt)


def check_tensors_gpu_ready(*tensors):
    """Assert that every tensor is contiguous and, outside TRITON_INTERPRET=1 runs, on the GPU."""
    simulated = os.environ.get('TRITON_INTERPRET') == '1'
    for t in tensors:
        assert t.is_contiguous(), "check_tensors_gpu_ready: a tensor is not contiguous (call .contiguous() first)"
        if not simulated:
            assert t.is_cuda, "check_tensors_gpu_ready: a tensor is not on the GPU (move it with .cuda())"


def cdiv(a, b):
    """a / b rounded up: how many blocks of size b cover a elements."""
    return -(-a // b)
