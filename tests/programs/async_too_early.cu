// A tile copied with cuda::memcpy_async on a barrier and read before the barrier's wait: the
// copy is a cp.async, so racecheck names the read that came before the data (on a GPU the value
// read is whatever shared memory held). With the wait in place (argument "wait") it is clean.
#include <cuda/barrier>
#include <cstdio>
#include <cstring>

__global__ void early(const float* in, float* out, bool wait) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float tile[32];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float), bar);
    if (wait) bar.arrive_and_wait();
    out[threadIdx.x] = tile[31 - threadIdx.x];
    if (!wait) bar.arrive_and_wait();
}

int main(int argc, char** argv) {
    const bool wait = argc > 1 && std::strcmp(argv[1], "wait") == 0;
    float h[32], *d_in, *d_out;
    for (int i = 0; i < 32; ++i) h[i] = float(i);
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_out, sizeof h);
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof h);
    early<<<1, 32>>>(d_in, d_out, wait);
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s: out[0] = %.0f, %s\n", wait ? "waited" : "not waited", h[0], cudaGetErrorName(cudaGetLastError()));
    return 0;
}
