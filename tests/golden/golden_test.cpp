// The simulator against a real GPU: every spec under tests/golden runs on the simulator and each
// buffer must match the bytes recorded on hardware (scripts/record-golden.sh), bit for bit for
// exact arithmetic and within the spec's stated tolerance for approximate instructions.
#include "support.hpp"

#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace warpscope;
namespace fs = std::filesystem;

TEST_CASE("simulator matches the recorded H100 results", "[golden]") {
    int specs = 0, buffers = 0;
    for (auto& e : fs::directory_iterator(wst::sourcePath("tests/golden"))) {
        if (!fs::exists(e.path() / "spec.json")) continue;
        const std::string name = e.path().filename().string();
        INFO("golden spec " << name);
        runtime::Lesson l = runtime::loadLesson(e.path() / "spec.json");
        REQUIRE(l.golden.has_value());
        REQUIRE(fs::is_directory(e.path() / "hw"));
        runtime::SimDevice dev;
        runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
        for (auto& c : r.checks) {
            INFO("check " << c.buffer << ": " << c.detail);
            CHECK(c.passed);
        }
        ++specs;
        for (auto& b : l.buffers) {
            fs::path hw = e.path() / "hw" / (b.name + ".bin");
            REQUIRE(fs::exists(hw));
            runtime::HostBuffer expect, got;
            expect.type = got.type = b.type;
            got.bytes = r.buffers.at(b.name);
            std::string bytes = wst::readFile(hw.string());
            expect.bytes.assign(bytes.begin(), bytes.end());
            REQUIRE(expect.bytes.size() == got.bytes.size());
            runtime::Comparison cmp = runtime::compareBuffers(got, expect, got.count(), *l.golden);
            INFO("buffer " << b.name << ": " << cmp.mismatches << " of " << cmp.compared << " elements differ; first at "
                           << cmp.firstIndex << " (simulator " << cmp.firstGot << ", hardware " << cmp.firstExpected << ")");
            CHECK(cmp.mismatches == 0);
            ++buffers;
        }
    }
    CHECK(specs >= 15);
    WARN("golden: " << specs << " kernels, " << buffers << " buffers compared with hardware");
}
