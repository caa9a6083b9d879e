// Inclusive prefix sums inside tiles of 8 threads: scan[i] = in[8k] + ... + in[i], k = i / 8.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void scan_tile8(const int* in, int* scan)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    const unsigned i = blockIdx.x * block.size() + block.thread_rank();
    int v = in[i];

    // TODO(student): turn v into the sum of the tile's values up to this lane, with
    // tile.shfl_up and offsets 1, 2, 4 (add only where tile.thread_rank() >= the offset).

    scan[i] = v;
}
