// warpscope gpus: the GPU presets for --timed (built-in and JSON files).
#include "cli.hpp"
#include "timing/gpu_spec.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>

using namespace warpscope;
using nlohmann::json;

int cmdGpus(int argc, char** argv) {
    bool asJson = argc > 0 && std::strcmp(argv[0], "--json") == 0;
    std::vector<std::string> errors;
    auto presets = timing::allPresets(timing::presetFolders(), &errors);
    if (asJson) {
        json out = json::array();
        for (auto& p : presets) out.push_back(json::parse(timing::presetToJson(p)));
        std::cout << out.dump(2) << "\n";
    } else {
        std::printf("%-10s %5s %6s %5s %6s %6s %8s %8s %7s %9s  %s\n", "preset", "SMs", "MHz", "sched", "warps", "blocks", "regs", "shared", "L2 MiB",
                    "DRAM GB/s", "description");
        for (auto& p : presets)
            std::printf("%-10s %5u %6.0f %5u %6u %6u %8u %7uK %7.1f %9.0f  %s\n", p.name.c_str(), p.smCount, p.clockMHz, p.schedulersPerSM,
                        p.maxWarpsPerSM, p.maxBlocksPerSM, p.registersPerSM, p.sharedPerSM / 1024, double(p.l2Bytes) / (1 << 20), p.dramGBs,
                        p.description.c_str());
        const fs::path shipped = timing::shippedPresetFolder();
        std::cout << "(per SM; bundled presets from " << (shipped.empty() ? std::string("nowhere: not found") : shipped.string())
                  << "; add your own as JSON files in ./gpus, ~/.config/warpscope/gpus or $WARPSCOPE_GPUS: docs/gpu-presets.md)\n";
    }
    for (auto& e : errors) std::cerr << "warning: preset skipped: " << e << "\n";
    return 0;
}
