// __constant__ memory filled with cudaMemcpyToSymbol, and a __device__ variable read back.
#include <cstdio>

__constant__ float coeffs[4];
__device__ int calls;

__global__ void poly(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = coeffs[0] + v * (coeffs[1] + v * (coeffs[2] + v * coeffs[3]));
        atomicAdd(&calls, 1);
    }
}

int main() {
    const int n = 64;
    float hc[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    cudaMemcpyToSymbol(coeffs, hc, sizeof hc);
    int zero = 0;
    cudaMemcpyToSymbol(calls, &zero, sizeof zero);
    float hx[n], hy[n];
    for (int i = 0; i < n; ++i) hx[i] = i * 0.5f;
    float *dx, *dy;
    cudaMalloc(&dx, sizeof hx);
    cudaMalloc(&dy, sizeof hy);
    cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
    poly<<<2, 32>>>(dx, dy, n);
    cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost);
    int hcalls = 0;
    cudaMemcpyFromSymbol(&hcalls, calls, sizeof hcalls);
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float v = hx[i];
        if (hy[i] != 1.0f + v * (2.0f + v * (3.0f + v * 4.0f))) ++bad;
    }
    printf("y[3] = %g, kernel threads counted = %d, mismatches = %d\n", hy[3], hcalls, bad);
    // A symbol copy that does not fit is an error, not a silent overrun.
    float big[8] = {};
    cudaError_t e = cudaMemcpyToSymbol(coeffs, big, sizeof big);
    printf("oversized copy: %s\n", cudaGetErrorName(e));
    return bad == 0 && hcalls == n ? 0 : 1;
}
