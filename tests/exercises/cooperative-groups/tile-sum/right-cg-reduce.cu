// expect-pass: cg::reduce adds the tile's values (a butterfly of shfl.sync.bfly, every lane ends
// with the sum), then lane 0 of the tile writes it.
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

    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0)
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
