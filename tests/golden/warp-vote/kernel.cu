// Golden: warp votes and matches. ballot/all/any/uni, __activemask (in converged code only, where
// its value is defined: the last warp of each block is partial, 16 of 32 lanes), ballots with a
// partial mask inside a branch, match.any/match.all on 32- and 64-bit keys, and %lanemask_*.
#include <cstdint>

#define K 12

extern "C" __global__ void warp_vote(const uint32_t* in, uint32_t* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    uint32_t m = __activemask();        // 0xffffffff, or 0x0000ffff in the partial warp
    uint32_t v = in[t];
    uint32_t* o = out + size_t(t) * K;
    o[0] = m;
    o[1] = __ballot_sync(m, v & 1);
    o[2] = uint32_t(__all_sync(m, v != 0)) | (uint32_t(__all_sync(m, (v & 7) != 0)) << 1) |
           (uint32_t(__any_sync(m, (v & 0xff) == 0)) << 2) | (uint32_t(__any_sync(m, lane == 3)) << 3) |
           (uint32_t(__uni_sync(m, lane >= 0)) << 4) | (uint32_t(__uni_sync(m, v & 2)) << 5);
    o[3] = uint32_t(__popc(__ballot_sync(m, v > 0x80000000u)));
    uint32_t partial = 0;
    if (lane < 16) partial = __ballot_sync(0x0000ffffu & m, v & 4);   // only the lanes that vote
    else partial = __ballot_sync(0xffff0000u & m, v & 8);
    o[4] = partial;
    o[5] = __match_any_sync(m, v % 5);
    o[6] = __match_any_sync(m, (unsigned long long)(v & 3) << 40);
    int pred = 0;
    o[7] = __match_all_sync(m, lane < 32 ? (v >> 31) & (blockIdx.x & 1) : 0, &pred);
    o[8] = uint32_t(pred);
    uint32_t lt, le, gt, ge, eq;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    o[9] = __popc(__ballot_sync(m, v & 1) & lt) | (lt ^ le ^ gt ^ ge ^ eq) << 8;
    __syncwarp(m);
    uint32_t laneid;
    asm("mov.u32 %0, %%laneid;" : "=r"(laneid));
    o[10] = laneid | (uint32_t(warpSize) << 8);
    // A ballot after a divergent loop: lanes reconverge before the vote.
    uint32_t k = v & 15, steps = 0;
    while (k != 0) { k >>= 1; ++steps; }
    o[11] = __ballot_sync(m, steps > 2) ^ __ballot_sync(m, steps & 1);
}
