// Two streams with pinned memory, copies and kernels overlapping, timed with events.
#include <cstdio>

__global__ void scale(float* x, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

int main() {
    const int n = 1 << 14, half = n / 2;
    float* h;
    cudaMallocHost(&h, n * sizeof(float));
    for (int i = 0; i < n; ++i) h[i] = float(i);
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    cudaStream_t s[2];
    for (auto& st : s) cudaStreamCreate(&st);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    for (int k = 0; k < 2; ++k) {
        float* hp = h + k * half;
        float* dp = d + k * half;
        cudaMemcpyAsync(dp, hp, half * sizeof(float), cudaMemcpyHostToDevice, s[k]);
        scale<<<(half + 255) / 256, 256, 0, s[k]>>>(dp, 3.0f, half);
        cudaMemcpyAsync(hp, dp, half * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
    }
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = -1;
    cudaError_t e = cudaEventElapsedTime(&ms, start, stop);
    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (h[i] != 3.0f * i) ++bad;
    printf("elapsed: %s, positive: %s\n", cudaGetErrorName(e), ms > 0 ? "yes" : "no");
    printf("mismatches: %d\n", bad);
    for (auto& st : s) cudaStreamDestroy(st);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d);
    cudaFreeHost(h);
    printf("destroyed stream reused: %s\n", cudaGetErrorName(cudaStreamSynchronize(s[0])));
    cudaEvent_t untimed, other;
    cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming);
    cudaEventCreate(&other);
    cudaEventRecord(untimed);
    cudaEventRecord(other);
    cudaEventSynchronize(other);
    printf("elapsed with an untimed event: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, untimed, other)));
    cudaGetLastError();
    return bad == 0 && e == cudaSuccess && ms > 0 ? 0 : 1;
}
