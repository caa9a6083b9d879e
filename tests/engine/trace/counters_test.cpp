// Counters on real nvcc PTX (tests/kernels/memory.cu): per source line, the simulator reports the
// sectors and wavefronts the H100 measured for each access pattern, under Nsight Compute names.
#include "support.hpp"

#include "trace/counters.hpp"

#include <catch2/catch.hpp>

using namespace warpscope;
using wst::arg;

namespace {
constexpr const char* kMem = "tests/kernels/memory.ptx";

// Runs one launch with a counter collector attached; returns the collector.
std::unique_ptr<trace::CounterCollector> measure(wst::Sim& sim, const std::string& kernel, runtime::Dim3 grid, runtime::Dim3 block,
                                                 std::vector<runtime::ParamBytes> params) {
    auto c = std::make_unique<trace::CounterCollector>();
    sim.dev.onLaunch = [&](sim::Gpu& g) { g.setListener(c.get()); };
    runtime::LaunchConfig cfg;
    cfg.grid = grid;
    cfg.block = block;
    sim.dev.launch(kernel, cfg, params);
    sim.dev.onLaunch = nullptr;
    return c;
}

// Sectors per global load request over the launch.
double ldSectorsPerRequest(const trace::CounterCollector& c) {
    return c.metrics().at("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio");
}
} // namespace

TEST_CASE("coalescing: offset and stride copies", "[trace]") {
    wst::Sim sim(kMem);
    auto in = sim.upload(std::vector<float>(64 * 1024, 1.f), "in"), out = sim.upload(std::vector<float>(4096, 0.f), "out");
    auto offset = [&](int o) { return ldSectorsPerRequest(*measure(sim, "copy_offset", {32}, {128}, {arg(in), arg(out), arg(int32_t(o))})); };
    CHECK(offset(0) == 4.0);
    CHECK(offset(1) == 5.0);
    CHECK(offset(8) == 4.0);   // 32 bytes: aligned to a sector again
    auto stride = [&](int s) { return measure(sim, "copy_stride", {32}, {128}, {arg(in), arg(out), arg(int32_t(s))}); };
    CHECK(ldSectorsPerRequest(*stride(1)) == 4.0);
    CHECK(ldSectorsPerRequest(*stride(2)) == 8.0);
    CHECK(ldSectorsPerRequest(*stride(4)) == 16.0);
    CHECK(ldSectorsPerRequest(*stride(8)) == 32.0);
    CHECK(ldSectorsPerRequest(*stride(16)) == 32.0);
    // Bytes used per sector moved: 100, 50, 25, 12.5 percent (the Best Practices Guide's figure).
    CHECK(stride(1)->metrics().at("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct") == 100.0);
    CHECK(stride(2)->metrics().at("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct") == 50.0);
    CHECK(stride(8)->metrics().at("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct") == 12.5);
    CHECK(offset(1) == 5.0);
    auto c = measure(sim, "copy_offset", {32}, {128}, {arg(in), arg(out), arg(int32_t(1))});
    CHECK(c->metrics().at("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct") == 80.0);
    // Stores of the same kernels are fully coalesced.
    CHECK(c->metrics().at("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio") == 4.0);
    CHECK(c->metrics().at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 32 * 4);
}

TEST_CASE("coalescing: widths and broadcast", "[trace]") {
    wst::Sim sim(kMem);
    auto in = sim.upload(std::vector<float>(64 * 1024, 1.f), "in"), out = sim.upload(std::vector<float>(64 * 1024, 0.f), "out");
    CHECK(ldSectorsPerRequest(*measure(sim, "same_address", {1}, {32}, {arg(in), arg(out)})) == 1.0);
    CHECK(ldSectorsPerRequest(*measure(sim, "copy_bytes", {1}, {32}, {arg(in), arg(out)})) == 1.0);
    CHECK(ldSectorsPerRequest(*measure(sim, "copy_double", {1}, {32}, {arg(in), arg(out), arg(int32_t(0))})) == 8.0);
    CHECK(ldSectorsPerRequest(*measure(sim, "copy_double", {1}, {32}, {arg(in), arg(out), arg(int32_t(1))})) == 9.0);
    auto f4 = [&](int off, int stride) {
        return ldSectorsPerRequest(*measure(sim, "copy_float4", {1}, {32}, {arg(in), arg(out), arg(int32_t(off)), arg(int32_t(stride))}));
    };
    CHECK(f4(0, 1) == 16.0);
    CHECK(f4(1, 1) == 17.0);
    CHECK(f4(0, 2) == 32.0);
}

TEST_CASE("bank conflicts: 32-bit strides, broadcast, 64- and 128-bit widths", "[trace]") {
    wst::Sim sim(kMem);
    auto out = sim.upload(std::vector<float>(1024, 0.f), "out");
    // The load of interest is the one on the `out[t] = s[...]` line: find it by its line's counters.
    auto ldWavefronts = [&](const std::string& kernel, int stride, int line) {
        auto c = measure(sim, kernel, {1}, {32}, {arg(out), arg(int32_t(stride))});
        return c->byLine().at(uint32_t(line)).sharedLdWavefronts;
    };
    CHECK(ldWavefronts("shared_stride32", 1, 48) == 1);
    CHECK(ldWavefronts("shared_stride32", 2, 48) == 2);
    CHECK(ldWavefronts("shared_stride32", 4, 48) == 4);
    CHECK(ldWavefronts("shared_stride32", 16, 48) == 16);
    CHECK(ldWavefronts("shared_stride32", 32, 48) == 32);
    CHECK(ldWavefronts("shared_stride32", 33, 48) == 1);
    CHECK(ldWavefronts("shared_stride32", 3, 48) == 1);
    auto half = measure(sim, "shared_half_lane", {1}, {32}, {arg(out)});
    CHECK(half->metrics().at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0);
    CHECK(ldWavefronts("shared_stride64", 1, 68) == 2);
    CHECK(ldWavefronts("shared_stride64", 2, 68) == 4);
    CHECK(ldWavefronts("shared_stride64", 16, 68) == 32);
    CHECK(ldWavefronts("shared_stride64", 0, 68) == 1);   // broadcast load
    auto st64 = measure(sim, "shared_stride64", {1}, {32}, {arg(out), arg(int32_t(0))});
    CHECK(st64->byLine().at(70).sharedStWavefronts == 2);   // broadcast store never merges
    CHECK(ldWavefronts("shared_stride128", 1, 80) == 4);
    CHECK(ldWavefronts("shared_stride128", 2, 80) == 8);
    CHECK(ldWavefronts("shared_stride128", 8, 80) == 32);
    CHECK(ldWavefronts("shared_stride128", 0, 80) == 2);
    auto st128 = measure(sim, "shared_stride128", {1}, {32}, {arg(out), arg(int32_t(0))});
    CHECK(st128->byLine().at(82).sharedStWavefronts == 4);
}

TEST_CASE("the transpose tile: 32-way conflicts, gone with one column of padding", "[trace]") {
    wst::Sim sim(kMem);
    const int n = 64;
    std::vector<float> host(n * n);
    for (int i = 0; i < n * n; ++i) host[size_t(i)] = float(i);
    auto in = sim.upload(host, "in"), out = sim.upload(std::vector<float>(n * n, 0.f), "out");
    auto plain = measure(sim, "transpose_tile", {2, 2}, {32, 32}, {arg(in), arg(out), arg(int32_t(n))});
    auto padded = measure(sim, "transpose_tile_padded", {2, 2}, {32, 32}, {arg(in), arg(out), arg(int32_t(n))});
    const double warps = 4 * 32;   // shared-load instructions: one per warp
    CHECK(plain->metrics().at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 32 * warps);
    CHECK(plain->metrics().at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 31 * warps);
    CHECK(padded->metrics().at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 1 * warps);
    CHECK(padded->metrics().at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0);
    // Both store row-wise into the tile without conflicts, and produce the transpose.
    CHECK(plain->metrics().at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 0);
    auto result = sim.download<float>(out, size_t(n * n));
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) CHECK(result[size_t(y * n + x)] == float(x * n + y));
}

TEST_CASE("instruction counters and estimated caches", "[trace]") {
    wst::Sim sim(kMem);
    auto in = sim.upload(std::vector<float>(64 * 1024, 1.f), "in"), out = sim.upload(std::vector<float>(4096, 0.f), "out");
    auto c = measure(sim, "copy_offset", {32}, {128}, {arg(in), arg(out), arg(int32_t(0))});
    auto m = c->metrics();
    CHECK(m.at("smsp__inst_executed.sum") == sim.dev.lastStats().warpInstructions);
    CHECK(m.at("smsp__thread_inst_executed_per_inst_executed.ratio") == 32.0);
    // Every sector is read once: all L1 misses, and DRAM reads equal the bytes loaded.
    CHECK(m.at("l1tex__t_sector_hit_rate.pct") == 0.0);
    CHECK(m.at("dram__bytes_read.sum") == 4096 * 4);
    CHECK(m.at("dram__bytes_write.sum") == 4096 * 4);
    // Four warps of one block read the same sector: one L1 miss, then three hits.
    auto same = measure(sim, "same_address", {1}, {128}, {arg(in), arg(out)});
    CHECK(same->metrics().at("l1tex__t_sector_hit_rate.pct") == 75.0);
    CHECK(same->metrics().at("dram__bytes_read.sum") == 32);
}

// ptxas compiles an atomic whose old value nothing reads to RED, and Nsight Compute counts those
// under op_red (the issue-16 histogram flush and the reduction's atomicAdd(out, v) showed
// requests there and 0 under op_atom on the H100). The kernels are nvcc's PTX of
// tests/validation/realistic.cu; the PTX itself says atom.global for all of them.
TEST_CASE("global atomics whose result is unused count as RED, used ones as ATOM", "[trace]") {
    wst::Sim sim("tests/validation/realistic.ptx");
    const char* redReq = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
    const char* redSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum";
    const char* atomReq = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
    const char* atomSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum";

    SECTION("atomicAdd(out, v) of a warp-shuffle reduction") {
        auto vals = sim.upload(std::vector<float>(2048, 1.f)), out = sim.upload(std::vector<float>(1, 0.f));
        auto m = measure(sim, "reduce_warp_atomic", {8}, {256}, {arg(vals), arg(out)})->metrics();
        CHECK(m.at(redReq) == 64);   // one lane of each of the 64 warps
        CHECK(m.at(redSec) == 64);
        CHECK(m.at(atomReq) == 0);
        CHECK(m.at(atomSec) == 0);
        CHECK(sim.download<float>(out, 1)[0] == 2048.f);   // the sum itself is unchanged
    }
    SECTION("a shared-memory histogram's flush") {
        std::vector<uint32_t> keys(512);
        for (uint32_t i = 0; i < keys.size(); ++i) keys[i] = i * 2654435761u;
        auto k = sim.upload(keys), bins = sim.upload(std::vector<uint32_t>(64, 0));
        auto m = measure(sim, "histogram_shared", {2}, {256}, {arg(k), arg(bins)})->metrics();
        // Threads 0-63 of each block add their bin: 2 warps x 2 blocks, 128 bytes (4 sectors) each.
        CHECK(m.at(redReq) == 4);
        CHECK(m.at(redSec) == 16);
        CHECK(m.at(atomReq) == 0);
        auto h = sim.download<uint32_t>(bins, 64);
        uint32_t total = 0;
        for (auto b : h) total += b;
        CHECK(total == 512);
    }
    SECTION("a histogram straight into global memory: every update a RED") {
        std::vector<uint32_t> keys(512, 7);
        auto k = sim.upload(keys), bins = sim.upload(std::vector<uint32_t>(64, 0));
        auto m = measure(sim, "histogram_global", {2}, {256}, {arg(k), arg(bins)})->metrics();
        CHECK(m.at(redReq) == 16);
        // All 32 lanes on one bin, an address ptxas cannot prove uniform: 32 passes of one sector
        // (the H100's atomics probe, k = 32: 32 sectors per request).
        CHECK(m.at(redSec) == 16 * 32);
        CHECK(m.at(atomReq) == 0);
        CHECK(sim.download<uint32_t>(bins, 64)[7] == 512);
    }
    SECTION("the realistic suite's global histogram: Nsight Compute's 430,510 sectors") {
        // tests/validation/realistic.json: 1 Mi keys from the "hash" initialiser, seed 9, into 64
        // bins; ncu on the H100 (tests/validation/timing/realistic/atomics.csv): 32,768 requests,
        // 430,510 sectors (13.1 per request: one pass per repetition of a bin within the warp).
        const uint64_t n = 1u << 20, seed = 9;
        std::vector<uint32_t> keys(n);
        for (uint64_t i = 0; i < n; ++i) {
            uint64_t x = (i ^ (seed * 0xd1b54a32d192ed03ull)) + 0x9e3779b97f4a7c15ull;   // splitmix64
            x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
            x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
            keys[i] = static_cast<uint32_t>(x ^ (x >> 31));
        }
        auto k = sim.upload(keys), bins = sim.upload(std::vector<uint32_t>(64, 0));
        auto m = measure(sim, "histogram_global", {uint32_t(n / 256)}, {256}, {arg(k), arg(bins)})->metrics();
        CHECK(m.at(redReq) == 32768);
        CHECK(m.at(redSec) == 430510);
    }
    SECTION("a compaction uses the old value as its output index: ATOM") {
        std::vector<float> v(512);
        for (size_t i = 0; i < v.size(); ++i) v[i] = float(i % 2);
        auto in = sim.upload(v), kept = sim.upload(std::vector<float>(512, 0.f)), count = sim.upload(std::vector<uint32_t>(1, 0));
        auto m = measure(sim, "compact_above", {2}, {256}, {arg(in), arg(kept), arg(count), arg(0.5f), arg(512u)})->metrics();
        // ptxas aggregates atomicAdd(count, 1u) (a kernel parameter: warp-uniform) into one ATOM
        // by a leader lane; the H100 counts one sector per request (atomics.csv: 32,768 of each).
        CHECK(m.at(atomReq) == 16);
        CHECK(m.at(atomSec) == 16);
        CHECK(m.at(redReq) == 0);
        CHECK(m.at(redSec) == 0);
        CHECK(sim.download<uint32_t>(count, 1)[0] == 256);
    }
    SECTION("nvcc's red instruction itself (inline asm)") {
        wst::Sim mem(kMem);
        auto counter = mem.upload(std::vector<uint32_t>(1, 0));
        auto m = measure(mem, "red_inline", {3}, {64}, {arg(counter)})->metrics();
        CHECK(m.at(redReq) == 6);
        CHECK(m.at(redSec) == 6);
        CHECK(m.at(atomReq) == 0);
        CHECK(mem.download<uint32_t>(counter, 1)[0] == 192);
    }
}
