#include "targets.hpp"

#include "compile/compile.hpp"
#include "ptx/parser.hpp"
#include "base/error.hpp"
#include "runtime/expr.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
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

// The sandbox a student's kernel gets in the CUDA target: small, so one input stays fast.
sim::LaunchOptions sandboxed() {
    sim::LaunchOptions o = tiny();
    o.instructionBudget = 200000;
    o.deviceMemoryBytes = 64ull << 20;
    o.maxBlocks = 4096;
    return o;
}

std::string lessonIdOf(const std::string& src) {
    const std::string tag = "// lesson: ";
    if (src.rfind(tag, 0) != 0) return "vector-add";
    std::string id = src.substr(tag.size(), src.find('\n') == std::string::npos ? std::string::npos : src.find('\n') - tag.size());
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return "vector-add";
    if (id.empty() || !std::filesystem::exists(std::filesystem::path(WARPSCOPE_SOURCE_DIR "/lessons") / id / "lesson.json")) return "vector-add";
    return id;
}

// Lessons are loaded once (their committed PTX is replaced by the fuzzed build).
runtime::Lesson lessonFor(const std::string& id) {
    static std::mutex m;
    static std::map<std::string, runtime::Lesson> cache;
    std::lock_guard lk(m);
    auto it = cache.find(id);
    if (it == cache.end()) it = cache.emplace(id, runtime::loadLesson(std::string(WARPSCOPE_SOURCE_DIR "/lessons/") + id)).first;
    return it->second;
}
} // namespace

void cuda(const uint8_t* data, size_t size) { cudaOutcome(data, size); }

CudaOutcome cudaOutcome(const uint8_t* data, size_t size) {
    std::string src(reinterpret_cast<const char*>(data), size);
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    o.timeoutSeconds = 20;
    compile::Result r = compile::compile(src, "kernel.cu", o);
    if (!r.ok) {
        if (r.diagnostics.empty() && r.error.empty())
            throw std::logic_error("the clang path failed without a diagnostic or an error message");
        return CudaOutcome::CompileError;   // reported as file:line:col (or the time limit): the clear error
    }
    try {
        runtime::Lesson l = lessonFor(lessonIdOf(src));
        l.ptxText = r.ptx;
        runtime::SimDevice dev(sandboxed());
        runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
    } catch (const Error&) {
        return CudaOutcome::EngineError;
    }
    return CudaOutcome::Ran;
}

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
