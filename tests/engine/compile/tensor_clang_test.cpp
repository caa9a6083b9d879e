// The clang path's half/bfloat16/wmma header (engine/compile/prelude/warpscope_tensor.h) against
// nvcc: tests/kernels/tensor.cu through clang (sm_80, compiled here) and through nvcc (the
// committed sm_90 PTX) runs on the simulator with the same inputs and must give the same bytes.
#include "support.hpp"

#include "compile/compile.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace warpscope;

namespace {

bool haveClang() {
    for (auto& a : compile::available())
        if (a.compiler == compile::Compiler::Clang) return true;
    return false;
}

using Bytes = std::vector<uint8_t>;

// f16/bf16/f32 inputs with varied exponents and every mantissa bit (as the golden kernels).
Bytes randomBytes(size_t n, uint32_t seed, int kind) {
    Bytes b(n);
    uint32_t x = seed;
    for (size_t i = 0; i + 1 < n; i += 2) {
        x = x * 1664525u + 1013904223u;
        uint16_t v;
        if (kind == 0) v = uint16_t((x >> 8) & 0x83ffu) | uint16_t((9 + (x >> 20) % 12) << 10);        // f16 in 2^-6..2^5
        else if (kind == 1) v = uint16_t((x >> 8) & 0x807fu) | uint16_t((119 + (x >> 20) % 16) << 7);  // bf16
        else v = uint16_t(x >> 16);                                                                    // raw (s8, f32 halves)
        std::memcpy(b.data() + i, &v, 2);
    }
    return b;
}

Bytes floats(size_t n, uint32_t seed) {
    Bytes b(n * 4);
    uint32_t x = seed;
    for (size_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        float f = (float(x >> 8) / float(1 << 24) - 0.5f) * float(1 << (x % 7));
        std::memcpy(b.data() + i * 4, &f, 4);
    }
    return b;
}

std::vector<Bytes> runOn(runtime::SimDevice& d, const std::string& kernel, uint32_t block, const std::vector<Bytes>& buffers) {
    std::vector<runtime::DevPtr> ptrs;
    std::vector<runtime::ParamBytes> params;
    for (auto& b : buffers) {
        ptrs.push_back(d.malloc(b.size(), "buf"));
        d.memcpyHtoD(ptrs.back(), b.data(), b.size());
        params.push_back(wst::arg(ptrs.back()));
    }
    runtime::LaunchConfig cfg;
    cfg.grid.x = 1;
    cfg.block.x = block;
    d.launch(kernel, cfg, params);
    std::vector<Bytes> out;
    for (size_t i = 0; i < buffers.size(); ++i) {
        out.emplace_back(buffers[i].size());
        d.memcpyDtoH(out.back().data(), ptrs[i], buffers[i].size());
    }
    return out;
}

} // namespace

TEST_CASE("clang: wmma (f16, bf16, tf32, s8) and half/bfloat16 arithmetic through warpscope's headers equal nvcc's", "[compile]") {
    if (!haveClang()) {
        WARN("clang not installed: skipped");
        return;
    }
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    o.arch = "sm_80";
    auto r = compile::compile(wst::readFile(wst::sourcePath("tests/kernels/tensor.cu")), "tensor.cu", o);
    INFO(r.error << "\n" << r.log);
    REQUIRE(r.ok);
    CHECK(r.ptx.find("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32") != std::string::npos);
    runtime::SimDevice nv, cl;
    nv.loadModule(wst::readFile(wst::sourcePath("tests/kernels/tensor.ptx")), "tensor.ptx");
    cl.loadModule(r.ptx, "tensor.clang.ptx");
    struct Case {
        const char* kernel;
        std::vector<Bytes> buffers;
    };
    const std::vector<Case> cases = {
        {"gemm16", {randomBytes(512, 1, 0), randomBytes(512, 2, 0), floats(256, 3), Bytes(1024)}},
        {"gemmh", {randomBytes(512, 4, 0), randomBytes(512, 5, 0), Bytes(512)}},
        {"gemmbf", {randomBytes(512, 6, 1), randomBytes(512, 7, 1), Bytes(1024)}},
        {"gemmtf", {floats(128, 8), floats(128, 9), Bytes(1024)}},
        {"gemms8", {randomBytes(256, 10, 2), randomBytes(256, 11, 2), Bytes(1024)}},
        {"halfops", {floats(64, 12), Bytes(128)}},
    };
    for (const Case& c : cases) {
        INFO("kernel " << c.kernel);
        auto a = runOn(nv, c.kernel, 32, c.buffers);
        auto b = runOn(cl, c.kernel, 32, c.buffers);
        REQUIRE(a.size() == b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            INFO("buffer " << i);
            CHECK(a[i] == b[i]);
        }
        CHECK(a.back() != c.buffers.back());   // the kernel wrote its result
    }
}
