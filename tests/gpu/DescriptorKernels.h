#pragma once
// Kernels over tensor descriptors shared by the GPU backend's descriptor tests: CudaTensorDescriptorTest
// checks their ordinary-load code, CudaTmaTest their TMA code on sm_90a.
namespace tilescope::test {

// A K loop over descriptor boxes multiplied as a @ b.T (B given N x K, the grouped-GEMM tutorial's
// shape), descriptors made in the kernel, K a run-time value.
inline constexpr const char* kDescriptorMatmulBtSource = R"(import triton
import triton.language as tl

@triton.jit
def mm_bt(a_ptr, bt_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    bt = tl.make_tensor_descriptor(bt_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a.load([om, k * BK]), bt.load([on, k * BK]).T)
    c.store([om, on], acc)
)";

}  // namespace tilescope::test
