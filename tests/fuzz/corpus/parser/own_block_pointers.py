import triton
import triton.language as tl


@triton.jit
def blocked_scale(src, dst, H, W, s_h, s_w, factor, BH: tl.constexpr, BW: tl.constexpr):
    src_blk = tl.make_block_ptr(base=src, shape=(H, W), strides=(s_h, s_w),
                                offsets=(tl.program_id(0) * BH, 0), block_shape=(BH, BW), order=(1, 0))
    dst_blk = tl.make_block_ptr(dst, (H, W), (s_h, s_w), (tl.program_id(0) * BH, 0), (BH, BW), (1, 0))
    for _ in range(0, W, BW):
        tile = tl.load(src_blk, boundary_check=(0, 1), padding_option="zero")
        tl.store(dst_blk, tile * factor, boundary_check=(0, 1))
        src_blk = tl.advance(src_blk, (0, BW))
        dst_blk = tl.advance(dst_blk, (0, BW))
