// warpscope-ptx-arch: sm_90
// Golden: warp reductions (redux.sync, sm_80+) through __reduce_*_sync, with the full warp, a
// partial last warp (80-thread blocks: the third warp has 16 lanes) and partial masks inside
// branches; and cooperative groups as nvcc lowers them: thread_block, tiled_partition<N> (static:
// 32, 16, 4) and tiled_partition(block, n) (dynamic), tile shfl/shfl_down/shfl_up/shfl_xor,
// any/all/ballot/match_any, meta_group_rank/size, coalesced_threads, labeled_partition,
// binary_partition, cg::reduce (plus, less, greater, bit_and, bit_or, bit_xor) on tiles and on a
// coalesced group.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdint>

namespace cg = cooperative_groups;

#define K 12

extern "C" __global__ void warp_reduce(const uint32_t* in, uint32_t* out) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const uint32_t m = __activemask();   // 0xffffffff, or 0x0000ffff in the partial warp
    const uint32_t v = in[t];
    uint32_t* o = out + size_t(t) * K;
    o[0] = __reduce_add_sync(m, v);
    o[1] = __reduce_add_sync(m, v & 0xff);
    o[2] = uint32_t(__reduce_min_sync(m, int(v)));
    o[3] = uint32_t(__reduce_max_sync(m, int(v)));
    o[4] = __reduce_min_sync(m, v);
    o[5] = __reduce_max_sync(m, v);
    o[6] = __reduce_and_sync(m, v | 0x01010101u);
    o[7] = __reduce_or_sync(m, v & 0x10204080u);
    o[8] = __reduce_xor_sync(m, v);
    // Partial masks: only the lanes that take each side reduce.
    if (v & 1) {
        const uint32_t odd = __ballot_sync(m & __activemask(), 1);   // the odd lanes, which are here
        o[9] = __reduce_add_sync(odd, v >> 4);
        o[10] = uint32_t(__reduce_max_sync(odd, int(v)));
    } else {
        const uint32_t even = __activemask();
        o[9] = __reduce_or_sync(even, 1u << (lane & 15));
        o[10] = __reduce_xor_sync(even, v * 3);
    }
    // A constant mask of the low half (the partial warp has exactly those lanes).
    o[11] = lane < 16 ? __reduce_add_sync(0x0000ffffu, uint32_t(lane) * v) : 0u;
}

#define G 24

extern "C" __global__ void coop_groups(const int* in, int* out) {
    cg::thread_block block = cg::this_thread_block();
    const unsigned r = block.thread_rank();
    const int v = in[blockIdx.x * block.size() + r];
    int* o = out + (size_t(blockIdx.x) * block.size() + r) * G;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(t16);
    cg::thread_group dyn = cg::tiled_partition(block, 8);
    o[0] = int(block.size()) * 1000 + int(r);
    o[1] = int(t16.thread_rank()) + 100 * int(t16.meta_group_rank()) + 10000 * int(t16.meta_group_size());
    o[2] = int(t4.thread_rank()) + 100 * int(t4.meta_group_rank()) + 10000 * int(t4.meta_group_size());
    o[3] = int(dyn.thread_rank()) + 100 * int(dyn.size());
    o[4] = t16.shfl(v, 5);
    o[5] = t16.shfl_down(v, 3);
    o[6] = t16.shfl_up(v, 2);
    o[7] = t4.shfl_xor(v, 1);
    o[8] = int(t16.ballot(v & 1));
    o[9] = t16.any(v % 7 == 0) + 2 * t16.all(v != 0) + 4 * t4.any((v & 15) == 3) + 8 * t4.all(v & 1);
    o[10] = int(t16.match_any(v & 3));
    o[11] = cg::reduce(t16, v, cg::plus<int>());
    o[12] = cg::reduce(t16, v, cg::less<int>());
    o[13] = cg::reduce(t4, v, cg::greater<int>());
    o[14] = cg::reduce(warp, v, cg::bit_and<int>()) ^ cg::reduce(warp, v, cg::bit_or<int>());
    o[15] = cg::reduce(t4, v, cg::bit_xor<int>());
    o[16] = cg::reduce(t16, float(v & 0xfff), cg::plus<float>()) > 20000.0f ? 1 : 0;
    block.sync();
    t16.sync();
    dyn.sync();
    int c0 = -1, c1 = -1, c2 = -1, c3 = -1, c4 = -1;
    if (v & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        c0 = int(active.thread_rank()) + 100 * int(active.size());
        c1 = active.shfl(v, 0);
        c2 = int(active.ballot((v & 6) == 2));
        cg::coalesced_group same = cg::labeled_partition(active, (v >> 4) % 3);
        c3 = int(same.thread_rank()) + 100 * int(same.size()) + 10000 * cg::reduce(same, v & 0xff, cg::plus<int>());
        cg::coalesced_group yes = cg::binary_partition(active, v & 8);
        c4 = int(yes.thread_rank()) + 100 * int(yes.size()) + 10000 * (yes.shfl(v, yes.size() - 1) & 0xff);
    }
    o[17] = c0;
    o[18] = c1;
    o[19] = c2;
    o[20] = c3;
    o[21] = c4;
    o[22] = int(cg::reduce(t16, unsigned(v) >> 1, cg::greater<unsigned>()));
    o[23] = cg::reduce(t4, v & 0xffff, [](int a, int b) { return a * 3 + b; } ) ;
}
