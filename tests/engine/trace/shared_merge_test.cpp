// Which ld.shared ptxas merges into LDS.64/LDS.128 (trace/shared_merge.hpp), against the SASS
// ptxas really makes: tests/validation/ncu/sass-lds-sm90.txt holds the shared-memory instructions
// of every kernel of the validation suites and the lessons, from `ptxas -arch=sm_90` on the
// committed PTX and `cuobjdump -sass` (recorded on the GPU machine, CUDA 13). Per kernel, the
// SASS's LDS.128 must be the merged groups of four plus the PTX's own 128-bit shared loads, its
// LDS.64 the groups of two plus the PTX's 64-bit ones, its 32-bit LDS the scalar loads left.
#include "support.hpp"

#include "ptx/parser.hpp"
#include "sim/program.hpp"
#include "trace/shared_merge.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <sstream>

using namespace warpscope;

namespace {
struct LdsCounts {
    int lds32 = 0, lds64 = 0, lds128 = 0;
    bool operator==(const LdsCounts& o) const { return lds32 == o.lds32 && lds64 == o.lds64 && lds128 == o.lds128; }
};

// (PTX file, kernel) -> the SASS's shared loads.
std::map<std::pair<std::string, std::string>, LdsCounts> sassCounts() {
    std::map<std::pair<std::string, std::string>, LdsCounts> out;
    std::istringstream in(wst::readFile(wst::sourcePath("tests/validation/ncu/sass-lds-sm90.txt")));
    std::string line, file, kernel;
    const std::regex fn(R"(Function : (\S+))"), lds(R"(\bLDS(\.U8|\.S8|\.U16|\.S16|\.64|\.128)?\s)");
    std::smatch m;
    while (std::getline(in, line)) {
        if (line.rfind("== ", 0) == 0) {
            file = line.substr(3);
            continue;
        }
        if (std::regex_search(line, m, fn)) {
            kernel = m[1];
            out[{file, kernel}];
            continue;
        }
        if (!kernel.empty() && std::regex_search(line, m, lds)) {
            LdsCounts& c = out[{file, kernel}];
            const std::string w = m[1];
            if (w == ".128") ++c.lds128;
            else if (w == ".64") ++c.lds64;
            else if (w.empty()) ++c.lds32;
        }
    }
    return out;
}

// What the analysis predicts for the kernel's PTX.
LdsCounts predicted(const ptx::Module& module, const std::string& kernel) {
    sim::Program p = sim::compile(module, kernel, {});
    trace::SharedLoadMerges m = trace::findSharedLoadMerges(p.code);
    LdsCounts c;
    for (size_t pc = 0; pc < p.code.size(); ++pc) {
        const sim::Instr& in = p.code[pc];
        if (in.op != sim::Op::Ld || in.space != ptx::StateSpace::Shared) continue;
        const int bytes = ptx::sizeOf(in.type) * in.vec;
        if (m.leader[pc] >= 0) {
            if (m.leader[pc] == int32_t(pc)) (m.bytes[pc] == 16 ? c.lds128 : c.lds64)++;
            continue;
        }
        if (bytes == 16) ++c.lds128;
        else if (bytes == 8) ++c.lds64;
        else if (bytes == 4) ++c.lds32;
    }
    return c;
}
} // namespace

TEST_CASE("shared loads merged as ptxas merges them: every recorded kernel's SASS", "[trace]") {
    const auto sass = sassCounts();
    REQUIRE(sass.size() >= 100);
    std::map<std::string, ptx::Module> modules;
    int kernels = 0, withMerges = 0, agree = 0;
    std::vector<std::string> differ;
    for (const auto& [key, hw] : sass) {
        const auto& [file, kernel] = key;
        auto it = modules.find(file);
        if (it == modules.end()) it = modules.emplace(file, ptx::parse(wst::readFile(wst::sourcePath(file)), file)).first;
        const LdsCounts sim = predicted(it->second, kernel);
        ++kernels;
        if (hw.lds128 || hw.lds64) ++withMerges;
        if (sim == hw) ++agree;
        else
            differ.push_back(file + " " + kernel + ": SASS " + std::to_string(hw.lds32) + "/" + std::to_string(hw.lds64) + "/" +
                             std::to_string(hw.lds128) + ", predicted " + std::to_string(sim.lds32) + "/" + std::to_string(sim.lds64) +
                             "/" + std::to_string(sim.lds128) + " (LDS/LDS.64/LDS.128)");
    }
    for (auto& d : differ) UNSCOPED_INFO(d);
    CHECK(differ.empty());
    CHECK(withMerges >= 15);
    WARN("shared-load merging: " << agree << " of " << kernels << " kernels as their SASS, " << withMerges << " with wide loads");
}

TEST_CASE("shared loads merged: the tiled matmuls' groups and a kernel left alone", "[trace]") {
    const std::string file = "lessons/matmul/kernel.ptx";
    ptx::Module m = ptx::parse(wst::readFile(wst::sourcePath(file)), file);
    // matmul_tiled (TILE 16): As[ty][k] for k = 0..15 from one base, four groups of four.
    sim::Program tiled = sim::compile(m, "matmul_tiled", {});
    trace::SharedLoadMerges g = trace::findSharedLoadMerges(tiled.code);
    int leaders = 0, members = 0;
    for (size_t pc = 0; pc < tiled.code.size(); ++pc) {
        if (g.leader[pc] < 0) continue;
        ++members;
        if (g.leader[pc] == int32_t(pc)) {
            ++leaders;
            CHECK(int(g.bytes[pc]) == 16);
            CHECK(int(g.members(int32_t(pc))) == 4);
        }
    }
    CHECK(leaders == 4);
    CHECK(members == 16);
    // The naive kernel reads no shared memory: nothing to merge.
    sim::Program naive = sim::compile(m, "matmul_naive", {});
    trace::SharedLoadMerges n = trace::findSharedLoadMerges(naive.code);
    for (int32_t l : n.leader) CHECK(l == -1);
    // Alignment: the wide load needs every active lane's address aligned to its width.
    uint64_t addr[32];
    for (int l = 0; l < 32; ++l) addr[l] = 256 + 64 * uint64_t(l / 16);
    CHECK(trace::mergedAccessAligned(addr, 0xffffffffu, 16));
    addr[5] += 4;
    CHECK(!trace::mergedAccessAligned(addr, 0xffffffffu, 16));
    CHECK(trace::mergedAccessAligned(addr, 0xffffffffu & ~(1u << 5), 16));   // (lane 5 inactive)
    CHECK(trace::mergedAccessAligned(addr, 0xffffffffu, 4));
}
