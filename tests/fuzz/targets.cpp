#include "targets.hpp"

#include "ptx/parser.hpp"
#include "base/error.hpp"
#include "runtime/expr.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"

#include <string>

namespace wsfuzz {
using namespace warpscope;

namespace {
sim::LaunchOptions tiny() {
    sim::LaunchOptions o;
    o.instructionBudget = 20000;
    o.maxResidentBlocks = 4;
    o.maxLocalBytesPerThread = 64 * 1024;
    return o;
}
} // namespace

void ptx(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        runtime::SimDevice dev(tiny());
        dev.loadModule(text, "fuzz.ptx");
        for (auto* k : dev.module().kernels()) {
            try {
                const sim::Program& p = dev.program(k->name);
                std::vector<runtime::ParamBytes> params;
                for (auto& kp : p.params) params.emplace_back(size_t(kp.size), 0);
                runtime::LaunchConfig cfg;
                cfg.grid.x = 2;
                cfg.block.x = 64;
                dev.launch(k->name, cfg, params);
            } catch (const Error&) {
            }
        }
    } catch (const Error&) {
    }
}

void lesson(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        // The PTX path is fixed to a real kernel, so the fuzzer exercises the format, not the disk.
        runtime::Lesson l = runtime::loadLessonText(text, WARPSCOPE_SOURCE_DIR "/lessons/vector-add", "fuzz.json", false);
        l.ptxPath = WARPSCOPE_SOURCE_DIR "/lessons/vector-add/kernel.ptx";
        static const std::string ptxText = [] {
            runtime::Lesson v = runtime::loadLesson(WARPSCOPE_SOURCE_DIR "/lessons/vector-add");
            return v.ptxText;
        }();
        l.ptxText = ptxText;
        runtime::ParamValues p = runtime::resolveParams(l, {});
        // Keep buffers small so one input cannot ask for gigabytes.
        for (auto& [k, v] : p)
            if (v > 4096) v = 4096;
        runtime::SimDevice dev(tiny());
        runtime::runLesson(l, p, dev);
    } catch (const Error&) {
    }
}

void expr(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        runtime::evaluate(text, [](std::string_view n) -> std::optional<runtime::Value> {
            if (n == "N") return runtime::Value::ofInt(1000);
            if (n == "X") return runtime::Value::ofFloat(0.5);
            return std::nullopt;
        }, "fuzz");
    } catch (const Error&) {
    }
}

} // namespace wsfuzz
