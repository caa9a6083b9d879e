// libcu++'s cuda::barrier and cuda::pipeline as the SDK's simpleAWBarrier and
// globalToShmemAsyncCopy use them: a block-scope barrier (init, arrive + wait with its token,
// arrive_and_wait) ordering shared-memory writes; cuda::memcpy_async completing on a barrier;
// a per-thread pipeline of several stages (make_pipeline(), producer_acquire/commit,
// consumer_wait/release) with aligned_size_t chunks; and a block-scope pipeline with shared state
// whose last warp produces and the other warps consume.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cstdio>

namespace cg = cooperative_groups;

// Each block sums its 256 elements through shared memory ordered by a cuda::barrier.
__global__ void barrierSum(const int* in, int* out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int part[8];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    auto token = bar.arrive();
    bar.wait(std::move(token));
    if (threadIdx.x == 0) {
        int s = 0;
        for (int w = 0; w < 8; ++w) s += part[w];
        out[blockIdx.x] = s;
    }
    bar.arrive_and_wait();
}

// Tiles of 64 floats copied to shared memory with memcpy_async on a barrier, then reversed.
__global__ void copyOnBarrier(const float4* in, float* out, int tiles) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ alignas(16) float tile[64];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        if (threadIdx.x < 16) cuda::memcpy_async(reinterpret_cast<float4*>(tile) + threadIdx.x, in + t * 16 + threadIdx.x, sizeof(float4), bar);
        bar.arrive_and_wait();
        out[t * 64 + threadIdx.x] = tile[63 - threadIdx.x];
        bar.arrive_and_wait();
    }
}

// A per-thread pipeline of 3 stages: each thread prefetches its own elements of later chunks.
__global__ void threadPipeline(const float* in, float* out, int chunks) {
    constexpr int stages = 3;
    __shared__ float buf[stages][128];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto one = cuda::aligned_size_t<alignof(float)>(sizeof(float));
    int fetched = 0;
    for (int c = 0; c < chunks; ++c) {
        for (; fetched < chunks && fetched < c + stages; ++fetched) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[fetched % stages][threadIdx.x], &in[fetched * 128 + threadIdx.x], one, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        out[c * 128 + threadIdx.x] = 2.0f * buf[c % stages][threadIdx.x] + 1.0f;
        pipe.consumer_release();
    }
}

// A block-scope pipeline with shared state: warp 4 (the producer) copies rows of 32, warps 0-3
// (the consumers) add up each row's column.
__global__ void blockPipeline(const float* in, float* out, int rows) {
    constexpr int stages = 2;
    __shared__ float buf[stages][4][32];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    auto block = cg::this_thread_block();
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const auto role = warp == 4 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(block, &state, role);
    float acc = 0;
    for (int r = 0; r < rows; r += 4) {
        if (role == cuda::pipeline_role::producer) {
            pipe.producer_acquire();
            for (int k = 0; k < 4; ++k) cuda::memcpy_async(&buf[(r / 4) % stages][k][lane], &in[(r + k) * 32 + lane], sizeof(float), pipe);
            pipe.producer_commit();
        } else {
            pipe.consumer_wait();
            acc += buf[(r / 4) % stages][warp][lane];
            pipe.consumer_release();
        }
    }
    if (role == cuda::pipeline_role::consumer) out[warp * 32 + lane] = acc;
}

int main() {
    const int blocks = 6, n = blocks * 256;
    int *d_in, *d_out, h_in[n], h_out[blocks];
    for (int i = 0; i < n; ++i) h_in[i] = (i * 7) % 101;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    barrierSum<<<blocks, 256>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int b = 0; b < blocks; ++b) {
        int s = 0;
        for (int i = 0; i < 256; ++i) s += h_in[b * 256 + i];
        ok = ok && s == h_out[b];
    }
    printf("barrier sum: %d %d ... %s\n", h_out[0], h_out[blocks - 1], ok ? "correct" : "WRONG");

    const int tiles = 10, m = tiles * 64;
    float *f_in, *f_out, hf_in[m], hf_out[m];
    for (int i = 0; i < m; ++i) hf_in[i] = 0.5f * i;
    cudaMalloc(&f_in, m * sizeof(float));
    cudaMalloc(&f_out, m * sizeof(float));
    cudaMemcpy(f_in, hf_in, sizeof hf_in, cudaMemcpyHostToDevice);
    copyOnBarrier<<<3, 64>>>(reinterpret_cast<const float4*>(f_in), f_out, tiles);
    cudaMemcpy(hf_out, f_out, sizeof hf_out, cudaMemcpyDeviceToHost);
    ok = true;
    for (int t = 0; t < tiles; ++t)
        for (int i = 0; i < 64; ++i) ok = ok && hf_out[t * 64 + i] == hf_in[t * 64 + 63 - i];
    printf("memcpy_async on a barrier: %s\n", ok ? "correct" : "WRONG");

    const int chunks = 7, c = chunks * 128;
    float *p_in, *p_out, hp_in[c], hp_out[c];
    for (int i = 0; i < c; ++i) hp_in[i] = float(i % 50);
    cudaMalloc(&p_in, c * sizeof(float));
    cudaMalloc(&p_out, c * sizeof(float));
    cudaMemcpy(p_in, hp_in, sizeof hp_in, cudaMemcpyHostToDevice);
    threadPipeline<<<1, 128>>>(p_in, p_out, chunks);
    cudaMemcpy(hp_out, p_out, sizeof hp_out, cudaMemcpyDeviceToHost);
    ok = true;
    for (int i = 0; i < c; ++i) ok = ok && hp_out[i] == 2.0f * hp_in[i] + 1.0f;
    printf("thread-scope pipeline, 3 stages: %s (out[800] = %.1f)\n", ok ? "correct" : "WRONG", hp_out[800]);

    const int rows = 24;
    float *b_in, *b_out, hb_in[rows * 32], hb_out[128];
    for (int i = 0; i < rows * 32; ++i) hb_in[i] = float((i * 3) % 17);
    cudaMalloc(&b_in, sizeof hb_in);
    cudaMalloc(&b_out, sizeof hb_out);
    cudaMemcpy(b_in, hb_in, sizeof hb_in, cudaMemcpyHostToDevice);
    blockPipeline<<<1, 160>>>(b_in, b_out, rows);
    cudaMemcpy(hb_out, b_out, sizeof hb_out, cudaMemcpyDeviceToHost);
    ok = true;
    for (int w = 0; w < 4; ++w)
        for (int l = 0; l < 32; ++l) {
            float s = 0;
            for (int r = w; r < rows; r += 4) s += hb_in[r * 32 + l];
            ok = ok && s == hb_out[w * 32 + l];
        }
    printf("block-scope pipeline with shared state: %s (out[0] = %.1f, out[127] = %.1f)\n", ok ? "correct" : "WRONG", hb_out[0], hb_out[127]);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
