"""
┌─────────────────────────────────────────────────────────────────────────�
│                         Triton Language API                              │
├─────────────────────────────────────────────────────────────────────────┤
│                                                                          │
│  �程�标识】                                                             │
│  tl.program_id(axis)     - ��当�program在指定维度的ID                  │
│  tl.num_programs(axis)   - ��指定维度的program总数                      │
│                                                                          │
│  �内��作】                                                             │
│  tl.load(ptr, mask)      - �全局内�加载数�                             │
│  tl.store(ptr, val, mask) - �全局内��储数�                            │
│  tl.atomic_add(ptr, val)  - ��加�作                                    │
│                                                                          │
│  �数��算】                                                             │
│  tl.exp(x)               - 指数�算                                      │
│  tl.log(x)               - 对数�算                                      │
│  tl.sqrt(x)              - 平方根                                        │
│  tl.abs(x)               - �对值                                        │
│  tl.dot(a, b)            - 矩阵乘法                                      │
│                                                                          │
│  �规约�作】                                                             │
│  tl.sum(x, axis)         - 求和                                          │
│  tl.max(x, axis)         - 求最大值                                      │
│  tl.min(x, axis)         - 求最�值                                      │
│                                                                          │
│  �数��作】                                                             │
│  tl.arange(start, end)   - 创建��整数�列                               │
│  tl.zeros(shape, dtype)  - 创建零张�                                    │
│  tl.broadcast_to(x, shape) - 广�                                        │
│  tl.where(cond, x, y)    - �件选择                                      │
│                                                                          │
│  ����作】                                                             │
│  tl.debug_barrier()      - ���障                                      │
│                                                                          │
└─────────────────────────────────────────────────────────────────────────┘
"""
