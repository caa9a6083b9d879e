// A bounded-time mutation fuzzer: real PTX files, randomly damaged, must be parsed, compiled and
// (briefly) run without crashing, hanging, or throwing anything but warpscope::Error.
// WARPSCOPE_FUZZ_SECONDS sets the time (default 20); WARPSCOPE_FUZZ_SEED the seed.
#include "support.hpp"
#include "fuzz/targets.hpp"


#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace warpscope;

namespace {

using wsfuzz::Rng;

std::string mutate(const std::string& in, Rng& r) {
    std::string s = in;
    static const char* tokens[] = {";", "{", "}", "[", "]", ",", "%r1", "@%p1", ".reg", ".u32", "bra", "0f3F800000",
                                   "-", "+", "(", ")", "$L__BB0_1", "\n", ".loc 1 2 3", "ret;", "bar.sync 0;", "9999999999"};
    int edits = 1 + int(r.below(8));
    for (int e = 0; e < edits && !s.empty(); ++e) {
        size_t pos = r.below(s.size());
        switch (r.below(5)) {
        case 0: s[pos] = char(r.below(96) + 32); break;                         // replace a byte
        case 1: s.erase(pos, 1 + r.below(16)); break;                            // delete a run
        case 2: s.insert(pos, tokens[r.below(sizeof tokens / sizeof *tokens)]); break;   // insert a token
        case 3: {                                                                 // duplicate a line
            size_t a = s.rfind('\n', pos), b = s.find('\n', pos);
            if (a != std::string::npos && b != std::string::npos) s.insert(b, s.substr(a, b - a));
            break;
        }
        case 4: s.resize(pos); break;                                            // truncate
        }
    }
    return s;
}

} // namespace

TEST_CASE("mutated PTX never crashes the front end or the simulator", "[fuzz]") {
    std::vector<std::string> corpus;
    for (const char* dir : {"lessons", "tests/kernels", "tests/golden"})
        for (auto& e : std::filesystem::recursive_directory_iterator(wst::sourcePath(dir)))
            if (e.path().extension() == ".ptx" && e.file_size() < 200000) corpus.push_back(wst::readFile(e.path().string()));
    REQUIRE(corpus.size() >= 10);
    double seconds = 20;
    if (const char* v = std::getenv("WARPSCOPE_FUZZ_SECONDS")) seconds = std::atof(v);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    if (const char* v = std::getenv("WARPSCOPE_FUZZ_SEED")) seed = std::strtoull(v, nullptr, 10);
    Rng rng{seed | 1};
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int runs = 0;
    while (std::chrono::steady_clock::now() < until) {
        std::string m = mutate(corpus[rng.below(corpus.size())], rng);
        ++runs;
        try {
            // The same parse / compile / run-briefly path the libFuzzer target drives.
            wsfuzz::ptx(reinterpret_cast<const uint8_t*>(m.data()), m.size());
        } catch (const std::exception& e) {
            std::ofstream("fuzz-crash.ptx") << m;
            FAIL("non-warpscope exception (input saved to fuzz-crash.ptx): " << e.what());
        }
    }
    CHECK(runs > 0);
    WARN("PTX fuzzer: " << runs << " mutants in " << seconds << " s");
}
