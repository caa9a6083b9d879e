// Which ld.shared ptxas merges into LDS.64/LDS.128 (trace/shared_merge.hpp), against the SASS
// ptxas really makes: tests/validation/ncu/sass-lds-sm90.txt holds the shared-memory instructions
// of every kernel of the validation suites and the lessons, from `ptxas -arch=sm_90` on the
// committed PTX and `cuobjdump -sass` (recorded on the GPU machine, CUDA 13). Per kernel, the
// SASS's wide loads must come from groups the analysis finds (see the first test case).
#include "support.hpp"

#include "ptx/parser.hpp"
#include "runtime/lesson.hpp"
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

// What the analysis finds in the kernel's PTX: merged groups, and the PTX's own 64- and 128-bit
// shared loads (vector or wide scalar), which are LDS.64/LDS.128 without any merging.
struct Found {
    int groups = 0, wideAsWritten = 0;
};
Found analyse(const ptx::Module& module, const std::string& kernel) {
    // Module-scope variables get placeholder addresses: only the shared loads matter here.
    sim::SymbolAddresses symbols;
    uint64_t at = 0x10000;
    for (const auto& v : module.variables) {
        symbols[v.name] = at;
        at += 0x10000;
    }
    sim::Program p = sim::compile(module, kernel, symbols);
    trace::SharedLoadMerges m = trace::findSharedLoadMerges(p.code);
    Found f;
    for (size_t pc = 0; pc < p.code.size(); ++pc) {
        const sim::Instr& in = p.code[pc];
        if (in.op != sim::Op::Ld || in.space != ptx::StateSpace::Shared) continue;
        if (m.leader[pc] == int32_t(pc)) ++f.groups;
        else if (m.leader[pc] < 0 && ptx::sizeOf(in.type) * in.vec >= 8) ++f.wideAsWritten;
    }
    return f;
}
} // namespace

TEST_CASE("shared loads merged as ptxas merges them: every recorded kernel's SASS", "[trace]") {
    // Static counts cannot be compared one for one: ptxas unrolls loops (h_matmul_tiled has 28
    // LDS.128 where its PTX has 4 groups) and duplicates loads. What must hold: wherever the SASS
    // has wide loads the PTX does not already have, the analysis finds merged groups; where it
    // finds groups the SASS does not have, ptxas could not prove the base 8- or 16-byte aligned
    // (a stencil's &s[tid + k]) and the run-time check (mergedAccessAligned) keeps them apart,
    // because neighbouring lanes' addresses are 4 bytes apart: see the next test case.
    const auto sass = sassCounts();
    REQUIRE(sass.size() >= 100);
    std::map<std::string, ptx::Module> modules;
    int kernels = 0, merged = 0;
    std::vector<std::string> missed, unprovable;
    for (const auto& [key, hw] : sass) {
        const auto& [file, kernel] = key;
        auto it = modules.find(file);
        if (it == modules.end()) it = modules.emplace(file, ptx::parse(wst::readFile(wst::sourcePath(file)), file)).first;
        const Found f = analyse(it->second, kernel);
        ++kernels;
        const bool sassMerged = hw.lds64 + hw.lds128 > f.wideAsWritten;
        if (sassMerged) ++merged;
        if (sassMerged && f.groups == 0) missed.push_back(kernel);
        if (!sassMerged && f.groups > 0) unprovable.push_back(kernel);
    }
    // merge_tiled's one LDS.64 pairs loads ptxas relates through arithmetic the analysis does not
    // follow (two base registers): one LDS fewer per merge step at SASS level; not counted.
    CHECK(missed == std::vector<std::string>{"merge_tiled"});
    CHECK(unprovable == std::vector<std::string>{"conv2d_tiled", "stencil", "stencil_no_sync", "stencil_shared", "stencil1d_shared"});
    CHECK(merged == 16);
    WARN("shared-load merging: " << kernels << " kernels, " << merged << " with merged wide loads in their SASS");
}

TEST_CASE("shared loads merged: groups ptxas cannot prove aligned stay apart at run time", "[trace]") {
    // The kernels whose PTX has a candidate group that the SASS does not merge: at run time the
    // lanes' addresses are not all aligned, so the SASS-level count is the PTX's.
    for (const char* lesson : {"lessons/stencil-1d", "lessons/convolution-2d", "lessons/stencil-3d"}) {
        INFO(lesson);
        runtime::Lesson spec = runtime::loadLesson(wst::sourcePath(lesson));
        runtime::SimDevice dev;
        std::vector<std::unique_ptr<trace::CounterCollector>> collectors;
        dev.onLaunch = [&](sim::Gpu& g) {
            collectors.push_back(std::make_unique<trace::CounterCollector>());
            collectors.back()->setProgram(g.program());
            g.setListener(collectors.back().get());
        };
        runtime::runLesson(spec, runtime::resolveParams(spec, {}), dev);
        REQUIRE(!collectors.empty());
        double loads = 0;
        for (auto& c : collectors) {
            auto m = c->metrics();
            CHECK(m.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == m.at("ptx__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
            CHECK(m.at("smsp__sass_inst_executed_op_shared_ld.sum") == m.at("smsp__inst_executed_op_shared_ld.sum"));
            loads += m.at("smsp__inst_executed_op_shared_ld.sum");
        }
        CHECK(loads > 0);
    }
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
