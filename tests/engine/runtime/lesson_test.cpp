// Lesson and spec files: every bundled lesson loads and passes; mistakes in a lesson file are
// reported with the JSON path of the mistake.
#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

using namespace warpscope;
namespace fs = std::filesystem;

TEST_CASE("every bundled lesson runs on the simulator and passes its checks", "[runtime]") {
    std::vector<std::string> errors;
    auto lessons = runtime::listLessons(wst::sourcePath("lessons"), &errors);
    CHECK(errors.empty());
    REQUIRE(lessons.size() >= 2);
    CHECK(lessons.front().id == "vector-add");
    for (auto& l : lessons) {
        INFO("lesson " << l.id);
        runtime::SimDevice dev;
        runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
        CHECK(!r.checks.empty());
        for (auto& c : r.checks) {
            INFO(c.buffer << ": " << c.detail);
            CHECK(c.passed);
        }
    }
}

TEST_CASE("vector add: the last partial warp runs with 8 lanes", "[runtime]") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/vector-add"));
    runtime::SimDevice dev;
    auto r = runtime::runLesson(l, runtime::resolveParams(l, {{"N", "1000"}}), dev);
    REQUIRE(r.launches.size() == 1);
    CHECK(r.launches[0].grid.x == 4);
    CHECK(r.launches[0].divergentBranches == 1);   // only the warp holding elements 992..1023 splits
    CHECK(r.allChecksPassed());
    auto r2 = runtime::runLesson(l, runtime::resolveParams(l, {{"N", "1024"}}), dev);
    CHECK(r2.launches[0].divergentBranches == 0);
}

namespace {
struct TempLesson {
    fs::path dir;
    explicit TempLesson(const std::string& json) {
        dir = fs::temp_directory_path() / ("warpscope-test-" + std::to_string(std::hash<std::string>{}(json)));
        fs::create_directories(dir);
        std::ofstream(dir / "lesson.json") << json;
        fs::copy_file(wst::sourcePath("lessons/vector-add/kernel.ptx"), dir / "kernel.ptx", fs::copy_options::overwrite_existing);
    }
    ~TempLesson() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string error(const std::map<std::string, std::string>& params = {}) const {
        try {
            runtime::Lesson l = runtime::loadLesson(dir);
            runtime::SimDevice dev;
            runtime::runLesson(l, runtime::resolveParams(l, params), dev);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    }
};

const char* kGood = R"JSON({
  "ptx": "kernel.ptx",
  "params": { "N": { "default": 100, "min": 1, "max": 1000 } },
  "buffers": { "a": { "type": "f32", "count": "N" }, "b": { "type": "f32", "count": "N", "init": "iota" },
               "c": { "type": "f32", "count": "N" } },
  "host": [ { "launch": "vadd", "grid": "ceil_div(N, 32)", "block": 32, "args": ["a", "b", "c", "N"] } ],
  "checks": [ { "buffer": "c", "equals": "b" } ]
})JSON";

std::string with(std::string base, const std::string& from, const std::string& to) {
    auto p = base.find(from);
    REQUIRE(p != std::string::npos);
    return base.replace(p, from.size(), to);
}
} // namespace

TEST_CASE("a good spec runs; each kind of mistake gets a precise message", "[runtime]") {
    CHECK(TempLesson(kGood).error() == "");
    CHECK(TempLesson("{ not json").error().find("not valid JSON") != std::string::npos);
    CHECK(TempLesson(with(kGood, "\"type\": \"f32\", \"count\": \"N\" }, \"b\"", "\"type\": \"float\", \"count\": \"N\" }, \"b\""))
              .error().find("buffers.a.type: unknown type 'float'") != std::string::npos);
    CHECK(TempLesson(with(kGood, "\"ceil_div(N, 32)\"", "\"ceil_div(NN, 32)\"")).error().find("host[0].grid: unknown name 'NN'") != std::string::npos);
    CHECK(TempLesson(with(kGood, "\"launch\": \"vadd\"", "\"launch\": \"vad\"")).error().find("no kernel named 'vad'") != std::string::npos);
    CHECK(TempLesson(with(kGood, "[\"a\", \"b\", \"c\", \"N\"]", "[\"a\", \"b\", \"c\"]")).error().find("takes 4 arguments, 3 given") != std::string::npos);
    CHECK(TempLesson(with(kGood, "[\"a\", \"b\", \"c\", \"N\"]", "[\"a\", \"bb\", \"c\", \"N\"]")).error().find("args[1]: no buffer or parameter named 'bb'") != std::string::npos);
    CHECK(TempLesson(with(kGood, "\"equals\": \"b\"", "\"equals\": \"b\", \"reference\": \"copy\"")).error().find("exactly one of") != std::string::npos);
    CHECK(TempLesson(with(kGood, "\"host\"", "\"hots\"")).error().find("unknown key 'hots'") != std::string::npos);
    CHECK(TempLesson(with(kGood, "\"ptx\": \"kernel.ptx\"", "\"ptx\": \"missing.ptx\"")).error().find("Cannot read PTX file") != std::string::npos);
    CHECK(TempLesson(kGood).error({{"N", "5000"}}).find("above its maximum") != std::string::npos);
    CHECK(TempLesson(kGood).error({{"M", "5"}}).find("Unknown parameter 'M'") != std::string::npos);
    CHECK(TempLesson(kGood).error({{"N", "abc"}}).find("not a number") != std::string::npos);
    CHECK(TempLesson(with(kGood, "\"block\": 32", "\"block\": 2048")).error().find("at most 1024 threads") != std::string::npos);
    // The lesson list's order: a whole number of a sensible size (the fuzzer found an order too
    // large for an int, which parses as a double).
    CHECK(TempLesson(with(kGood, "\"ptx\"", "\"order\": 12, \"ptx\"")).error() == "");
    CHECK(TempLesson(with(kGood, "\"ptx\"", "\"order\": -3, \"ptx\"")).error() == "");
    for (const char* order : {"111111111111111111111111111111", "18446744073709551615", "1e9", "2.5", "\"3\"", "-9999999"})
        CHECK(TempLesson(with(kGood, "\"ptx\"", std::string("\"order\": ") + order + ", \"ptx\"")).error().find("order: is a whole number") !=
              std::string::npos);
}

TEST_CASE("mistakes in the host script's form are reported when the lesson loads, not when it runs", "[runtime]") {
    auto loadError = [](const std::string& text) -> std::string {
        try {
            runtime::loadLessonText(text, ".", "l.json", false);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    auto spec = [](const std::string& host) {
        return "{\"id\": \"t\", \"title\": \"t\", \"ptx\": \"k.ptx\", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4}}, \"host\": " +
               host + "}";
    };
    CHECK(loadError(spec("[{\"launch\": \"k\", \"grid\": 1, \"block\": 32}]")) == "");
    // A typo deep inside a loop that runs only for some parameters: found at load.
    CHECK(loadError(spec("[{\"for\": \"i\", \"to\": \"0\", \"do\": [{\"lanch\": \"k\"}]}]"))
              .find("l.json: host[0].do[0]: unknown operation") != std::string::npos);
    CHECK(loadError(spec("[{\"to_host\": \"a\", \"strem\": 1}]")).find("host[0]: unknown key 'strem'") != std::string::npos);
    CHECK(loadError(spec("[{\"launch\": \"k\", \"block\": 32}]")).find("host[0]: needs \"grid\"") != std::string::npos);
    CHECK(loadError(spec("[{\"launch\": 3, \"grid\": 1, \"block\": 32}]")).find("host[0].launch: names a kernel (a string)") !=
          std::string::npos);
    CHECK(loadError(spec("[{\"capture\": \"g\", \"stream\": 1, \"do\": {}}]")).find("host[0].do: must be an array") != std::string::npos);
    CHECK(loadError(spec("[7]")).find("host[0]: an operation is an object") != std::string::npos);
}

TEST_CASE("buffer initialisers are deterministic and typed", "[runtime]") {
    TempLesson t(R"JSON({
      "ptx": "kernel.ptx",
      "buffers": {
        "r": { "type": "s32", "count": 1000, "init": { "random": { "seed": 3, "min": -5, "max": 5 } } },
        "h": { "type": "u32", "count": 8, "init": { "hash": { "seed": 9 } } },
        "k": { "type": "f64", "count": 4, "init": { "constant": 2.5 } },
        "i": { "type": "u8", "count": 300, "init": { "iota": { "start": 250, "step": 1 } } }
      },
      "checks": [ { "buffer": "k", "expect": [2.5, 2.5, 2.5, 2.5] } ]
    })JSON");
    runtime::Lesson l = runtime::loadLesson(t.dir);
    runtime::SimDevice d1, d2;
    auto a = runtime::runLesson(l, {}, d1);
    auto b = runtime::runLesson(l, {}, d2);
    CHECK(a.buffers == b.buffers);
    CHECK(a.allChecksPassed());
    const auto& r = a.buffers["r"];
    bool sawMin = false, sawMax = false;
    for (size_t i = 0; i < 1000; ++i) {
        int32_t v;
        std::memcpy(&v, r.data() + i * 4, 4);
        CHECK(v >= -5);
        CHECK(v <= 5);
        sawMin = sawMin || v == -5;
        sawMax = sawMax || v == 5;
    }
    CHECK(sawMin);
    CHECK(sawMax);
    CHECK(a.buffers["i"][5] == 255);
    CHECK(a.buffers["i"][6] == 0);   // u8 iota wraps
}

TEST_CASE("a buffer's width gives its 2D shape under the lesson's parameters", "[runtime]") {
    runtime::Lesson bank = runtime::loadLesson(wst::sourcePath("lessons/bank-conflicts"));
    auto p = runtime::resolveParams(bank, {{"ROWS", "64"}, {"COLS", "128"}});
    CHECK(runtime::bufferWidth(bank, "in", p) == 128);    // in is ROWS x COLS
    CHECK(runtime::bufferWidth(bank, "out", p) == 64);    // its transpose is COLS x ROWS
    CHECK(runtime::bufferWidth(bank, "nothing", p) == 0);
    runtime::Lesson vadd = runtime::loadLesson(wst::sourcePath("lessons/vector-add"));
    CHECK(runtime::bufferWidth(vadd, "a", runtime::resolveParams(vadd, {})) == 0);   // 1D: no width
    // A mistake in "width" is reported with its JSON path when the lesson runs.
    CHECK(TempLesson(with(kGood, "\"type\": \"f32\", \"count\": \"N\" }, \"b\"", "\"type\": \"f32\", \"count\": \"N\", \"width\": \"NN\" }, \"b\""))
              .error().find("buffers.a.width: unknown name 'NN'") != std::string::npos);
    CHECK(TempLesson(with(kGood, "\"type\": \"f32\", \"count\": \"N\" }, \"b\"", "\"type\": \"f32\", \"count\": \"N\", \"width\": 0 }, \"b\""))
              .error().find("buffers.a.width: must be a positive integer") != std::string::npos);
}

TEST_CASE("a launch's family is carried with its result; a family is a name", "[runtime]") {
    TempLesson good(with(kGood, "\"launch\": \"vadd\"", "\"launch\": \"vadd\", \"family\": \"adds\""));
    runtime::Lesson l = runtime::loadLesson(good.dir);
    runtime::SimDevice dev;
    runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
    REQUIRE(r.launches.size() == 1);
    CHECK(r.launches[0].family == "adds");
    runtime::SimDevice dev2;
    TempLesson plainDir(kGood);
    runtime::Lesson plain = runtime::loadLesson(plainDir.dir);
    CHECK(runtime::runLesson(plain, runtime::resolveParams(plain, {}), dev2).launches[0].family.empty());
    CHECK(TempLesson(with(kGood, "\"launch\": \"vadd\"", "\"launch\": \"vadd\", \"family\": 3")).error().find("host[0].family: the family is a name") !=
          std::string::npos);
}

// The realistic-size timing suite: every launch names its family, and the families are the
// variants docs/timing-validation.md lists (a small size, so the whole host script runs here).
TEST_CASE("the realistic timing suite: 39 launches in 12 families, all checks pass", "[runtime]") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("tests/validation/realistic.json"));
    runtime::SimDevice dev;
    runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, {{"N", "65536"}, {"M", "256"}}), dev);
    REQUIRE(r.launches.size() == 39);
    std::map<std::string, int> families;
    for (auto& x : r.launches) ++families[x.family];
    CHECK(families.size() == 12);
    CHECK(families.count("") == 0);
    CHECK(families["transpose"] == 4);
    CHECK(families["atomics"] == 3);
    for (auto& c : r.checks) CHECK(c.passed);
}
