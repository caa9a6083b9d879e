// expect-fail: correct
// The scan is over the whole warp (__shfl_up_sync on all 32 lanes, offsets up to 16): sections of
// 32 elements instead of the tiles of 8.
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
    for (unsigned o = 1; o < 32; o *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += up;
    }

    scan[i] = v;
}
