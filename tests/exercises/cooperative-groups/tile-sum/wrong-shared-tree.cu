// expect-fail: shared requests per block
// Correct tile sums, but through shared memory: each tile's 8 values are stored and added in a
// tree with a barrier after every round, where three shuffles keep them in registers.
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

    __shared__ int vals[256];
    const unsigned t = block.thread_rank();
    vals[t] = v;
    block.sync();
    for (unsigned s = 4; s > 0; s >>= 1) {
        if (tile.thread_rank() < s)
            vals[t] += vals[t + s];
        block.sync();
    }
    if (tile.thread_rank() == 0)
        partial[tile.meta_group_rank()] = vals[t];

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
