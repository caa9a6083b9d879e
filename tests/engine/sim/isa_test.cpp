// The instruction table is complete and consistent.
#include "ptx/parser.hpp"
#include "sim/isa.hpp"
#include "sim/program.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace warpscope::sim;

TEST_CASE("every opcode has a unique name that maps back to it", "[sim]") {
    std::set<std::string> names;
    for (int i = 0; i < kOpCount; ++i) {
        const OpInfo& info = kOpTable[i];
        CHECK(static_cast<int>(info.op) == i);
        CHECK(!info.name.empty());
        CHECK(info.latency > 0);
        CHECK(names.insert(std::string(info.name)).second);
        Op back;
        REQUIRE(opFromName(info.name, back));
        CHECK(back == info.op);
    }
    Op dummy;
    CHECK_FALSE(opFromName("wgmma", dummy));
}

// A Plain row is lowered from the table alone (sim/compile.cpp has no case for it): a destination
// and N sources of the instruction's type. Each Plain row, written as ptxas accepts it, comes out
// as that op with N sources; an unknown modifier word is refused.
TEST_CASE("Plain rows lower from the instruction table alone", "[sim]") {
    auto typeFor = [](Op op) -> std::string {
        switch (op) {
        case Op::Rcp: case Op::Sqrt: case Op::Rsqrt: return "rn.f32";
        case Op::Sin: case Op::Cos: case Op::Lg2: case Op::Ex2: case Op::Tanh: return "approx.f32";
        case Op::Fma: return "rn.f32";
        case Op::Not: case Op::Cnot: case Op::And: case Op::Or: case Op::Xor: case Op::Brev: case Op::Popc: case Op::Clz:
        case Op::Fns: case Op::Bfi: return "b32";
        default: return "s32";
        }
    };
    int plain = 0;
    for (int i = 0; i < kOpCount; ++i) {
        const OpInfo& info = kOpTable[i];
        if (info.lowering == Lowering::Own) continue;
        ++plain;
        const int n = static_cast<int>(info.lowering);
        const std::string type = typeFor(info.op);
        const bool f = type.find("f32") != std::string::npos;
        const std::string r = f ? "%f" : "%r";
        std::string line = std::string(info.name) + "." + type + " " + r + "1";
        for (int k = 0; k < n; ++k) line += ", " + r + std::to_string(k + 2);
        line += ";";
        if (info.op == Op::Fns) line = "fns.b32 %r1, %r2, %r3, %r4;";
        auto kernel = [&](const std::string& body) {
            return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<8>;\n.reg .f32 %f<8>;\n" + body +
                   "\nret;\n}\n";
        };
        INFO(line);
        const warpscope::ptx::Module m = warpscope::ptx::parse(kernel(line), "plain.ptx");
        const Program prog = compile(m, "k", {});
        REQUIRE(prog.code.size() >= 1);
        CHECK(prog.code[0].op == info.op);
        CHECK(prog.code[0].nsrc == n);
        // A modifier word the row does not take is an error, not ignored.
        std::string bad = line;
        bad.insert(info.name.size(), ".bogus");
        INFO(bad);
        CHECK_THROWS(compile(warpscope::ptx::parse(kernel(bad), "plain.ptx"), "k", {}));
    }
    CHECK(plain >= 20);
}
