// Probes of the Programming Guide topics the timeline and cache models cover (issue 33 item 4),
// on a real GPU: host functions on a stream, stream priorities, mapped (zero-copy) and
// write-combined host memory, and an L2 access policy window. scripts/measure-guide-topics.sh
// builds and runs it (and ncu on the L2 kernel); it prints JSON, medians of repeats.
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
static double hostUs() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static void hostSpinUs(double us) { double t = hostUs(); while (hostUs() - t < us) {} }

__global__ void spin_kernel(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {}
}

// Each block spins for `cycles`: a grid of many waves shows how block slots are handed over.
__global__ void spin_blocks(long long cycles, int* sink) {
    long long start = clock64();
    while (clock64() - start < cycles) {}
    if (threadIdx.x == 0 && cycles < 0) sink[blockIdx.x] = 1;
}

__global__ void read_sum(const float4* p, size_t n4, float* out) {
    float s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = p[i];
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 12345.678f) out[0] = s;
}

__global__ void chase(const unsigned* p, int hops, unsigned* out) {
    unsigned k = 0;
    for (int h = 0; h < hops; ++h) k = p[k];
    out[0] = k;
}

// The lesson's L2 kernel: every thread streams K floats of a large array (read once) and reads
// one element of a small table (read again and again).
extern "C" __global__ void stream_with_table(const float* stream, const float* table, float* out, int n, int tableSize, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float t = table[i % tableSize];
    int off = (int)t;
    float s = t;
    for (int j = 0; j < k; ++j) s += stream[(size_t)j * n + i + off];
    out[i] = s;
}

static void hostFnEmpty(void*) {}
static void hostFnSpin(void* us) { hostSpinUs(*(double*)us); }

int main(int argc, char** argv) {
    CK(cudaSetDeviceFlags(cudaDeviceMapHost));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int clockKHz = 0;
    CK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
    const double cyclesPerUs = clockKHz / 1000.0;
    std::printf("{\n  \"device\": \"%s\", \"clockMHz\": %.0f, \"persistingL2CacheMaxSize\": %d, \"accessPolicyMaxWindowSize\": %d,\n",
                prop.name, cyclesPerUs, prop.persistingL2CacheMaxSize, prop.accessPolicyMaxWindowSize);
    const bool l2Only = argc > 1 && std::strcmp(argv[1], "l2") == 0;
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t ev[6];
    for (auto& e : ev) CK(cudaEventCreate(&e));
    auto ms = [&](int a, int b) { float m = 0; CK(cudaEventElapsedTime(&m, ev[a], ev[b])); return (double)m * 1000.0; };

    if (!l2Only) {
    // ---- host functions: kernel, host function, kernel on one stream.
    {
        std::vector<double> gapNone, gapEmpty, gapSpin, fnEmpty, fnSpin, callUs;
        double spinUs = 50;
        for (int r = 0; r < 31; ++r) {
            for (int mode = 0; mode < 3; ++mode) {
                CK(cudaEventRecord(ev[0], s));
                spin_kernel<<<1, 32, 0, s>>>((long long)(20 * cyclesPerUs));
                CK(cudaEventRecord(ev[1], s));
                double t0 = hostUs();
                if (mode == 1) CK(cudaLaunchHostFunc(s, hostFnEmpty, nullptr));
                if (mode == 2) CK(cudaLaunchHostFunc(s, hostFnSpin, &spinUs));
                double t1 = hostUs();
                CK(cudaEventRecord(ev[2], s));
                spin_kernel<<<1, 32, 0, s>>>((long long)(5 * cyclesPerUs));
                CK(cudaEventRecord(ev[3], s));
                CK(cudaStreamSynchronize(s));
                double gap = ms(1, 3);
                if (mode == 0) gapNone.push_back(gap);
                if (mode == 1) { gapEmpty.push_back(gap); fnEmpty.push_back(ms(1, 2)); callUs.push_back(t1 - t0); }
                if (mode == 2) { gapSpin.push_back(gap); fnSpin.push_back(ms(1, 2)); }
            }
        }
        std::printf("  \"host_function\": {\"kernel_after_kernel_us\": %.2f, \"kernel_after_empty_host_fn_us\": %.2f, "
                    "\"kernel_after_50us_host_fn_us\": %.2f, \"empty_host_fn_event_gap_us\": %.2f, \"spin50_host_fn_event_gap_us\": %.2f, "
                    "\"cudaLaunchHostFunc_call_us\": %.2f, \"note\": \"gaps from the end of a 20 us kernel to the end of the next 5 us kernel\"},\n",
                    median(gapNone), median(gapEmpty), median(gapSpin), median(fnEmpty), median(fnSpin), median(callUs));
    }
    // ---- stream priorities: a long many-wave kernel on a low-priority stream, then a one-wave
    // kernel on a high- (or equal-) priority stream issued 20 us later.
    {
        int lo, hi;
        CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
        int* sink;
        CK(cudaMalloc(&sink, 1 << 20));
        const int slots = prop.multiProcessorCount * 2;   // 1024-thread blocks: 2 per SM
        const long long blockCycles = (long long)(10 * cyclesPerUs);
        std::printf("  \"priorities\": {\"range\": [%d, %d], \"low_kernel\": \"%d blocks x 1024 threads, 10 us each (8 waves)\", "
                    "\"high_kernel\": \"%d blocks (1 wave), 10 us each, issued 20 us after\"", lo, hi, slots * 8, slots);
        for (int withPrio = 0; withPrio < 2; ++withPrio) {
            cudaStream_t sl, sh;
            CK(cudaStreamCreateWithPriority(&sl, cudaStreamNonBlocking, lo));
            CK(cudaStreamCreateWithPriority(&sh, cudaStreamNonBlocking, withPrio ? hi : lo));
            std::vector<double> lEnd, hStart, hEnd;
            for (int r = 0; r < 15; ++r) {
                CK(cudaEventRecord(ev[0], sl));
                spin_blocks<<<slots * 8, 1024, 0, sl>>>(blockCycles, sink);
                CK(cudaEventRecord(ev[1], sl));
                hostSpinUs(20);
                CK(cudaEventRecord(ev[2], sh));
                spin_blocks<<<slots, 1024, 0, sh>>>(blockCycles, sink);
                CK(cudaEventRecord(ev[3], sh));
                CK(cudaDeviceSynchronize());
                lEnd.push_back(ms(0, 1));
                hStart.push_back(ms(0, 2));
                hEnd.push_back(ms(0, 3));
            }
            std::printf(", \"%s\": {\"low_end_us\": %.1f, \"high_issued_us\": %.1f, \"high_end_us\": %.1f}", withPrio ? "high_priority" : "equal_priority",
                        median(lEnd), median(hStart), median(hEnd));
            CK(cudaStreamDestroy(sl));
            CK(cudaStreamDestroy(sh));
        }
        std::printf("},\n");
        CK(cudaFree(sink));
    }
    // ---- mapped and write-combined host memory.
    {
        const size_t bytes = 256u << 20;
        float *devBuf, *out, *mapped, *mappedWc, *pinned;
        CK(cudaMalloc(&devBuf, bytes));
        CK(cudaMalloc(&out, 64));
        CK(cudaHostAlloc(&mapped, bytes, cudaHostAllocMapped));
        CK(cudaHostAlloc(&mappedWc, bytes, cudaHostAllocMapped | cudaHostAllocWriteCombined));
        CK(cudaMallocHost(&pinned, bytes));
        std::memset(mapped, 1, bytes);
        std::memset(mappedWc, 1, bytes);
        std::memset(pinned, 1, bytes);
        CK(cudaMemset(devBuf, 1, bytes));
        float *dMapped, *dMappedWc;
        CK(cudaHostGetDevicePointer((void**)&dMapped, mapped, 0));
        CK(cudaHostGetDevicePointer((void**)&dMappedWc, mappedWc, 0));
        auto readGBs = [&](const float* p) {
            std::vector<double> t;
            for (int r = 0; r < 7; ++r) {
                CK(cudaEventRecord(ev[0], s));
                read_sum<<<prop.multiProcessorCount * 8, 256, 0, s>>>((const float4*)p, bytes / 16, out);
                CK(cudaEventRecord(ev[1], s));
                CK(cudaStreamSynchronize(s));
                t.push_back(ms(0, 1));
            }
            return bytes / median(t) / 1e3;
        };
        double gDev = readGBs(devBuf), gMapped = readGBs(dMapped), gWc = readGBs(dMappedWc);
        // Small reads: 1 MB through mapped memory (latency-bound part of a kernel).
        // Dependent loads: one thread chases a permutation with a 4 KiB stride.
        const int hops = 2000;
        auto chaseNs = [&](unsigned* host, unsigned* devp, bool isDevice) {
            const size_t n = bytes / 4;
            std::vector<unsigned> perm(n);
            const unsigned stride = 4096 / 4 + 8;
            for (size_t i = 0; i < n; ++i) perm[i] = (unsigned)((i + stride * 7919ull) % n);
            if (isDevice) CK(cudaMemcpy(devp, perm.data(), bytes, cudaMemcpyHostToDevice));
            else std::memcpy(host, perm.data(), bytes);
            std::vector<double> t;
            for (int r = 0; r < 5; ++r) {
                CK(cudaEventRecord(ev[0], s));
                chase<<<1, 1, 0, s>>>(devp, hops, (unsigned*)out);
                CK(cudaEventRecord(ev[1], s));
                CK(cudaStreamSynchronize(s));
                t.push_back(ms(0, 1));
            }
            return median(t) * 1000.0 / hops;
        };
        double nsDev = chaseNs(nullptr, (unsigned*)devBuf, true);
        double nsMapped = chaseNs((unsigned*)mapped, (unsigned*)dMapped, false);
        // Host reads: 64 MiB from cacheable pinned memory and from write-combined memory.
        const size_t hb = 64u << 20;
        std::vector<char> dst(hb);
        auto hostReadGBs = [&](const void* src) {
            std::vector<double> t;
            for (int r = 0; r < 3; ++r) {
                double t0 = hostUs();
                std::memcpy(dst.data(), src, hb);
                t.push_back(hostUs() - t0);
            }
            return hb / median(t) / 1e3;
        };
        double hPinned = hostReadGBs(pinned), hWc = hostReadGBs(mappedWc);
        // Copies from write-combined memory (cudaMemcpy H2D).
        std::vector<double> tc, tw;
        for (int r = 0; r < 5; ++r) {
            CK(cudaEventRecord(ev[0], s));
            CK(cudaMemcpyAsync(devBuf, pinned, bytes, cudaMemcpyHostToDevice, s));
            CK(cudaEventRecord(ev[1], s));
            CK(cudaMemcpyAsync(devBuf, mappedWc, bytes, cudaMemcpyHostToDevice, s));
            CK(cudaEventRecord(ev[2], s));
            CK(cudaStreamSynchronize(s));
            tc.push_back(ms(0, 1));
            tw.push_back(ms(1, 2));
        }
        std::printf("  \"mapped\": {\"kernel_read_GBs_device\": %.1f, \"kernel_read_GBs_mapped\": %.1f, \"kernel_read_GBs_mapped_wc\": %.1f, "
                    "\"dependent_load_ns_device\": %.0f, \"dependent_load_ns_mapped\": %.0f, \"host_read_GBs_pinned\": %.2f, \"host_read_GBs_wc\": %.3f, "
                    "\"copy_h2d_GBs_pinned\": %.1f, \"copy_h2d_GBs_wc\": %.1f},\n",
                    gDev, gMapped, gWc, nsDev, nsMapped, hPinned, hWc, bytes / median(tc) / 1e3, bytes / median(tw) / 1e3);
        CK(cudaFree(devBuf));
        CK(cudaFreeHost(mapped));
        CK(cudaFreeHost(mappedWc));
        CK(cudaFreeHost(pinned));
    }
    }
    // ---- L2 access policy window: stream_with_table with the table persisting or not.
    {
        const int k = 4, tableSize = 1 << 22, n = 4 * tableSize;   // the lesson's shape: a 16 MiB table read 4 times, 4 streamed floats a thread (256 MiB)
        float *stream, *table, *out;
        CK(cudaMalloc(&stream, (size_t)n * k * 4 + 64));
        CK(cudaMalloc(&table, (size_t)tableSize * 4));
        CK(cudaMalloc(&out, (size_t)n * 4));
        CK(cudaMemset(stream, 0, (size_t)n * k * 4 + 64));
        CK(cudaMemset(table, 0, (size_t)tableSize * 4));
        std::printf("  \"l2_window\": {\"threads\": %d, \"k\": %d, \"table_bytes\": %d", n, k, tableSize * 4);
        for (int mode = 0; mode < 2; ++mode) {
            cudaStreamAttrValue a;
            std::memset(&a, 0, sizeof a);
            if (mode == 1) {
                CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize));
                a.accessPolicyWindow.base_ptr = table;
                a.accessPolicyWindow.num_bytes = (size_t)tableSize * 4;
                a.accessPolicyWindow.hitRatio = 1.0f;
                a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
                a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
            }
            CK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a));
            std::vector<double> t;
            for (int r = 0; r < 9; ++r) {
                CK(cudaCtxResetPersistingL2Cache());
                CK(cudaEventRecord(ev[0], s));
                stream_with_table<<<n / 256, 256, 0, s>>>(stream, table, out, n, tableSize, k);
                CK(cudaEventRecord(ev[1], s));
                CK(cudaStreamSynchronize(s));
                t.push_back(ms(0, 1));
            }
            std::printf(", \"%s_us\": %.1f", mode ? "persisting" : "normal", median(t));
        }
        std::printf("}\n}\n");
    }
    return 0;
}
