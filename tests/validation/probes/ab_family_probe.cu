// The Best Practices Guide's C = AB and C = AA^T kernels (tests/validation/bpg_matmul.cu) at
// M = N = 1024, as the realistic suite launches them (grid 32 x 32, blocks of 32 x 32 threads),
// for Nsight Compute: scripts/probe-ab-family.sh profiles each launch with flushed caches at the
// boost clock and keeps the raw metrics (tests/validation/timing/probes/h100-ab-family.csv), so
// that the model's account of why ab_tile_a is slower than ab_naive on the H100 can be checked
// (occupancy, L1 hits, shared wavefronts, stall reasons). Each result is checked on the host.
#include "../bpg_matmul.cu"

#include <cmath>
#include <cstdio>
#include <vector>

int main()
{
    const int m = 1024, n = 1024;
    std::vector<float> a(size_t(m) * TILE), b(size_t(TILE) * n), ref(size_t(m) * n), aat(size_t(m) * m);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 17) - 8) / 8.0f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 13) - 6) / 6.0f;
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < n; ++c) {
            float acc = 0;
            for (int k = 0; k < TILE; ++k) acc += a[size_t(r) * TILE + k] * b[size_t(k) * n + c];
            ref[size_t(r) * n + c] = acc;
        }
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < m; ++c) {
            float acc = 0;
            for (int k = 0; k < TILE; ++k) acc += a[size_t(r) * TILE + k] * a[size_t(c) * TILE + k];
            aat[size_t(r) * m + c] = acc;
        }
    float *da, *db, *dc;
    cudaMalloc(&da, a.size() * sizeof(float));
    cudaMalloc(&db, b.size() * sizeof(float));
    cudaMalloc(&dc, ref.size() * sizeof(float));
    cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
    const dim3 grid(n / TILE, m / TILE), block(TILE, TILE);
    std::vector<float> out(ref.size());
    int bad = 0;
    auto check = [&](const char* name, const std::vector<float>& want) {
        cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(out.data(), dc, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
        int wrong = 0;
        for (size_t i = 0; i < out.size(); ++i)
            if (std::fabs(out[i] - want[i]) > 1e-3f * (1.0f + std::fabs(want[i]))) ++wrong;
        std::printf("%s: %s, %d wrong\n", name, cudaGetErrorName(e), wrong);
        bad += wrong + (e != cudaSuccess);
    };
    ab_naive<<<grid, block>>>(da, db, dc, n);
    check("ab_naive", ref);
    ab_tile_a<<<grid, block>>>(da, db, dc, n);
    check("ab_tile_a", ref);
    ab_tiles_ab<<<grid, block>>>(da, db, dc, n);
    check("ab_tiles_ab", ref);
    aat_naive<<<grid, block>>>(da, dc, m);
    check("aat_naive", aat);
    aat_tiles<<<grid, block>>>(da, dc, m);
    check("aat_tiles", aat);
    aat_tiles_padded<<<grid, block>>>(da, dc, m);
    check("aat_tiles_padded", aat);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return bad ? 1 : 0;
}
