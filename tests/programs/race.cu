// A shared-memory race: the barrier between the write and the neighbour's read is missing.
#include <cstdio>

__global__ void shift(const int* in, int* out) {
    __shared__ int s[64];
    s[threadIdx.x] = in[threadIdx.x];
    // __syncthreads() belongs here
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

int main() {
    int h[64];
    for (int i = 0; i < 64; ++i) h[i] = i;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    shift<<<1, 64>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[31] = %d, error %s\n", h[31], cudaGetErrorName(cudaGetLastError()));
    return 0;
}
