// Held-out tiled kernels at one block per SM against two, and a lone block's fixed cost (issue 34):
// the kernels of tests/validation/lone-tiles.cu launched exactly as tests/validation/lone-empty.json
// and tests/validation/lone-tiles.json launch them, in the same order (first the empty and
// barrier-only blocks, then each tiled kernel plain and with 116 KiB of dynamic shared memory it
// never touches, which leaves one block per SM). scripts/probe-lone-tiles.sh profiles every launch
// under Nsight Compute (flushed caches, boost clock). Results are checked against the CPU; the
// program prints each launch's registers and blocks per SM.
#include "../lone-tiles.cu"

#include <cmath>
#include <cstdio>
#include <vector>

namespace {
int bad = 0;

// Uniform in [-1, 1), reproducible (the values need not match the simulator's spec).
std::vector<float> randomVector(size_t n, unsigned seed)
{
    std::vector<float> v(n);
    unsigned x = seed * 2654435761u + 1;
    for (auto& f : v) {
        x = x * 1664525u + 1013904223u;
        f = float(x >> 8) / float(1u << 23) - 1.0f;
    }
    return v;
}

float* toDevice(const std::vector<float>& h)
{
    float* d = nullptr;
    cudaMalloc(&d, h.size() * sizeof(float));
    cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
    return d;
}

float* deviceZeros(size_t n)
{
    float* d = nullptr;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemset(d, 0, n * sizeof(float));
    return d;
}

void report(const char* name, const void* fn, int threads, int grid, int dyn, const float* d, const std::vector<float>& want)
{
    cudaError_t e = cudaDeviceSynchronize();
    int wrong = 0;
    if (d) {
        std::vector<float> got(want.size());
        cudaMemcpy(got.data(), d, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
        for (size_t i = 0; i < got.size(); ++i)
            if (!(std::fabs(got[i] - want[i]) <= 1e-4f * (1.0f + std::fabs(want[i])))) ++wrong;
        cudaMemset(const_cast<float*>(d), 0, want.size() * sizeof(float));   // the next launch must write it again
    }
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, threads, size_t(dyn));
    cudaFuncAttributes at{};
    cudaFuncGetAttributes(&at, fn);
    std::printf("%s,grid=%d,block=%d,dynamic_shared=%d,registers=%d,blocks_per_sm=%d,%s,%d wrong\n", name, grid, threads, dyn,
                at.numRegs, blocks, cudaGetErrorName(e), wrong);
    bad += wrong + (e != cudaSuccess) + (dyn > 0 && blocks != 1) + (dyn == 0 && threads == 1024 && blocks != 2);
}
} // namespace

int main()
{
    const int pad = 116 * 1024;
    const void* kernels[] = {(const void*)lt_empty, (const void*)lt_sync, (const void*)lt_transpose, (const void*)lt_stencil2d,
                             (const void*)lt_matvec, (const void*)lt_reduce, (const void*)lt_conv1d};
    for (const void* k : kernels) cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, pad);

    // 1. lone-empty.json: empty blocks of 32 .. 1,024 threads, then lt_sync, each over 132 and 1,188 blocks.
    for (int threads : {32, 128, 256, 512, 1024})
        for (int grid : {132, 1188}) {
            lt_empty<<<grid, threads, pad>>>();
            report("lt_empty", (const void*)lt_empty, threads, grid, pad, nullptr, {});
        }
    float* flags = deviceZeros(1188);
    for (int grid : {132, 1188}) {
        lt_sync<<<grid, 1024, pad>>>(flags);
        report("lt_sync", (const void*)lt_sync, 1024, grid, pad, flags, std::vector<float>(size_t(grid), 1024.0f));
    }

    // 2. lone-tiles.json: each kernel plain (two blocks per SM), then padded (one).
    const int w = 2048, mvRows = 33792, mvCols = 256, rb = 2112, nc = 4096;
    {   // transpose
        auto m = randomVector(size_t(w) * w, 11);
        std::vector<float> want(m.size());
        for (int r = 0; r < w; ++r)
            for (int c = 0; c < w; ++c) want[size_t(c) * w + r] = m[size_t(r) * w + c];
        float *dm = toDevice(m), *dt = deviceZeros(m.size());
        for (int dyn : {0, pad}) {
            lt_transpose<<<dim3(w / 32, w / 32), dim3(32, 32), size_t(dyn)>>>(dm, dt, w);
            report("lt_transpose", (const void*)lt_transpose, 1024, (w / 32) * (w / 32), dyn, dt, want);
        }
        cudaFree(dm);
        cudaFree(dt);
    }
    {   // 3 x 3 filter
        const int p = w + 2;
        auto img = randomVector(size_t(p) * p, 12);
        std::vector<float> want(size_t(w) * w);
        for (int y = 0; y < w; ++y)
            for (int x = 0; x < w; ++x) {
                auto at = [&](int dy, int dx) { return img[size_t(y + 1 + dy) * p + x + 1 + dx]; };
                want[size_t(y) * w + x] = 0.25f * at(0, 0) + 0.125f * (at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1)) +
                                          0.0625f * (at(-1, -1) + at(-1, 1) + at(1, -1) + at(1, 1));
            }
        float *di = toDevice(img), *dout = deviceZeros(want.size());
        for (int dyn : {0, pad}) {
            lt_stencil2d<<<dim3(w / 32, w / 32), dim3(32, 32), size_t(dyn)>>>(di, dout, w);
            report("lt_stencil2d", (const void*)lt_stencil2d, 1024, (w / 32) * (w / 32), dyn, dout, want);
        }
        cudaFree(di);
        cudaFree(dout);
    }
    {   // y = A x
        auto a = randomVector(size_t(mvRows) * mvCols, 13);
        auto x = randomVector(size_t(mvCols), 14);
        std::vector<float> want(static_cast<size_t>(mvRows));
        for (int r = 0; r < mvRows; ++r) {
            double s = 0;
            for (int c = 0; c < mvCols; ++c) s += double(a[size_t(r) * mvCols + c]) * x[size_t(c)];
            want[size_t(r)] = float(s);
        }
        float *da = toDevice(a), *dx = toDevice(x), *dy = deviceZeros(want.size());
        for (int dyn : {0, pad}) {
            lt_matvec<<<mvRows / 32, dim3(32, 32), size_t(dyn)>>>(da, dx, dy, mvCols);
            report("lt_matvec", (const void*)lt_matvec, 1024, mvRows / 32, dyn, dy, want);
        }
        cudaFree(da);
        cudaFree(dx);
        cudaFree(dy);
    }
    {   // blocked reduction
        auto in = randomVector(size_t(rb) * 4096, 15);
        std::vector<float> want(static_cast<size_t>(rb));
        for (int b = 0; b < rb; ++b) {
            double s = 0;
            for (int i = 0; i < 4096; ++i) s += in[size_t(b) * 4096 + i];
            want[size_t(b)] = float(s);
        }
        float *din = toDevice(in), *dout = deviceZeros(want.size());
        for (int dyn : {0, pad}) {
            lt_reduce<<<rb, 1024, size_t(dyn)>>>(din, dout);
            report("lt_reduce", (const void*)lt_reduce, 1024, rb, dyn, dout, want);
        }
        cudaFree(din);
        cudaFree(dout);
    }
    {   // 17-tap convolution
        auto in = randomVector(size_t(nc) * 1024 + 16, 16);
        std::vector<float> want(size_t(nc) * 1024);
        for (size_t i = 0; i < want.size(); ++i) {
            float s = 0;
            for (int k = 0; k <= 16; ++k) s += float(1 + (k < 8 ? k : 16 - k)) * in[i + size_t(k)];
            want[i] = s;
        }
        float *din = toDevice(in), *dout = deviceZeros(want.size());
        for (int dyn : {0, pad}) {
            lt_conv1d<<<nc, 1024, size_t(dyn)>>>(din, dout);
            report("lt_conv1d", (const void*)lt_conv1d, 1024, nc, dyn, dout, want);
        }
        cudaFree(din);
        cudaFree(dout);
    }
    cudaFree(flags);
    std::printf("%s\n", bad ? "FAILED" : "all results match the CPU");
    return bad ? 1 : 0;
}
