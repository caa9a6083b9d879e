// A cooperative launch as a course program writes it: grid.sync() between two phases that read
// other blocks' results, the device attribute that says cooperative launches work, the occupancy
// query that sizes the grid, and a grid too large to be resident at once.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void phases(const int* in, int* partial, int* out, int n) {
    cg::grid_group grid = cg::this_grid();
    const int r = (int)grid.thread_rank();
    partial[r] = in[r] * 2;
    grid.sync();
    out[r] = partial[(r + 300) % n] + partial[(r + 600) % n];
    grid.sync();
    if (r == 0) out[n] = grid.is_valid() ? (int)grid.num_blocks() : -1;
}

int main() {
    int coop = 0;
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
    printf("cooperative launch attribute: %d\n", coop);
    const int blocks = 8, threads = 128, n = blocks * threads;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i % 13;
    int *in, *partial, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&partial, n * sizeof(int));
    cudaMalloc(&out, (n + 1) * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    int nn = n;
    void* args[] = {&in, &partial, &out, &nn};
    cudaError_t e = cudaLaunchCooperativeKernel((void*)phases, dim3(blocks), dim3(threads), args, 0, 0);
    cudaDeviceSynchronize();
    int got[n + 1];
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < n; ++r) bad += got[r] != 2 * (h[(r + 300) % n] + h[(r + 600) % n]);
    printf("cooperative launch: %s, %d mismatches, blocks %d\n", cudaGetErrorName(e), bad, got[n]);
    int perSm = 0, sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, phases, 1024, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    e = cudaLaunchCooperativeKernel((void*)phases, dim3(perSm * sms + 1), dim3(1024), args, 0, 0);
    printf("grid of %d blocks of 1024: %s\n", perSm * sms + 1, cudaGetErrorName(e));
    return 0;
}
