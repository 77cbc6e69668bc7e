import os
from IPython.core.debugger import set_trace

os.environ['TRITON_INTERPRET'] = '1' # needs to be set *before* triton is imported

def check_tensors_gpu_ready(*tensors):
    """检查所有张�是�在GPU上并且是��的"""
    for t in tensors:
        assert t.is_contiguous, "A tensor is not contiguous"  # �言张�是��的
        if not os.environ.get('TRITON_INTERPRET') == '1': assert t.is_cuda, "A tensor is not on cuda"  # 如��是模拟模�，�言张�在GPU上

def test_pid_conds(conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """测试pid�件是�满足
    例如:
        '=0'  检查pid_0 == 0
        ',>1' 检查pid_1 > 1
        '>1,=0' 检查pid_0 > 1 且 pid_1 == 0
    """
    pids = pid_0[0], pid_1[0], pid_2[0]  # ��pid值
    conds = conds.replace(' ','').split(',')  # �除空格并分割�件
    for i, (cond, pid) in enumerate(zip(conds, pids)):
        if cond=='': continue  # 如��件为空，跳过
        op, threshold = cond[0], int(cond[1:])  # ���作符和阈值
        if op not in ['<','>','>=','<=','=', '!=']: raise ValueError(f"Rules may only use these ops: '<','>','>=','<=','=', '!='. Invalid rule: '{condition}'.")  # 检查�作符是��法
        op = '==' if op == '=' else op  # 将'='替�为'=='
        if not eval(f'{pid} {op} {threshold}'): return False  # 评估�件是�满足
    return True

assert test_pid_conds('')  # 测试空�件
assert test_pid_conds('>0', [1], [1])  # 测试pid_0 > 0
assert not test_pid_conds('>0', [0], [1])  # 测试pid_0 > 0�满足
assert test_pid_conds('=0,=1', [0], [1], [0])  # 测试pid_0 = 0 且 pid_1 = 1

def breakpoint_if(conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """如�任何pid�件满足，��kernel"""
    if test_pid_conds(conds, pid_0, pid_1, pid_2): set_trace()  # 如��件满足，设置�点

def print_if(txt, conds, pid_0=[0], pid_1=[0], pid_2=[0]):
    """如�任何pid�件满足，打�txt"""
    if test_pid_conds(conds, pid_0, pid_1, pid_2): print(txt)  # 如��件满足，打�文本

def cdiv(a,b): 
    """计算a除以b的上�值"""
    return (a + b - 1) // b  # 计算a除以b的上�值
assert cdiv(10,2)==5  # 测试cdiv函数
assert cdiv(10,3)==4  # 测试cdiv函数
