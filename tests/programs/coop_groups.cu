// Cooperative groups as course programs use them: the block, tiles of 16 and 32 threads with
// shuffles (two tiles of 16 in one warp shuffle with their own masks at once), cg::reduce over a
// tile and over a tile of two warps, a tile chosen at run time, coalesced groups in a divergent
// branch, labeled and binary partitions, and memcpy_async with wait.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void groups(const int* in, int* out) {
    cg::thread_block block = cg::this_thread_block();
    const int v = in[blockIdx.x * blockDim.x + block.thread_rank()];

    // Tiles of 16: a shuffle-down sum, rank 0 of each tile writes it.
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    int s = v;
    for (int d = 8; d > 0; d /= 2) s += t16.shfl_down(s, d);
    if (t16.thread_rank() == 0) out[blockIdx.x * 64 + t16.meta_group_rank()] = s;

    // cg::reduce over a warp and over two warps (max and sum).
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    int m = cg::reduce(t32, v, cg::greater<int>());
    if (t32.thread_rank() == 0) out[blockIdx.x * 64 + 16 + t32.meta_group_rank()] = m;
    cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
    int s64 = cg::reduce(t64, v, cg::plus<int>());
    if (t64.thread_rank() == 0) out[blockIdx.x * 64 + 24 + t64.meta_group_rank()] = s64;

    // A tile of 8 chosen at run time, its size and rank.
    cg::thread_group t8 = cg::tiled_partition(block, 8);
    t8.sync();
    if (block.thread_rank() == 13) out[blockIdx.x * 64 + 28] = int(t8.size()) * 100 + int(t8.thread_rank());

    // Odd threads only: a coalesced group of 16 per warp, ranked among themselves.
    if (block.thread_rank() % 2 == 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        int first = odd.shfl(v, 0);
        if (block.thread_rank() == 33) out[blockIdx.x * 64 + 29] = int(odd.size()) * 10000 + int(odd.thread_rank()) * 1000 + first;
    }
    // Partitions of a warp by label (v % 3) and by a predicate (v >= 40).
    cg::coalesced_group byLabel = cg::labeled_partition(t32, v % 3);
    cg::coalesced_group big = cg::binary_partition(t32, v >= 40);
    if (block.thread_rank() == 5) out[blockIdx.x * 64 + 30] = int(byLabel.size()) * 100 + int(big.size());
    unsigned even = t32.ballot(v % 2 == 0);
    if (block.thread_rank() == 0) out[blockIdx.x * 64 + 31] = int(even);
}

__global__ void staged(const float* in, float* out, int n) {
    __shared__ float tile[256];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, tile, in + blockIdx.x * n, sizeof(float) * n);
    cg::wait(block);
    out[blockIdx.x * n + block.thread_rank()] = tile[n - 1 - block.thread_rank()] * 2.0f;
}

int main() {
    const int blocks = 2, threads = 128;
    int h[blocks * threads], r[blocks * 64] = {};
    for (int i = 0; i < blocks * threads; ++i) h[i] = (i * 37) % 101;
    int *din, *dout;
    cudaMalloc(&din, sizeof h);
    cudaMalloc(&dout, sizeof r);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0, sizeof r);
    groups<<<blocks, threads>>>(din, dout);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < blocks; ++b) {
        for (int t = 0; t < threads / 16; ++t) {
            int s = 0;
            for (int k = 0; k < 16; ++k) s += h[b * threads + t * 16 + k];
            bad += r[b * 64 + t] != s;
        }
        for (int w = 0; w < threads / 32; ++w) {
            int m = 0;
            for (int k = 0; k < 32; ++k) m = m > h[b * threads + w * 32 + k] ? m : h[b * threads + w * 32 + k];
            bad += r[b * 64 + 16 + w] != m;
        }
        for (int t = 0; t < threads / 64; ++t) {
            int s = 0;
            for (int k = 0; k < 64; ++k) s += h[b * threads + t * 64 + k];
            bad += r[b * 64 + 24 + t] != s;
        }
    }
    printf("tile sums, warp maxima, two-warp sums: %d mismatches\n", bad);
    printf("run-time tile: size*100+rank = %d\n", r[28]);
    printf("coalesced odd threads: size %d, rank %d, first value %d (h[33] = %d)\n", r[29] / 10000, r[29] / 1000 % 10, r[29] % 1000, h[33]);
    int sameLabel = 0, big = 0;
    unsigned even = 0;
    for (int k = 0; k < 32; ++k) {
        sameLabel += h[k] % 3 == h[5] % 3;
        big += (h[k] >= 40) == (h[5] >= 40);
        even |= unsigned(h[k] % 2 == 0) << k;
    }
    printf("label partition size %d (expected %d), binary partition size %d (expected %d), ballot %08x (expected %08x)\n", r[30] / 100,
           sameLabel, r[30] % 100, big, unsigned(r[31]), even);

    const int n = 256;
    float hf[2 * n], of[2 * n];
    for (int i = 0; i < 2 * n; ++i) hf[i] = float(i);
    float *dfi, *dfo;
    cudaMalloc(&dfi, sizeof hf);
    cudaMalloc(&dfo, sizeof of);
    cudaMemcpy(dfi, hf, sizeof hf, cudaMemcpyHostToDevice);
    staged<<<2, n>>>(dfi, dfo, n);
    cudaMemcpy(of, dfo, sizeof of, cudaMemcpyDeviceToHost);
    int badf = 0;
    for (int b = 0; b < 2; ++b)
        for (int i = 0; i < n; ++i) badf += of[b * n + i] != 2.0f * hf[b * n + n - 1 - i];
    printf("memcpy_async + wait: %d mismatches, error %s\n", badf, cudaGetErrorName(e == cudaSuccess ? cudaGetLastError() : e));
    return bad || badf;
}
