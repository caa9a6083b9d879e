// Helpers shared by the tests: paths into the source tree and a small simulator harness.
#pragma once
#include "runtime/sim_device.hpp"

#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace wst {

std::string sourcePath(const std::string& rel);   // WARPSCOPE_SOURCE_DIR/rel
std::string readFile(const std::string& path);
// Every lesson's lesson.json, every planted bug (tests/bugs/*.json) and every golden spec
// (tests/golden/*/spec.json), sorted.
std::vector<std::string> everySpec();

// A lesson or planted bug (`spec`) run to the end on `threads` threads with a 20 M instruction
// budget, initcheck on or off; `onLaunch`, if set, sees each launch's Gpu first. What global
// memory holds afterwards, the last launch's statistics and the error message ("" when none).
struct LessonOutcome {
    std::vector<std::vector<uint8_t>> memory;
    std::vector<uint64_t> stats;   // warp- and thread-instructions, branches, divergent, barriers, blocks
    std::string error;
    std::vector<std::string> reports;   // "tool|hazard|message" of each checker report, in order
};
LessonOutcome runLessonSpec(const std::string& spec, bool initcheck,
                            std::function<void(warpscope::sim::Gpu&)> onLaunch = {}, uint32_t threads = 1);

template <class T>
warpscope::runtime::ParamBytes arg(T v) {
    warpscope::runtime::ParamBytes b(sizeof v);
    std::memcpy(b.data(), &v, sizeof v);
    return b;
}

// A simulator with one PTX file loaded (path relative to the source tree).
struct Sim {
    explicit Sim(const std::string& ptxRel, warpscope::sim::LaunchOptions opt = {});
    warpscope::runtime::SimDevice dev;

    template <class T>
    warpscope::runtime::DevPtr upload(const std::vector<T>& v, const std::string& name = "buf") {
        auto p = dev.malloc(std::max<size_t>(1, v.size() * sizeof(T)), name);
        dev.memcpyHtoD(p, v.data(), v.size() * sizeof(T));
        return p;
    }
    template <class T>
    std::vector<T> download(warpscope::runtime::DevPtr p, size_t n) {
        std::vector<T> v(n);
        dev.memcpyDtoH(v.data(), p, n * sizeof(T));
        return v;
    }
    warpscope::runtime::LaunchResult launch(const std::string& kernel, uint32_t grid, uint32_t block,
                                            std::vector<warpscope::runtime::ParamBytes> params, uint32_t shared = 0);
};

} // namespace wst
