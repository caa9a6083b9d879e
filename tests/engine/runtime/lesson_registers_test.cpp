// lesson.json "registers": registers per thread for the occupancy calculator and the cycle model,
// one number for every kernel or one per kernel; bad values name their JSON path.
#include "base/error.hpp"
#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace warpscope;

namespace {
runtime::Lesson parse(const std::string& registers) {
    std::string text = R"({"id": "r", "ptx": "k.ptx", "host": [{"launch": "k1", "grid": 1, "block": 32},
                                                               {"launch": "k2", "grid": 1, "block": 32}])";
    if (!registers.empty()) text += R"(, "registers": )" + registers;
    text += "}";
    return runtime::loadLessonText(text, ".", "r.json", false);
}
std::string errorOf(const std::string& registers) {
    try {
        parse(registers);
    } catch (const Error& e) {
        CHECK(e.kind() == Error::Kind::Input);
        return e.what();
    }
    return "(no error)";
}
} // namespace

TEST_CASE("lesson registers: absent, one number, or per kernel", "[runtime]") {
    auto none = parse("");
    CHECK(!none.registers);
    CHECK(none.registersByKernel.empty());
    CHECK(!none.registersFor("k1"));

    auto one = parse("40");
    REQUIRE(one.registers);
    CHECK(*one.registers == 40);
    CHECK(one.registersFor("k1") == 40u);
    CHECK(one.registersFor("k2") == 40u);

    auto per = parse(R"({"k1": 30, "k2": 64})");
    CHECK(!per.registers);
    CHECK(per.registersFor("k1") == 30u);
    CHECK(per.registersFor("k2") == 64u);
    CHECK(!per.registersFor("other"));
}

TEST_CASE("lesson registers: bad values are input errors with their JSON path", "[runtime]") {
    using Catch::Matchers::Contains;
    CHECK_THAT(errorOf("0"), Contains("r.json: registers:") && Contains("1 to 255"));
    CHECK_THAT(errorOf("256"), Contains("r.json: registers:"));
    CHECK_THAT(errorOf("32.5"), Contains("r.json: registers:"));
    CHECK_THAT(errorOf("\"32\""), Contains("r.json: registers:"));
    CHECK_THAT(errorOf("true"), Contains("r.json: registers:"));
    CHECK_THAT(errorOf(R"({"k1": -3})"), Contains("r.json: registers.k1:"));
    CHECK_THAT(errorOf(R"({"nope": 32})"), Contains("registers.nope") && Contains("no kernel named 'nope'"));
}

TEST_CASE("lesson registers: per-kernel entries for kernels launched inside for and capture bodies", "[runtime]") {
    // radix-sort's and bfs's host scripts launch their kernels only inside "for" loops.
    const std::string text = R"({"id": "r", "ptx": "k.ptx",
        "host": [{"for": "pass", "to": 4, "do": [{"launch": "k1", "grid": 1, "block": 32},
                                                {"for": "i", "to": 2, "do": [{"launch": "k2", "grid": 1, "block": 32}]}]},
                 {"capture": "g", "stream": 1, "do": [{"launch": "k3", "grid": 1, "block": 32}]}],
        "registers": {"k1": 30, "k2": 64, "k3": 40}})";
    auto L = runtime::loadLessonText(text, ".", "r.json", false);
    CHECK(L.registersFor("k1") == 30u);
    CHECK(L.registersFor("k2") == 64u);
    CHECK(L.registersFor("k3") == 40u);

    std::string bad = text;
    bad.replace(bad.find("\"k3\": 40"), 8, "\"k4\": 40");
    try {
        runtime::loadLessonText(bad, ".", "r.json", false);
        FAIL("a kernel no loop launches must be refused");
    } catch (const Error& e) {
        CHECK_THAT(std::string(e.what()), Catch::Matchers::Contains("no kernel named 'k4'"));
    }
}
