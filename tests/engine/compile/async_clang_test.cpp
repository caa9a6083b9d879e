// The clang path's warp reductions, cooperative groups, asynchronous-copy primitives and
// grid.sync() (the prelude and warpscope's <cooperative_groups.h>, no toolkit) against nvcc:
// tests/kernels/groups.cu through clang (sm_86, compiled here) and through nvcc (the committed
// sm_90 PTX) runs on the simulator with the same inputs and must give the same bytes.
#include "support.hpp"

#include "compile/compile.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace warpscope;

namespace {
using Bytes = std::vector<uint8_t>;

Bytes hashed(size_t words, uint32_t seed) {
    Bytes b(words * 4);
    uint32_t x = seed;
    for (size_t i = 0; i < words; ++i) {
        x = x * 1664525u + 1013904223u;
        const uint32_t v = (x >> 3) ^ (x << 7);
        std::memcpy(b.data() + i * 4, &v, 4);
    }
    return b;
}

std::vector<Bytes> runOn(runtime::SimDevice& d, const std::string& kernel, uint32_t grid, uint32_t block, bool cooperative,
                         const std::vector<Bytes>& buffers) {
    std::vector<runtime::DevPtr> ptrs;
    std::vector<runtime::ParamBytes> params;
    for (auto& b : buffers) {
        ptrs.push_back(d.malloc(b.size(), "buf"));
        d.memcpyHtoD(ptrs.back(), b.data(), b.size());
        params.push_back(wst::arg(ptrs.back()));
    }
    runtime::LaunchConfig cfg;
    cfg.grid.x = grid;
    cfg.block.x = block;
    cfg.cooperative = cooperative;
    d.launch(kernel, cfg, params);
    std::vector<Bytes> out;
    for (size_t i = 0; i < buffers.size(); ++i) {
        out.emplace_back(buffers[i].size());
        d.memcpyDtoH(out.back().data(), ptrs[i], buffers[i].size());
    }
    return out;
}
} // namespace

TEST_CASE("clang: redux, cooperative groups, __pipeline_* copies and grid.sync() through warpscope's headers equal nvcc's", "[compile][async]") {
    bool clang = false;
    for (auto& a : compile::available()) clang = clang || a.compiler == compile::Compiler::Clang;
    if (!clang) {
        WARN("clang not installed: skipped");
        return;
    }
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    o.arch = "sm_86";
    auto r = compile::compile(wst::readFile(wst::sourcePath("tests/kernels/groups.cu")), "groups.cu", o);
    INFO(r.error << "\n" << r.log);
    REQUIRE(r.ok);
    CHECK(r.ptx.find("redux.sync.add.s32") != std::string::npos);
    CHECK(r.ptx.find("cp.async.cg.shared.global") != std::string::npos);
    CHECK(r.ptx.find("%envreg1") != std::string::npos);
    runtime::SimDevice nv, cl;
    nv.loadModule(wst::readFile(wst::sourcePath("tests/kernels/groups.ptx")), "groups.ptx");
    cl.loadModule(r.ptx, "groups.clang.ptx");
    struct Case {
        const char* kernel;
        uint32_t grid, block;
        bool cooperative;
        std::vector<Bytes> buffers;
    };
    const std::vector<Case> cases = {
        {"reductions", 1, 64, false, {hashed(64, 1), Bytes(64 * 16 * 4)}},
        {"copies", 1, 128, false, {hashed(1024, 2), Bytes(128 * 6 * 4)}},
        {"grid_sum", 4, 64, true, {hashed(256, 3), Bytes(256 * 4), Bytes(256 * 4)}},
    };
    for (const Case& c : cases) {
        INFO("kernel " << c.kernel);
        auto a = runOn(nv, c.kernel, c.grid, c.block, c.cooperative, c.buffers);
        auto b = runOn(cl, c.kernel, c.grid, c.block, c.cooperative, c.buffers);
        REQUIRE(a.size() == b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            INFO("buffer " << i);
            CHECK(a[i] == b[i]);
        }
        CHECK(a.back() != c.buffers.back());   // the kernel wrote its result
    }
}

TEST_CASE("clang: libcu++'s cuda::pipeline is a clear error at its include", "[compile][async]") {
    bool clang = false;
    for (auto& a : compile::available()) clang = clang || a.compiler == compile::Compiler::Clang;
    if (!clang) return;
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    o.arch = "sm_86";
    auto r = compile::compile("#include <cuda/pipeline>\n__global__ void k() {}\n", "p.cu", o);
    CHECK_FALSE(r.ok);
    bool named = false;
    for (auto& d : r.diagnostics) named = named || d.message.find("__pipeline_memcpy_async") != std::string::npos;
    CHECK(named);
}
