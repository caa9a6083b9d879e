// A program in the style of a course's: the C++ standard library on the host (random, chrono,
// algorithm, iostream), a templated reduction kernel with shared memory, shuffles and atomics.
#include <iostream>
#include <vector>
#include <cmath>
#include <chrono>
#include <random>
#include <algorithm>
#include <numeric>
#include <string>
#include <cstdlib>
#include <cuda_runtime.h>
#include <device_launch_parameters.h>

#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::cerr << cudaGetErrorString(e) << std::endl; std::exit(1);} } while (0)

template <int BLOCK>
__global__ void reduceSum(const float* in, float* out, int n) {
    __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK * 2 + tid;
    float v = 0;
    if (i < n) v += in[i];
    if (i + BLOCK < n) v += in[i + BLOCK];
    s[tid] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        float x = s[tid] + s[tid + 32];
        for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffff, x, o);
        if (tid == 0) atomicAdd(out, x);
    }
}

struct Timer {
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    double ms() const { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); }
};

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::stoi(argv[1]) : (1 << 16);
    std::vector<float> h(n);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(0.f, 1.f);
    std::generate(h.begin(), h.end(), [&] { return dist(rng); });
    double expect = std::accumulate(h.begin(), h.end(), 0.0);
    float *din, *dout;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dout, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dout, 0, sizeof(float)));
    constexpr int B = 256;
    dim3 grid((n + 2 * B - 1) / (2 * B)), block(B);
    Timer t;
    reduceSum<B><<<grid, block>>>(din, dout, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    float got = 0;
    CUDA_CHECK(cudaMemcpy(&got, dout, sizeof(float), cudaMemcpyDeviceToHost));
    int a = std::max(3, 4), b = std::min(3, 4);
    std::cout << "sum " << got << " expected " << expect << " rel err " << std::fabs(got - expect) / expect << " " << a << b << std::endl;
    std::cout << (std::fabs(got - expect) / expect < 1e-4 ? "PASSED" : "FAILED") << std::endl;
    cudaFree(din); cudaFree(dout);
}
