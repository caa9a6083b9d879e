// expect-pass: no groups at all: __shfl_up_sync with the tile's own member mask (0xff << the
// tile's first lane) and width 8, which keeps each shuffle inside its 8 lanes, as the tile does.
// Inclusive prefix sums inside tiles of 8 threads: scan[i] = in[8k] + ... + in[i], k = i / 8.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void scan_tile8(const int* in, int* scan)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    const unsigned i = blockIdx.x * block.size() + block.thread_rank();
    int v = in[i];

    const unsigned lane = block.thread_rank() % 32;
    const unsigned mask = 0xffu << (lane & ~7u);
    for (unsigned o = 1; o < 8; o *= 2) {
        int up = __shfl_up_sync(mask, v, o, 8);
        if (lane % 8 >= o)
            v += up;
    }

    scan[i] = v;
}
