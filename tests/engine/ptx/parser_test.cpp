// The PTX front end on real nvcc output and on malformed input.
#include "support.hpp"

#include "ptx/parser.hpp"
#include "base/error.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace warpscope;

TEST_CASE("parses the vector-add PTX nvcc emitted", "[ptx]") {
    ptx::Module m = ptx::parse(wst::readFile(wst::sourcePath("lessons/vector-add/kernel.ptx")), "kernel.ptx");
    CHECK(m.addressSize == 64);
    CHECK(m.target == "sm_75");
    REQUIRE(m.kernels().size() == 1);
    const ptx::Function& k = *m.kernels()[0];
    CHECK(k.name == "vadd");
    REQUIRE(k.params.size() == 4);
    CHECK(k.params[0].type == ptx::Type::U64);
    CHECK(k.params[3].type == ptx::Type::U32);
    CHECK(m.files.at(1) == "kernel.cu");
    // Every instruction carries the CUDA line it came from.
    int withLine = 0, instrs = 0;
    for (auto& s : k.body) {
        if (s.kind != ptx::Statement::Kind::Instruction) continue;
        ++instrs;
        if (s.instr.loc.line > 0) ++withLine;
    }
    CHECK(instrs > 10);
    CHECK(withLine == instrs);
}

TEST_CASE("call sequences, .func, inlined_at locations and debug sections", "[ptx]") {
    ptx::Module m = ptx::parse(wst::readFile(wst::sourcePath("tests/golden/device-calls/kernel.ptx")), "device-calls");
    CHECK(m.findFunction("device_calls") != nullptr);
    int funcs = 0;
    for (auto& f : m.functions)
        if (!f.isEntry && f.hasBody) ++funcs;
    CHECK(funcs >= 5);
    // Call-sequence params are renamed per scope, so two "param0" never collide.
    const ptx::Function& k = *m.findFunction("device_calls");
    std::set<std::string> paramNames;
    int callParams = 0;
    for (auto& v : k.locals)
        if (v.space == ptx::StateSpace::Param) {
            ++callParams;
            paramNames.insert(v.name);
        }
    CHECK(callParams > 2);
    CHECK(paramNames.size() == size_t(callParams));
    ptx::Module w = ptx::parse(wst::readFile(wst::sourcePath("tests/golden/warp-shuffle/kernel.ptx")), "shfl");
    bool inlined = false;
    for (auto& f : w.functions)
        for (auto& s : f.body)
            if (s.kind == ptx::Statement::Kind::Instruction && s.instr.loc.innerLine > 0) inlined = true;
    CHECK(inlined);   // shfl intrinsics are inlined from a CUDA header: outer line is the user's
}

TEST_CASE("instructions print back as PTX", "[ptx]") {
    ptx::Module m = ptx::parse(R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];
    @!%p1 bra $L__BB0_2;
    st.global.v2.u32 [%rd1+-8], {%r1, %r2};
    shfl.sync.down.b32 %r3|%p1, %r1, 1, 31, -1;
$L__BB0_2:
    ret;
}
)");
    const auto& body = m.functions[0].body;
    CHECK(body[0].instr.text() == "ld.param.u64 %rd1, [p]");
    CHECK(body[1].instr.text() == "@!%p1 bra $L__BB0_2");
    CHECK(body[2].instr.text() == "st.global.v2.u32 [%rd1-8], {%r1, %r2}");
    CHECK(body[3].instr.text() == "shfl.sync.down.b32 %r3|%p1, %r1, 1, 31, -1");
}

TEST_CASE("malformed PTX gives an input error with the line", "[ptx]") {
    auto errorOf = [](const std::string& text) -> std::string {
        try {
            ptx::parse(text, "bad.ptx");
        } catch (const Error& e) {
            CHECK(e.kind() == Error::Kind::Input);
            return e.what();
        }
        return "";
    };
    const std::string head = ".version 8.0\n.target sm_75\n.address_size 64\n";
    CHECK(errorOf(head + ".visible .entry k()\n{\n  ret\n}\n").find("bad.ptx:6") != std::string::npos);   // missing ';'
    CHECK(errorOf(head + ".visible .entry k()\n{\n  ret;\n").find("not closed") != std::string::npos);
    CHECK(errorOf(head + ".bogus 1;\n").find("unknown or misplaced directive") != std::string::npos);
    CHECK(errorOf(head + ".global .u32 x = 0x;\n").find("hexadecimal") != std::string::npos);
    CHECK(errorOf(head + ".visible .entry k()\n{\n  mov.f32 %f1, 0f3F80;\n}\n").find("8 hex digits") != std::string::npos);
    CHECK(errorOf("\x01").find("unexpected character") != std::string::npos);
    CHECK(errorOf(head + ".visible .entry k()\n{\n  /* never closed\n}").find("unterminated comment") != std::string::npos);
}

TEST_CASE("unsupported but valid PTX fails precisely at compile time", "[ptx]") {
    const std::string text = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k()
{
    .reg .b32 %r<3>;
    wgmma.fence.sync.aligned;
    ret;
}
)";
    runtime::SimDevice dev;
    dev.loadModule(text, "wgmma.ptx");
    try {
        dev.program("k");
        FAIL("expected an error");
    } catch (const Error& e) {
        CHECK(e.kind() == Error::Kind::Unsupported);
        std::string m = e.what();
        CHECK(m.find("wgmma") != std::string::npos);
        CHECK(m.find("PTX line 8") != std::string::npos);
        CHECK(m.find("kernel 'k'") != std::string::npos);
    }
}
