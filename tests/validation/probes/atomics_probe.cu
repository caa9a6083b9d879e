// Micro-benchmarks of global atomics and of DRAM bandwidth against bytes in flight, for the
// cycle model's atomic and loaded-latency parameters (scripts/probe-atomics.sh builds and runs it
// on a machine with a GPU). Prints CSV lines; each time is the median of 7 launches (3 for the
// copies) after a warm-up, measured with CUDA events.
//
// Sections (the first column of each line):
//   atom   pattern,op,lanes_per_addr,hot_lines,warps,requests,us,sm_cycles_per_request
//          every warp of the grid makes `iters` requests. pattern:
//            sameline  all warps hit `hot_lines` lines (warp w uses line w % hot_lines); within a
//                      request lane l uses word l / lanes_per_addr of its line
//            ownline   every warp its own line (no two warps share one), same word mapping
//            spread    lane l hits line l (32 lines per request, one word each), all warps the same
//                      32 lines
//          op: red (result unused, ptxas emits RED), atom (result used) or fred (a float add,
//          result unused: RED.ADD.F32)
//   copy   width_bytes,warps_per_sm,bytes,us,GBps,inflight_bytes,loaded_latency_ns
//          a grid-stride copy of 64 MiB (each buffer beyond the 50 MB L2; median of 3) with `warps_per_sm` warps resident
//          per SM, one load per lane in flight per warp; loaded latency = bytes in flight / rate.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

enum Pattern { SameLine = 0, OwnLine = 1, Spread = 2 };

// One line is 32 words. The address a lane uses in a request of warp `warp`.
__device__ __forceinline__ unsigned int* target(unsigned int* base, int pattern, int lanesPerAddr, int hotLines, int warp, int lane)
{
    if (pattern == Spread)
        return base + lane * 32;
    int line = pattern == SameLine ? warp % hotLines : warp;
    return base + line * 32 + lane / lanesPerAddr;
}

__global__ void atomRed(unsigned int* base, int pattern, int lanesPerAddr, int hotLines, int iters)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    unsigned int* p = target(base, pattern, lanesPerAddr, hotLines, warp, threadIdx.x % 32);
    for (int i = 0; i < iters; ++i)
        atomicAdd(p, 1u);
}

// A float add with the result unused (RED.ADD.F32): the cycle model's l2AtomicF32OpCycles.
__global__ void atomRedF32(unsigned int* base, int pattern, int lanesPerAddr, int hotLines, int iters)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    float* p = reinterpret_cast<float*>(target(base, pattern, lanesPerAddr, hotLines, warp, threadIdx.x % 32));
    for (int i = 0; i < iters; ++i)
        atomicAdd(p, 1.0f);
}

// The old value feeds the next iteration's operand, so ptxas must keep an ATOM.
__global__ void atomUsed(unsigned int* base, int pattern, int lanesPerAddr, int hotLines, int iters, unsigned int* sink)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    unsigned int* p = target(base, pattern, lanesPerAddr, hotLines, warp, threadIdx.x % 32);
    unsigned int acc = 0;
    for (int i = 0; i < iters; ++i)
        acc += atomicAdd(p, (acc & 0x80000000u) ? 2u : 1u);
    if (acc == 0xdeadbeefu)
        *sink = acc;
}

template <typename T>
__global__ void copyKernel(const T* __restrict__ in, T* __restrict__ out, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = in[i];
}

static float timeIt(void (*launch)(void*), void* ctx, int reps = 7)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    launch(ctx);
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        CK(cudaEventRecord(a));
        launch(ctx);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct AtomCtx {
    unsigned int* base;
    unsigned int* sink;
    int pattern, lanesPerAddr, hotLines, iters, blocks, threads;
    bool used;
    bool f32 = false;   // atomRedF32 instead of atomRed
};

static void launchAtom(void* v)
{
    auto* c = static_cast<AtomCtx*>(v);
    if (c->f32)
        atomRedF32<<<c->blocks, c->threads>>>(c->base, c->pattern, c->lanesPerAddr, c->hotLines, c->iters);
    else if (c->used)
        atomUsed<<<c->blocks, c->threads>>>(c->base, c->pattern, c->lanesPerAddr, c->hotLines, c->iters, c->sink);
    else
        atomRed<<<c->blocks, c->threads>>>(c->base, c->pattern, c->lanesPerAddr, c->hotLines, c->iters);
}

struct CopyCtx {
    void* in;
    void* out;
    size_t bytes;
    int width, blocks, threads;
};

static void launchCopy(void* v)
{
    auto* c = static_cast<CopyCtx*>(v);
    size_t n = c->bytes / c->width;
    if (c->width == 4) copyKernel<<<c->blocks, c->threads>>>((const unsigned int*)c->in, (unsigned int*)c->out, n);
    else if (c->width == 8) copyKernel<<<c->blocks, c->threads>>>((const uint2*)c->in, (uint2*)c->out, n);
    else copyKernel<<<c->blocks, c->threads>>>((const uint4*)c->in, (uint4*)c->out, n);
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int sms = prop.multiProcessorCount;
    int clockKhz = 0;
    CK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, 0));
    double ghz = clockKhz / 1e6;
    std::printf("# device,%s,sms,%d,clock_ghz,%.3f,l2_bytes,%d\n", prop.name, sms, ghz, prop.l2CacheSize);

    // Enough lines for ownline with every warp of the largest grid.
    const int maxWarps = sms * 32;
    unsigned int *base = nullptr, *sink = nullptr;
    CK(cudaMalloc(&base, (size_t)maxWarps * 128 + 4096));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(base, 0, (size_t)maxWarps * 128 + 4096));

    std::printf("atom,pattern,op,lanes_per_addr,hot_lines,warps,requests,us,sm_cycles_per_request\n");
    const char* names[] = {"sameline", "ownline", "spread"};
    auto atom = [&](int pattern, bool used, int lanesPerAddr, int hotLines, int warpsPerSm, int iters) {
        AtomCtx c{base, sink, pattern, lanesPerAddr, hotLines, iters, sms * warpsPerSm / 4, 128, used};
        if (c.blocks < 1) { c.blocks = 1; c.threads = 32 * warpsPerSm; }
        float ms = timeIt(launchAtom, &c);
        long long warps = (long long)c.blocks * c.threads / 32;
        long long requests = warps * iters;
        double us = ms * 1000.0;
        std::printf("atom,%s,%s,%d,%d,%lld,%lld,%.2f,%.3f\n", names[pattern], used ? "atom" : "red", lanesPerAddr, hotLines, warps,
                    requests, us, us * 1000.0 * ghz / (double)requests);
    };
    // (a) one hot line, k lanes per address, for RED and ATOM.
    for (int used = 0; used < 2; ++used)
        for (int k : {1, 2, 4, 8, 16, 32})
            atom(SameLine, used, k, 1, 8, 64);
    // (b) how many hot lines until the L2 stops being the limit.
    for (int used = 0; used < 2; ++used)
        for (int lines : {2, 4, 8, 16, 64, 256})
            for (int k : {1, 32})
                atom(SameLine, used, k, lines, 8, 64);
    // (c) no sharing between warps; and 32 lines per request shared by all warps.
    for (int used = 0; used < 2; ++used) {
        for (int k : {1, 32})
            atom(OwnLine, used, k, 1, 8, 64);
        atom(Spread, used, 1, 1, 8, 64);
    }
    // (d) a single warp, so the latency of one request shows, for k = 1 and 32.
    for (int used = 0; used < 2; ++used)
        for (int k : {1, 32}) {
            AtomCtx c{base, sink, SameLine, k, 1, 256, 1, 32, (bool)used};
            float ms = timeIt(launchAtom, &c);
            double us = ms * 1000.0;
            std::printf("atom,single_warp,%s,%d,1,1,256,%.2f,%.3f\n", used ? "atom" : "red", k, us, us * 1000.0 * ghz / 256.0);
        }

    // (e) float adds (RED.ADD.F32), one hot line, k = 1 and 32, and every warp its own line.
    for (int k : {1, 32}) {
        AtomCtx c{base, sink, SameLine, k, 1, 64, sms * 8 / 4, 128, false, true};
        float ms = timeIt(launchAtom, &c);
        long long requests = (long long)c.blocks * c.threads / 32 * c.iters;
        std::printf("atom,sameline,fred,%d,1,%d,%lld,%.2f,%.3f\n", k, c.blocks * c.threads / 32, requests, ms * 1000.0,
                    ms * 1e6 * ghz / (double)requests);
    }
    {
        AtomCtx c{base, sink, OwnLine, 1, 1, 64, sms * 8 / 4, 128, false, true};
        float ms = timeIt(launchAtom, &c);
        long long requests = (long long)c.blocks * c.threads / 32 * c.iters;
        std::printf("atom,ownline,fred,1,1,%d,%lld,%.2f,%.3f\n", c.blocks * c.threads / 32, requests, ms * 1000.0, ms * 1e6 * ghz / (double)requests);
    }

    // DRAM bandwidth against bytes in flight.
    const size_t bytes = 64u << 20;
    void *in = nullptr, *out = nullptr;
    CK(cudaMalloc(&in, bytes));
    CK(cudaMalloc(&out, bytes));
    CK(cudaMemset(in, 1, bytes));
    std::printf("copy,width_bytes,warps_per_sm,bytes,us,GBps,inflight_bytes,loaded_latency_ns\n");
    for (int width : {4, 8, 16})
        for (int warpsPerSm : {1, 2, 4, 8, 16, 32, 64}) {
            // Blocks of 4 warps (1 or 2 warps: a block of that size), `warpsPerSm` per SM.
            int threads = warpsPerSm >= 4 ? 128 : 32 * warpsPerSm;
            int blocks = sms * (warpsPerSm * 32 / threads);
            CopyCtx c{in, out, bytes, width, blocks, threads};
            float ms = timeIt(launchCopy, &c, 3);
            double s = ms / 1000.0;
            double rate = 2.0 * bytes / s;   // read + write
            double inflight = (double)blocks * threads * width;   // one load per lane outstanding
            std::printf("copy,%d,%d,%zu,%.1f,%.1f,%.0f,%.0f\n", width, warpsPerSm, bytes, ms * 1000.0, rate / 1e9, inflight,
                        inflight / (bytes / s) * 1e9);
        }
    return 0;
}
