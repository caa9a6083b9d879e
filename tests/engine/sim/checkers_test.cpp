// The planted-bug set (tests/bugs): every planted bug is reported by the checker its spec names,
// and the correct kernels that look suspicious produce no report at all.
#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace warpscope;
namespace fs = std::filesystem;

TEST_CASE("checkers catch every planted bug and nothing in the correct kernels", "[sim]") {
    int planted = 0, correct = 0;
    for (auto& e : fs::directory_iterator(wst::sourcePath("tests/bugs"))) {
        if (e.path().extension() != ".json") continue;
        auto j = nlohmann::json::parse(wst::readFile(e.path().string()));
        const std::string tool = j["planted"]["tool"], hazard = j["planted"]["hazard"];
        INFO("case " << e.path().filename().string() << ": expects " << tool << " " << hazard);
        runtime::Lesson l = runtime::loadLesson(e.path());
        sim::LaunchOptions opt;
        opt.initcheck = opt.racecheck = true;
        opt.instructionBudget = 1'000'000;
        runtime::SimDevice dev(opt);
        std::optional<Error> err;
        try {
            runtime::runLesson(l, {}, dev);
        } catch (const Error& x) {
            err = x;
        }
        // (INFO in this scope: inside an if or a loop it would be gone before the checks.)
        std::string seen = err ? std::string("error: ") + err->what() : std::string("no error");
        for (auto& r : dev.reports()) seen += "\nreport: " + r.tool + " " + r.hazard + ": " + r.message;
        INFO(seen);
        if (tool == "none") {
            ++correct;
            CHECK_FALSE(err.has_value());
            CHECK(dev.reports().empty());
            continue;
        }
        ++planted;
        if (j["planted"].contains("error")) {
            // The launch must stop with this kind of error (a fault, a deadlock, the budget).
            const std::string kind = j["planted"]["error"];
            REQUIRE(err.has_value());
            CHECK(Error::kindName(err->kind()) == kind);
            CHECK(err->site().sourceLine.has_value());
            CHECK(err->site().lane.has_value());
        } else if (tool == "memcheck") {
            REQUIRE(err.has_value());
            CHECK(err->kind() == Error::Kind::Fault);
            CHECK(err->site().sourceLine.has_value());
        } else {
            CHECK_FALSE(err.has_value());
            bool found = false;
            for (auto& r : dev.reports()) found = found || (r.tool == tool && r.hazard == hazard);
            CHECK(found);
            for (auto& r : dev.reports()) {
                CHECK(r.site.sourceLine.has_value());
                CHECK(r.site.lane.has_value());
            }
        }
    }
    CHECK(planted >= 14);
    CHECK(correct >= 7);
    // The planted bugs in faults.cu (runaway loop, deadlock, misaligned, shared out of bounds,
    // trap, out-of-bounds store) are covered by faults_test.cpp: together more than 12 kinds.
}

TEST_CASE("checkers are off unless asked for", "[sim]") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("tests/bugs/missing-syncthreads.json"));
    runtime::SimDevice dev;
    runtime::runLesson(l, {}, dev);
    CHECK(dev.reports().empty());
}
