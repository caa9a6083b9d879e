// Stream-ordered allocation (cudaMallocAsync, cudaFreeAsync, the device's memory pool), and
// device-side helpers course programs meet: memcpy in a kernel, and arithmetic with a chosen
// rounding (__fadd_rd/__fadd_ru, __ddiv_ru, __dmul_rd), the tools of interval arithmetic.
#include <cstdint>
#include <cstdio>

struct Pair {
    float lo, hi;
};

__global__ void bounds(const float* a, const float* b, Pair* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Pair p;
    p.lo = __fadd_rd(a[i], b[i]);
    p.hi = __fadd_ru(a[i], b[i]);
    memcpy(&out[i], &p, sizeof p);
}

__global__ void roundUp(double* x) { x[0] = __ddiv_ru(x[0], 3.0) > __ddiv_rd(x[0], 3.0) && __dmul_ru(x[0] * 0.1, 0.1) > __dmul_rd(x[0] * 0.1, 0.1) ? 1.0 : 0.0; }

int main() {
    int pools = 0;
    cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0);
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    uint64_t threshold = UINT64_MAX;
    printf("pools: %d, set release threshold: %s\n", pools, cudaGetErrorName(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold)));
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    const int n = 1000;
    float *a, *b;
    Pair* out;
    cudaMallocAsync(&a, n * sizeof(float), s);
    cudaMallocAsync(&b, n * sizeof(float), s);
    cudaMallocAsync(&out, n * sizeof(Pair), s);
    uint64_t used = 0;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
    printf("in use after three allocations: %s\n", used >= n * (2 * sizeof(float) + sizeof(Pair)) ? "all of them" : "less");
    float ha[n], hb[n];
    for (int i = 0; i < n; ++i) {
        ha[i] = 1.0f;
        hb[i] = 1e-8f * float(i % 3);
    }
    cudaMemcpyAsync(a, ha, sizeof ha, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(b, hb, sizeof hb, cudaMemcpyHostToDevice, s);
    bounds<<<(n + 127) / 128, 128, 0, s>>>(a, b, out, n);
    Pair h[n];
    cudaMemcpyAsync(h, out, sizeof h, cudaMemcpyDeviceToHost, s);
    cudaFreeAsync(a, s);
    cudaFreeAsync(b, s);
    cudaFreeAsync(out, s);
    cudaStreamSynchronize(s);
    int exact = 0, widened = 0;
    for (int i = 0; i < n; ++i) {
        if (h[i].lo == h[i].hi) ++exact;
        else if (h[i].hi > h[i].lo) ++widened;
    }
    printf("exact sums: %d, widened intervals: %d, h[1] = [%.9g, %.9g]\n", exact, widened, h[1].lo, h[1].hi);
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
    printf("in use after the frees: %llu\n", (unsigned long long)used);
    double* d;
    cudaMalloc(&d, sizeof(double));
    double x = 1.0;
    cudaMemcpy(d, &x, sizeof x, cudaMemcpyHostToDevice);
    roundUp<<<1, 1>>>(d);
    cudaMemcpy(&x, d, sizeof x, cudaMemcpyDeviceToHost);
    printf("1/3 rounded up > rounded down: %s, error %s\n", x == 1.0 ? "yes" : "no", cudaGetErrorName(cudaGetLastError()));
    cudaFree(d);
    cudaStreamDestroy(s);
    return 0;
}
