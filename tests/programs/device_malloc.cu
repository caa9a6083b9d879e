// Device-side malloc, free, new and placement new: each thread allocates its own array, a block
// builds an object in shared memory with placement new, and a request larger than the heap
// (8 MiB, cudaLimitMallocHeapSize) gets NULL as on a GPU.
#include <cstdio>
#include <new>

struct Counter {
    int* slots;
    int n;
    __device__ Counter(int* s, int count) : slots(s), n(count) {
        for (int i = 0; i < n; ++i) slots[i] = 0;
    }
    __device__ void add(int i, int v) { atomicAdd(&slots[i % n], v); }
};

__global__ void work(int* out, int* tooBig) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int* mine = (int*)malloc(4 * sizeof(int));
    for (int i = 0; i < 4; ++i) mine[i] = t * 4 + i;
    int sum = 0;
    for (int i = 0; i < 4; ++i) sum += mine[i];
    free(mine);
    float* f = new float[2];
    f[0] = 0.5f;
    f[1] = 1.5f;
    sum += (int)(f[0] + f[1]);
    delete[] f;

    __shared__ __align__(8) unsigned char buffer[sizeof(Counter)];
    __shared__ int slots[8];
    __shared__ Counter* counter;
    if (threadIdx.x == 0) counter = new (buffer) Counter(slots, 8);
    __syncthreads();
    counter->add(threadIdx.x, 1);
    __syncthreads();
    out[t] = sum + (threadIdx.x < 8 ? counter->slots[threadIdx.x] * 1000 : 0);
    if (t == 0) *tooBig = malloc(16u << 20) == nullptr;
}

int main() {
    size_t heap = 0;
    cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    int *out, *tooBig;
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMalloc(&tooBig, sizeof(int));
    work<<<2, 32>>>(out, tooBig);
    cudaError_t e = cudaDeviceSynchronize();
    int h[64], big = 0;
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(&big, tooBig, sizeof big, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int t = 0; t < 64; ++t) {
        int want = (t * 4) * 4 + 6 + 2 + ((t % 32) < 8 ? 4 * 1000 : 0);
        if (h[t] != want) ++bad;
    }
    printf("heap %zu MiB; out[0] = %d, out[63] = %d, mismatches %d; 16 MiB malloc gives NULL: %s; %s\n", heap >> 20, h[0], h[63], bad,
           big ? "yes" : "no", cudaGetErrorName(e));
    return bad == 0 && big && e == cudaSuccess ? 0 : 1;
}
