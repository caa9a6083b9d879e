#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace wst {

std::string sourcePath(const std::string& rel) { return std::string(WARPSCOPE_SOURCE_DIR) + "/" + rel; }

std::string readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<std::string> everySpec() {
    namespace fs = std::filesystem;
    std::vector<std::string> specs;
    for (auto& e : fs::directory_iterator(sourcePath("lessons")))
        if (fs::exists(e.path() / "lesson.json")) specs.push_back((e.path() / "lesson.json").string());
    for (auto& b : fs::directory_iterator(sourcePath("tests/bugs")))
        if (b.path().extension() == ".json") specs.push_back(b.path().string());
    for (auto& g : fs::directory_iterator(sourcePath("tests/golden")))
        if (fs::exists(g.path() / "spec.json")) specs.push_back((g.path() / "spec.json").string());
    std::sort(specs.begin(), specs.end());
    return specs;
}

LessonOutcome runLessonSpec(const std::string& spec, bool initcheck, std::function<void(warpscope::sim::Gpu&)> onLaunch, uint32_t threads) {
    using namespace warpscope;
    runtime::Lesson l = runtime::loadLesson(spec);
    sim::LaunchOptions opt;
    opt.threads = threads;
    opt.instructionBudget = 20'000'000;
    opt.initcheck = initcheck;
    runtime::SimDevice dev(opt);
    if (onLaunch) dev.onLaunch = std::move(onLaunch);
    LessonOutcome out;
    try {
        runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
    } catch (const Error& e) {
        out.error = e.what();
    }
    for (auto& a : dev.memory().allocations())
        if (!a->freed) out.memory.emplace_back(a->data.get(), a->data.get() + a->size);
    for (auto& r : dev.reports()) out.reports.push_back(r.tool + "|" + r.hazard + "|" + r.message);
    const auto& s = dev.lastStats();
    out.stats = {s.warpInstructions, s.threadInstructions, s.branches, s.divergentBranches, s.barriers, s.blocksCompleted};
    return out;
}

Sim::Sim(const std::string& ptxRel, warpscope::sim::LaunchOptions opt) : dev(opt) {
    dev.loadModule(readFile(sourcePath(ptxRel)), ptxRel);
}

warpscope::runtime::LaunchResult Sim::launch(const std::string& kernel, uint32_t grid, uint32_t block,
                                             std::vector<warpscope::runtime::ParamBytes> params, uint32_t shared) {
    warpscope::runtime::LaunchConfig cfg;
    cfg.grid.x = grid;
    cfg.block.x = block;
    cfg.dynamicSharedBytes = shared;
    return dev.launch(kernel, cfg, params);
}

} // namespace wst
