// Indirect calls (function pointers, virtual functions) on real compiler output: tests/kernels/
// indirect.cu through nvcc (the committed PTX) and through clang 14 (compiled here, skipped where
// clang is missing). Results against CPU references, the serialisation of lanes that call
// different functions and their reconvergence, and a call to an address that is not a function.
#include "support.hpp"

#include "base/error.hpp"
#include "compile/compile.hpp"
#include "sim/gpu.hpp"
#include "sim/step.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <memory>
#include <set>

using namespace warpscope;
using wst::arg;

namespace {
struct Recorder : sim::StepListener {
    std::vector<sim::Step> steps;
    void onStep(const sim::Step& s) override { steps.push_back(s); }
};

// The two builds of tests/kernels/indirect.cu: nvcc's committed PTX, and clang's made now.
std::vector<std::pair<std::string, std::string>> builds() {
    std::vector<std::pair<std::string, std::string>> out{{"nvcc", wst::readFile(wst::sourcePath("tests/kernels/indirect.ptx"))}};
    bool clang = false;
    for (auto& a : compile::available()) clang = clang || a.compiler == compile::Compiler::Clang;
    if (!clang) {
        WARN("clang not installed: only nvcc's PTX is run");
        return out;
    }
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    auto r = compile::compile(wst::readFile(wst::sourcePath("tests/kernels/indirect.cu")), "indirect.cu", o);
    INFO(r.error << "\n" << r.log);
    REQUIRE(r.ok);
    CHECK(r.ptx.find(".callprototype") != std::string::npos);
    out.emplace_back("clang", r.ptx);
    return out;
}

std::unique_ptr<runtime::SimDevice> load(const std::string& ptx) {
    auto d = std::make_unique<runtime::SimDevice>();
    d->loadModule(ptx, "indirect.ptx");
    return d;
}

template <class T>
runtime::DevPtr upload(runtime::SimDevice& d, const std::vector<T>& v) {
    auto p = d.malloc(std::max<size_t>(1, v.size() * sizeof(T)), "buf");
    d.memcpyHtoD(p, v.data(), v.size() * sizeof(T));
    return p;
}
template <class T>
std::vector<T> download(runtime::SimDevice& d, runtime::DevPtr p, size_t n) {
    std::vector<T> v(n);
    d.memcpyDtoH(v.data(), p, n * sizeof(T));
    return v;
}
runtime::LaunchResult launch(runtime::SimDevice& d, const std::string& k, uint32_t grid, uint32_t block, std::vector<runtime::ParamBytes> p) {
    runtime::LaunchConfig cfg;
    cfg.grid.x = grid;
    cfg.block.x = block;
    return d.launch(k, cfg, p);
}
} // namespace

TEST_CASE("function pointers from a __device__ and a __constant__ table: each lane calls its own, and the warp reconverges", "[sim][indirect]") {
    for (auto& [compiler, ptx] : builds()) {
        INFO(compiler);
        CHECK(ptx.find(".callprototype") != std::string::npos);
        auto d = load(ptx);
        const int n = 70;   // three warps, the last one partial
        std::vector<int> which(n), a(n);
        for (int i = 0; i < n; ++i) which[size_t(i)] = (i * 7 + i / 5) % 4, a[size_t(i)] = i - 20;
        auto dw = upload(*d, which), da = upload(*d, a), dout = upload(*d, std::vector<int>(n, -99));
        for (int useConst = 0; useConst < 2; ++useConst) {
            INFO("table in " << (useConst ? "constant" : "global") << " memory");
            Recorder rec;
            d->onLaunch = [&](sim::Gpu& g) { g.setListener(&rec); };
            launch(*d, "apply_ops", 1, 96, {arg(dw), arg(da), arg(dout), arg(n), arg(useConst)});
            d->onLaunch = nullptr;
            auto out = download<int>(*d, dout, n);
            for (int i = 0; i < n; ++i) {
                const int x = a[size_t(i)];
                const int want = which[size_t(i)] == 0 ? x + 3 : which[size_t(i)] == 1 ? x * 3 : which[size_t(i)] == 2 ? x - 3 : std::max(x, 3);
                CHECK(out[size_t(i)] == want);
            }
            // Warp 0: its lanes name all four functions, so the call runs once per function, each
            // time with the lanes that name it (disjoint masks covering the warp), and the store
            // after it runs with the whole warp again.
            std::vector<uint32_t> callMasks;
            std::set<uint32_t> storeMasks;
            for (auto& s : rec.steps) {
                if (s.warp != 0) continue;
                if (s.instr->op == sim::Op::Call && s.instr->callSite >= 0 && s.instr->target < 0) callMasks.push_back(s.execMask);
                if (s.isStore && s.instr->space == ptx::StateSpace::Global) storeMasks.insert(s.execMask);
            }
            REQUIRE(callMasks.size() == 4);
            uint32_t all = 0;
            for (uint32_t m : callMasks) {
                CHECK((all & m) == 0);
                all |= m;
            }
            CHECK(all == 0xffffffffu);
            CHECK(storeMasks == std::set<uint32_t>{0xffffffffu});
            CHECK(d->lastStats().divergentBranches >= 3);
        }
    }
}

TEST_CASE("virtual functions: objects built with placement new, called through the base class", "[sim][indirect]") {
    for (auto& [compiler, ptx] : builds()) {
        INFO(compiler);
        auto d = load(ptx);
        const int n = 40;
        std::vector<int> kind(n);
        for (int i = 0; i < n; ++i) kind[size_t(i)] = (i * 5 + 1) % 7;
        auto pool = d->malloc(32 * n, "pool");
        auto shapes = d->malloc(8 * n, "shapes");
        auto dk = upload(*d, kind);
        launch(*d, "make_shapes", 2, 32, {arg(pool), arg(shapes), arg(dk), arg(n)});
        auto darea = upload(*d, std::vector<float>(n, 0)), dsides = upload(*d, std::vector<int>(n, -1));
        launch(*d, "shape_areas", 2, 32, {arg(shapes), arg(darea), arg(dsides), arg(n)});
        auto area = download<float>(*d, darea, n);
        auto sides = download<int>(*d, dsides, n);
        for (int i = 0; i < n; ++i) {
            const float x = float(i + 1);
            const int k = kind[size_t(i)] % 3;
            const float want = 2.0f * (k == 0 ? x * x : k == 1 ? 3.0f * x * x : 0.5f * x * 2.0f);
            INFO("shape " << i << " kind " << k);
            CHECK(area[size_t(i)] == want);
            CHECK(sides[size_t(i)] == (k == 0 ? 4 : k == 1 ? 0 : 3));
        }
    }
}

TEST_CASE("a call through an address that is not a function is a fault at its lane and line", "[sim][indirect]") {
    for (auto& [compiler, ptx] : builds()) {
        INFO(compiler);
        auto d = load(ptx);
        auto out = d->malloc(64 * 4, "out");
        for (uint64_t bad : {uint64_t(0), uint64_t(out)}) {
            INFO("address " << bad);
            std::string msg;
            std::optional<uint32_t> lane, line;
            try {
                launch(*d, "call_pointer", 1, 32, {arg(out), arg(bad)});
            } catch (const Error& e) {
                msg = e.what();
                lane = e.site().lane;
                line = e.site().sourceLine;
            }
            CHECK(msg.find("not a device function's address") != std::string::npos);
            REQUIRE(lane);
            CHECK(*lane == 0);
            CHECK(line.value_or(0) == 73);   // out[threadIdx.x] = f(...)
        }
    }
}

TEST_CASE("indirect calls: a prototype that does not match the function, and a .calltargets list the call does not fit, are clear errors", "[sim][indirect]") {
    // Hand-written PTX (no compiler emits these mistakes): f takes one .b32, the prototype two.
    const std::string ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.func (.param .b32 r) f(.param .b32 a)
{
    .reg .b32 %x;
    ld.param.b32 %x, [a];
    st.param.b32 [r], %x;
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .b64 %rd<3>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [out];
    mov.u64 %rd2, f;
    {
    .param .b32 p0;
    .param .b32 p1;
    .param .b32 ret0;
    mov.b32 %r0, 1;
    st.param.b32 [p0], %r0;
    st.param.b32 [p1], %r0;
    proto : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
    call (ret0), %rd2, (p0, p1), proto;
    ld.param.b32 %r1, [ret0];
    }
    st.global.u32 [%rd1], %r1;
    ret;
}
)";
    runtime::SimDevice d;
    d.loadModule(ptx, "bad.ptx");
    auto out = d.malloc(4, "out");
    std::string msg;
    try {
        launch(d, "k", 1, 32, {arg(out)});
    } catch (const Error& e) {
        msg = e.what();
    }
    CHECK(msg.find("do not match the call's .callprototype") != std::string::npos);

    std::string targets = ptx;
    targets.replace(targets.find("proto : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);"),
                    std::string("proto : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);").size(), "proto : .calltargets f;");
    std::string parseMsg;
    try {
        runtime::SimDevice d2;
        d2.loadModule(targets, "targets.ptx");
        auto out2 = d2.malloc(4, "out");
        launch(d2, "k", 1, 32, {arg(out2)});
    } catch (const Error& e) {
        parseMsg = e.what();
    }
    // f takes one argument, the call passes two: the list does not fit the call.
    CHECK(parseMsg.find("'f' in the .calltargets list") != std::string::npos);
    CHECK(parseMsg.find("takes 1 arguments") != std::string::npos);
}

// Hand-written PTX (no compiler here emits .calltargets): even lanes call inc, odd lanes dbl,
// through a pointer each lane picks; the call's .calltargets list names the functions it may reach.
namespace {
std::string calltargetsPtx(const std::string& list, bool thirdForLane5) {
    return R"(
.version 7.0
.target sm_75
.address_size 64
.func (.param .b32 r) inc(.param .b32 a)
{
    .reg .b32 %x;
    ld.param.b32 %x, [a];
    add.s32 %x, %x, 1;
    st.param.b32 [r], %x;
    ret;
}
.func (.param .b32 r) dbl(.param .b32 a)
{
    .reg .b32 %x;
    ld.param.b32 %x, [a];
    shl.b32 %x, %x, 1;
    st.param.b32 [r], %x;
    ret;
}
.func (.param .b32 r) neg(.param .b32 a)
{
    .reg .b32 %x;
    ld.param.b32 %x, [a];
    neg.s32 %x, %x;
    st.param.b32 [r], %x;
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .b64 %rd<6>;
    .reg .b32 %r<5>;
    .reg .pred %p<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.s32 %p1, %r2, 0;
    mov.u64 %rd2, inc;
    mov.u64 %rd3, dbl;
    selp.b64 %rd4, %rd2, %rd3, %p1;
)" + std::string(thirdForLane5 ? "    setp.eq.s32 %p2, %r1, 5;\n    mov.u64 %rd5, neg;\n    selp.b64 %rd4, %rd5, %rd4, %p2;\n" : "") + R"(
    {
    .param .b32 p0;
    .param .b32 ret0;
    st.param.b32 [p0], %r1;
    targets : .calltargets )" + list + R"(;
    call (ret0), %rd4, (p0), targets;
    ld.param.b32 %r3, [ret0];
    }
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd5, %rd1, %rd5;
    st.global.u32 [%rd5], %r3;
    ret;
}
)";
}
} // namespace

TEST_CASE(".calltargets: a call reaches the listed functions; a target outside the list is a fault at its lane", "[sim][indirect]") {
    {
        runtime::SimDevice d;
        d.loadModule(calltargetsPtx("inc, dbl", false), "targets.ptx");
        auto out = d.malloc(32 * 4, "out");
        launch(d, "k", 1, 32, {arg(out)});
        auto got = download<int32_t>(d, out, 32);
        for (int i = 0; i < 32; ++i) CHECK(got[static_cast<size_t>(i)] == (i % 2 == 0 ? i + 1 : 2 * i));
    }
    {   // lane 5 calls neg, which the list leaves out
        runtime::SimDevice d;
        d.loadModule(calltargetsPtx("inc, dbl", true), "targets.ptx");
        auto out = d.malloc(32 * 4, "out");
        std::string msg;
        std::optional<uint32_t> lane;
        try {
            launch(d, "k", 1, 32, {arg(out)});
        } catch (const Error& e) {
            msg = e.what();
            lane = e.site().lane;
        }
        CHECK(msg.find("Indirect call to 'neg', which is not in the call's .calltargets list (inc, dbl)") != std::string::npos);
        CHECK(lane.value_or(99) == 5);
    }
    {   // the same with neg listed: every lane's own function
        runtime::SimDevice d;
        d.loadModule(calltargetsPtx("inc, dbl, neg", true), "targets.ptx");
        auto out = d.malloc(32 * 4, "out");
        launch(d, "k", 1, 32, {arg(out)});
        auto got = download<int32_t>(d, out, 32);
        CHECK(got[5] == -5);
        CHECK(got[4] == 5);
        CHECK(got[7] == 14);
    }
    {   // a name that is not a function of the module
        std::string msg;
        try {
            runtime::SimDevice d;
            d.loadModule(calltargetsPtx("inc, nosuch", false), "targets.ptx");
            auto out = d.malloc(32 * 4, "out");
            launch(d, "k", 1, 32, {arg(out)});
        } catch (const Error& e) {
            msg = e.what();
        }
        CHECK(msg.find("names 'nosuch', which is not a function with a body in this module") != std::string::npos);
    }
}
