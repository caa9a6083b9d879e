// expect-fail: correct
// The tile's sum is taken from its last lane, as if shfl_down carried the values towards the end
// of the tile; it carries them towards rank 0. Rank 7 reads past the tile's end in every round,
// where a shuffle returns the lane's own value, so it ends with 8 times its own value.
// Sum of each block's 256 values in tiles of 8 threads: each tile adds its 8 values, then the
// first warp adds the 32 tile sums.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

extern "C" __global__ void reduce_tile8(const int* in, int* out)
{
    __shared__ int partial[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int v = in[blockIdx.x * block.size() + block.thread_rank()];

    for (int o = tile.size() / 2; o > 0; o >>= 1)
        v += tile.shfl_down(v, o);
    // the last lane has seen everything by now
    if (tile.thread_rank() == tile.size() - 1)
        partial[tile.meta_group_rank()] = v;

    block.sync();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    if (warp.meta_group_rank() == 0) {
        v = partial[warp.thread_rank()];
        for (int o = warp.size() / 2; o > 0; o >>= 1)
            v += warp.shfl_down(v, o);
        if (warp.thread_rank() == 0)
            out[blockIdx.x] = v;
    }
}
