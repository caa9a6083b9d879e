// Inclusive prefix sums inside tiles of 8 threads: scan[i] = in[8k] + ... + in[i], k = i / 8.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void scan_tile8(const int* in, int* scan)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    const unsigned i = blockIdx.x * block.size() + block.thread_rank();
    int v = in[i];

    for (unsigned o = 1; o < tile.size(); o *= 2) {
        int up = tile.shfl_up(v, o);
        if (tile.thread_rank() >= o)
            v += up;
    }

    scan[i] = v;
}
