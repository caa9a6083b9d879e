// warpscope ptx: parse a PTX file and list its kernels, registers, shared memory, instructions.
#include "cli.hpp"
#include "base/files.hpp"
#include "ptx/parser.hpp"
#include "runtime/sim_device.hpp"
#include "sim/program.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace warpscope;
using nlohmann::json;

int cmdPtx(int argc, char** argv) {
    std::string file;
    bool asJson = false;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--json") asJson = true;
        else if (file.empty()) file = a;
        else throw Error(Error::Kind::Input, "ptx takes one file.");
    }
    if (file.empty()) throw Error(Error::Kind::Input, "ptx needs a .ptx file.");
    const std::string text = base::readFileOrThrow(file);
    runtime::SimDevice dev;
    dev.loadModule(text, fs::path(file).filename().string());
    const ptx::Module& m = dev.module();
    json out;
    out["file"] = file;
    out["version"] = m.version;
    out["target"] = m.target;
    for (auto* k : m.kernels()) {
        const sim::Program& p = dev.program(k->name);
        json jk;
        jk["name"] = k->name;
        jk["registers"] = p.functions[0].numRegs;
        jk["predicates"] = p.functions[0].numPreds;
        jk["static_shared_bytes"] = p.staticSharedBytes;
        jk["local_bytes"] = p.functions[0].localBytes;
        for (auto& prm : p.params) jk["params"].push_back({{"name", prm.name}, {"type", std::string(ptx::typeName(prm.type))}, {"size", prm.size}});
        for (size_t i = 1; i < p.functions.size(); ++i) jk["calls"].push_back(p.functions[i].name);
        for (size_t pc = 0; pc < p.code.size(); ++pc) {
            const auto& in = p.code[pc];
            json ji = {{"pc", pc}, {"ptx_line", in.ptxLine}, {"line", in.line}, {"text", in.text},
                       {"function", p.functions[in.func].name}, {"class", std::string(sim::execClassName(sim::opInfo(in.op).cls))}};
            if (in.op == sim::Op::Bra) ji["reconverge"] = in.reconv;
            jk["instructions"].push_back(ji);
        }
        out["kernels"].push_back(jk);
    }
    if (asJson) {
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::cout << file << ": PTX " << m.version << ", target " << m.target << ", " << m.kernels().size() << " kernel(s)\n";
    for (auto& jk : out["kernels"]) {
        std::cout << "\nkernel " << jk["name"].get<std::string>() << ": " << jk["registers"] << " registers, " << jk["predicates"]
                  << " predicates, " << jk["static_shared_bytes"] << " bytes static shared, " << jk["local_bytes"] << " bytes local\n";
        if (jk.contains("params"))
            for (auto& p : jk["params"]) std::cout << "  param " << p["name"].get<std::string>() << " ." << p["type"].get<std::string>() << " (" << p["size"] << " bytes)\n";
        if (jk.contains("calls"))
            for (auto& c : jk["calls"]) std::cout << "  calls " << c.get<std::string>() << "\n";
        std::string fn;
        for (auto& in : jk["instructions"]) {
            if (in["function"].get<std::string>() != fn) {
                fn = in["function"].get<std::string>();
                std::cout << "  " << fn << ":\n";
            }
            std::printf("  %5d  ptx:%-5d line:%-4d %-7s %s", in["pc"].get<int>(), in["ptx_line"].get<int>(), in["line"].get<int>(),
                        in["class"].get<std::string>().c_str(), in["text"].get<std::string>().c_str());
            if (in.contains("reconverge")) {
                int r = in["reconverge"].get<int>();
                if (r >= 0) std::printf("   (reconverges at %d)", r);
                else std::printf("   (reconverges at exit)");
            }
            std::printf("\n");
        }
    }
    return 0;
}
