// Register storage (Function::layoutRegisters, Frame::regWords): 64-bit registers keep 64-bit
// lanes, all others 32-bit lanes, and sim::registerValues shows every register as the app's
// register view reads it. Real nvcc output: tests/kernels/registers.cu.
#include "support.hpp"

#include "mem/memory.hpp"
#include "ptx/parser.hpp"
#include "sim/gpu.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>

using namespace warpscope;

namespace {

// The register of `fn` named `name`.
uint32_t regIndex(const sim::Function& fn, const std::string& name) {
    for (uint32_t r = 0; r < fn.regNames.size(); ++r)
        if (fn.regNames[r] == name) return r;
    FAIL("no register " << name);
    return 0;
}

} // namespace

TEST_CASE("register storage: 64-bit registers first and 8-byte aligned, the rest 32-bit", "[sim][registers]") {
    ptx::Module m = ptx::parse(wst::readFile(wst::sourcePath("tests/kernels/registers.ptx")), "registers.ptx");
    sim::Program prog = sim::compile(m, "register_widths", {});
    const sim::Function& fn = prog.functions[0];
    uint32_t wide = 0, narrow = 0;
    for (uint32_t r = 0; r < fn.regTypes.size(); ++r) {
        const bool w = ptx::bitsOf(fn.regTypes[r]) == 64;
        CHECK(fn.regWide[r] == (w ? 1 : 0));
        if (w) {
            CHECK(fn.regOffset[r] % 2 == 0);
            CHECK(fn.regOffset[r] < 64 * (fn.regTypes.size()));
            ++wide;
        } else {
            ++narrow;
        }
    }
    CHECK(wide == 21 + 3);    // %rd0..20, %fd0..2
    CHECK(narrow == 3 + 3 + 4);   // %rs0..2, %f0..2, %r0..3
    CHECK(fn.regWords == wide * 64 + narrow * 32);
    // Every 64-bit register lies before every 32-bit one, and no two overlap.
    std::vector<int> owner(fn.regWords, -1);
    for (uint32_t r = 0; r < fn.regTypes.size(); ++r) {
        const uint32_t n = fn.regWide[r] ? 64 : 32;
        for (uint32_t k = 0; k < n; ++k) {
            REQUIRE(fn.regOffset[r] + k < fn.regWords);
            CHECK(owner[fn.regOffset[r] + k] == -1);
            owner[fn.regOffset[r] + k] = int(r);
        }
        if (!fn.regWide[r]) CHECK(fn.regOffset[r] >= wide * 64);
    }
}

TEST_CASE("register storage: a warp's registers of every width read back as the kernel computed them", "[sim][registers]") {
    ptx::Module m = ptx::parse(wst::readFile(wst::sourcePath("tests/kernels/registers.ptx")), "registers.ptx");
    sim::Program prog = sim::compile(m, "register_widths", {});
    const sim::Function& fn = prog.functions[0];
    mem::GlobalMemory mem;
    std::vector<base::ParamBytes> params;
    for (int k = 0; k < 5; ++k) params.push_back(wst::arg(mem.allocate(64 * 8, "out")));
    base::LaunchConfig cfg;
    cfg.grid.x = 1;
    cfg.block.x = 48;   // the second warp is partial: 16 lanes
    sim::Gpu gpu(prog, mem, cfg, params, {});
    // Both warps up to their ret (the last instruction), so the register files are still there.
    const int32_t last = fn.end - 1;
    for (uint32_t wi = 0; wi < 2; ++wi)
        for (int guard = 0; guard < 200 && gpu.residentBlocks()[0]->warps[wi].pc() != last; ++guard) gpu.stepWarp(0, wi);
    INFO((gpu.fault() ? gpu.fault()->what() : "no fault"));
    for (uint32_t wi = 0; wi < 2; ++wi) {
        const sim::Warp& w = gpu.residentBlocks()[0]->warps[wi];
        REQUIRE(w.pc() == last);
        const std::vector<uint64_t> v = sim::registerValues(fn, w.frames[0]);
        REQUIRE(v.size() == fn.regTypes.size() * 32);
        auto at = [&](const char* name, uint32_t lane) { return v[regIndex(fn, name) * 32 + lane]; };
        const uint32_t lanes = wi == 0 ? 32 : 16;
        INFO("warp " << wi);
        for (uint32_t l = 0; l < lanes; ++l) {
            const uint32_t t = wi * 32 + l;
            CHECK(at("%r1", l) == t);
            CHECK(at("%r3", l) == uint64_t(~t));   // a 32-bit register: zero above bit 31
            CHECK(at("%rd12", l) == uint64_t(t + 1) << 33);   // needs all 64 bits
            CHECK(at("%fd2", l) == std::bit_cast<uint64_t>(t * 0.5 + 0.125));
            CHECK(at("%f2", l) == std::bit_cast<uint32_t>(t * 0.25f + 1.0f));
            CHECK((at("%rs2", l) & 0xffff) == uint16_t(-3 * int(t)));
            CHECK(at("%rs2", l) >> 32 == 0);
        }
        // Lanes past the block's threads never ran: their registers are still zero.
        for (uint32_t l = lanes; l < 32; ++l) CHECK(at("%rd12", l) == 0);
    }
    // And the results in memory agree.
    gpu.run();
    CHECK(gpu.state() == sim::LaunchState::Finished);
}
