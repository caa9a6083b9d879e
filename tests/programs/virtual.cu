// Virtual functions in device code: a class hierarchy whose objects are made with device-side
// new in one kernel, used through base-class pointers in another (each warp's lanes call
// different overrides), and deleted in a third, as the CUDA samples' newdelete does.
#include <cstdio>

struct Animal {
    int legs;
    __device__ Animal(int l) : legs(l) {}
    __device__ virtual ~Animal() {}
    __device__ virtual int sound() const = 0;
    __device__ virtual int weight() const { return 10 * legs; }
    __device__ int describe() const { return sound() * 1000 + weight(); }   // non-virtual, calls virtuals
};
struct Dog : Animal {
    __device__ Dog() : Animal(4) {}
    __device__ int sound() const override { return 1; }
};
struct Bird : Animal {
    int wings;
    __device__ Bird() : Animal(2), wings(2) {}
    __device__ int sound() const override { return 2; }
    __device__ int weight() const override { return 3 + wings; }
};
struct Snake : Animal {
    int length;
    __device__ Snake(int len) : Animal(0), length(len) {}
    __device__ int sound() const override { return 3; }
    __device__ int weight() const override { return length; }
};

__global__ void make(Animal** zoo, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    switch (i % 3) {
    case 0: zoo[i] = new Dog(); break;
    case 1: zoo[i] = new Bird(); break;
    default: zoo[i] = new Snake(i); break;
    }
}

__global__ void visit(Animal* const* zoo, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = zoo[i] ? zoo[i]->describe() : -1;
}

__global__ void destroy(Animal** zoo, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        delete zoo[i];
        zoo[i] = nullptr;
    }
}

int main() {
    const int n = 100;
    Animal** zoo;
    int* d_out;
    cudaMalloc(&zoo, n * sizeof(Animal*));
    cudaMalloc(&d_out, n * sizeof(int));
    make<<<2, 64>>>(zoo, n);
    visit<<<2, 64>>>(zoo, d_out, n);
    int out[n];
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    destroy<<<2, 64>>>(zoo, n);
    cudaError_t e = cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int want = i % 3 == 0 ? 1040 : i % 3 == 1 ? 2005 : 3000 + i;
        if (out[i] != want) ++bad;
    }
    printf("dog %d, bird %d, snake(5) %d, snake(98) %d\n", out[0], out[1], out[5], out[98]);
    printf("%d mismatches, %s\n", bad, cudaGetErrorName(e));
    return bad == 0 && e == cudaSuccess ? 0 : 1;
}
