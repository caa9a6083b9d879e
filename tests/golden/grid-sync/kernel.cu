// warpscope-ptx-arch: sm_90
// Golden: grid-wide synchronisation (cooperative_groups::this_grid().sync()) in a cooperative
// launch, as nvcc 13 lowers it for sm_90 (%envreg1/2 hold the launch's workspace; one thread per
// block arrives on its counter with atom.add.release.gpu and polls it with ld.acquire.gpu).
// Three phases: every thread writes its value, after the first grid sync each thread sums a
// window that spans other blocks' values, after the second one block 0 folds the block sums.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void grid_phases(const int* in, int* a, int* b, int* total) {
    cg::grid_group grid = cg::this_grid();
    const unsigned long long r = grid.thread_rank(), n = grid.size();
    a[r] = in[r] * 3 + int(grid.block_rank());
    grid.sync();
    int s = 0;
    for (unsigned long long k = 0; k < 5; ++k) s += a[(r + k * 97) % n];   // values of other blocks
    b[r] = s;
    grid.sync();
    if (grid.block_rank() == 0 && threadIdx.x == 0) {
        long long t = 0;
        for (unsigned long long k = 0; k < n; ++k) t += b[k];
        total[0] = int(grid.is_valid());
        total[1] = int(grid.num_blocks());
        total[2] = int(t);
        total[3] = int(t >> 32);
    }
}
