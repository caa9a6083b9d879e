// Inspection: each warp's last warp-synchronous instruction's member masks (Block::warpSync),
// which Grid & warps groups into cooperative-groups tiles. Checked on the cooperative-groups
// lesson's kernels as nvcc compiled them (the committed PTX) and as clang compiles them with
// warpscope's <cooperative_groups.h> (no toolkit): the mask is the tile's lanes either way.
#include "support.hpp"

#include "compile/compile.hpp"
#include "ptx/parser.hpp"
#include "sim/gpu.hpp"

#include <catch2/catch.hpp>

#include <memory>

using namespace warpscope;

namespace {
struct Launch {
    ptx::Module m;
    sim::Program prog;
    mem::GlobalMemory mem;
    std::vector<base::ParamBytes> params;
    std::unique_ptr<sim::Gpu> gpu;
    Launch(const std::string& ptx, const std::string& kernel) : m(ptx::parse(ptx, "kernel.ptx")), prog(sim::compile(m, kernel, {})) {
        params.push_back(wst::arg(mem.allocate(256 * 4, "in")));
        params.push_back(wst::arg(mem.allocate(4, "out")));
        base::LaunchConfig cfg;
        cfg.grid = {1, 1, 1};
        cfg.block = {256, 1, 1};
        gpu = std::make_unique<sim::Gpu>(prog, mem, cfg, params);
    }
    const sim::Block& block() const { return *gpu->residentBlocks().at(0); }
    // Steps warp `w` alone until it waits at the block's barrier (after its first stage).
    void toBarrier(uint32_t w) {
        for (int i = 0; i < 1000 && block().warps[w].state == sim::WarpState::Ready; ++i) gpu->stepWarp(0, w);
        REQUIRE(block().warps[w].state == sim::WarpState::AtBarrier);
    }
};

// The mask a lane of a tile of `size` lanes carries: the tile's lanes.
uint32_t tileMask(int lane, int size) {
    const uint32_t ones = size == 32 ? 0xffffffffu : (1u << size) - 1;
    return ones << (lane / size * size);
}

void checkTiles(const std::string& ptx, const char* compiler) {
    INFO(compiler);
    struct Case {
        const char* kernel;
        int stage1, stage2;   // tile sizes: before the barrier, and warp 0's after it
    };
    for (Case c : {Case{"reduce_warp", 32, 32}, Case{"reduce_tile32", 32, 32}, Case{"reduce_tile8", 8, 32}, Case{"reduce_tile4", 4, 32}}) {
        INFO(c.kernel);
        Launch L(ptx, c.kernel);
        REQUIRE(L.gpu->step());              // admits the block: one instruction of warp 0 (ld.param)
        CHECK(L.block().warpSync.empty());   // nothing recorded before a warp-synchronous instruction
        L.toBarrier(3);
        REQUIRE(L.block().warpSync.size() == 8);
        const sim::Block::WarpSyncMasks& r = L.block().warpSync[3];
        REQUIRE(r.pc >= 0);
        const sim::Instr& I = L.prog.code[static_cast<size_t>(r.pc)];
        CHECK(I.maskSync);
        CHECK(r.exec == 0xffffffffu);
        for (int l = 0; l < 32; ++l) {
            INFO("lane " << l);
            CHECK(r.mask[l] == tileMask(l, c.stage1));
        }
        CHECK(L.block().warpSync[2].pc == -1);   // warp 2 has not run
        // To the end: warp 0 adds the partial sums as a tile of 32 (the lanes that do it), warp 5
        // keeps its first stage's masks.
        // (Read while the block is resident: it retires with its last warp.)
        sim::Block::WarpSyncMasks w0, w5;
        do {
            if (L.gpu->residentBlocks().empty()) break;
            w0 = L.block().warpSync[0];
            w5 = L.block().warpSync[5];
        } while (L.gpu->step());
        CHECK(w0.exec == 0xffffffffu);
        for (int l = 0; l < 32; ++l) CHECK(w0.mask[l] == tileMask(l, c.stage2));
        for (int l = 0; l < 32; ++l) CHECK(w5.mask[l] == tileMask(l, c.stage1));
    }
}
} // namespace

TEST_CASE("inspection: a warp's last member masks are its cooperative-groups tiles (nvcc PTX)", "[sim][groups]") {
    checkTiles(wst::readFile(wst::sourcePath("lessons/cooperative-groups/kernel.ptx")), "nvcc");
}

TEST_CASE("inspection: a warp's last member masks are its cooperative-groups tiles (clang PTX)", "[sim][groups][compile]") {
    bool clang = false;
    for (auto& a : compile::available()) clang = clang || a.compiler == compile::Compiler::Clang;
    if (!clang) {
        WARN("clang not installed: skipped");
        return;
    }
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    auto r = compile::compile(wst::readFile(wst::sourcePath("lessons/cooperative-groups/kernel.cu")), "kernel.cu", o);
    INFO(r.error << "\n" << r.log);
    REQUIRE(r.ok);
    checkTiles(r.ptx, "clang");
}

TEST_CASE("inspection: a faulting member mask is recorded", "[sim][groups]") {
    // Lane 0 names only itself and lane 1 while all 32 lanes execute: the PTX ISA leaves that
    // undefined and the engine reports it; the masks stay inspectable.
    const std::string ptx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %laneid;
  setp.eq.u32 %p1, %r1, 0;
  selp.b32 %r2, 3, -1, %p1;
  shfl.sync.idx.b32 %r3, %r1, 0, 31, %r2;
  ret;
}
)";
    ptx::Module m = ptx::parse(ptx, "k.ptx");
    sim::Program prog = sim::compile(m, "k", {});
    mem::GlobalMemory mem;
    std::vector<base::ParamBytes> params{wst::arg(mem.allocate(4, "out"))};
    base::LaunchConfig cfg;
    cfg.block = {32, 1, 1};
    sim::Gpu gpu(prog, mem, cfg, params);
    while (gpu.step()) {}
    REQUIRE(gpu.fault());
    CHECK(std::string(gpu.fault()->what()).find("member mask") != std::string::npos);
    const sim::Block& b = *gpu.residentBlocks().at(0);
    REQUIRE(b.warpSync.size() == 1);
    CHECK(b.warpSync[0].mask[0] == 3u);
    CHECK(b.warpSync[0].mask[1] == 0xffffffffu);
}
