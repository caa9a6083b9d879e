// One block of 256 values summed four ways; each block writes one sum. The first is the
// reduction lesson's shuffle kernel; the other three say the same with cooperative groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// 1. Plain warp shuffles: the mask 0xffffffff names all 32 lanes of the warp.
extern "C" __global__ void reduce_warp(const int* in, int* out)
{
    __shared__ int partial[8];
    unsigned t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (t % 32 == 0)
        partial[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < blockDim.x / 32 ? partial[t] : 0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}

// 2. The same with groups: the block, and a tile of 32 threads (one warp).
extern "C" __global__ void reduce_tile32(const int* in, int* out)
{
    __shared__ int partial[8];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = in[blockIdx.x * block.size() + block.thread_rank()];
    for (int o = warp.size() / 2; o > 0; o >>= 1)
        v += warp.shfl_down(v, o);
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
        for (int o = warp.size() / 2; o > 0; o >>= 1)
            v += warp.shfl_down(v, o);
        if (warp.thread_rank() == 0)
            out[blockIdx.x] = v;
    }
}

// 3. Tiles of 8: four tiles share each warp, and each adds its own 8 values. Their 32 sums
//    are then added by the first warp as a tile of 32.
extern "C" __global__ void reduce_tile8(const int* in, int* out)
{
    __shared__ int partial[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int v = in[blockIdx.x * block.size() + block.thread_rank()];
    for (int o = tile.size() / 2; o > 0; o >>= 1)
        v += tile.shfl_down(v, o);
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

// 4. Tiles of 4 with cg::reduce, which writes the shuffles for us. 64 sums, then the first
//    warp adds two each and reduces them as a tile of 32.
extern "C" __global__ void reduce_tile4(const int* in, int* out)
{
    __shared__ int partial[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<4> tile = cg::tiled_partition<4>(block);
    int v = in[blockIdx.x * block.size() + block.thread_rank()];
    v = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0)
        partial[tile.meta_group_rank()] = v;
    block.sync();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    if (warp.meta_group_rank() == 0) {
        v = partial[warp.thread_rank()] + partial[warp.thread_rank() + 32];
        v = cg::reduce(warp, v, cg::plus<int>());
        if (warp.thread_rank() == 0)
            out[blockIdx.x] = v;
    }
}
