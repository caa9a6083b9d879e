// Replays every input the fuzzers ever kept (tests/fuzz/regressions/<target>/) and the seed
// corpora through the same target functions libFuzzer drives, on every test run.
#include "support.hpp"
#include "targets.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

namespace fs = std::filesystem;

TEST_CASE("fuzz regressions and seeds replay without crashing", "[fuzz]") {
    int replayed = 0;
    for (const char* target : {"ptx", "lesson", "expr", "cuda"}) {
        for (const char* kind : {"regressions", "seeds"}) {
            fs::path dir = wst::sourcePath(std::string("tests/fuzz/") + kind + "/" + target);
            if (!fs::is_directory(dir)) continue;
            for (auto& e : fs::directory_iterator(dir)) {
                std::string bytes = wst::readFile(e.path().string());
                INFO(e.path().string());
                const auto* d = reinterpret_cast<const uint8_t*>(bytes.data());
                if (std::string(target) == "ptx") wsfuzz::ptx(d, bytes.size());
                else if (std::string(target) == "lesson") wsfuzz::lesson(d, bytes.size());
                else if (std::string(target) == "cuda") wsfuzz::cuda(d, bytes.size());
                else wsfuzz::expr(d, bytes.size());
                ++replayed;
            }
        }
    }
    CHECK(replayed >= 3);
}
