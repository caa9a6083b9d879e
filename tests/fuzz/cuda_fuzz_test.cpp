// A bounded mutation fuzzer over the lessons' CUDA sources through the clang compile path and the
// simulator: every mutant either fails to compile with a diagnostic (or a clear error), or runs
// the lesson's host program in a small sandbox and ends normally or with a warpscope::Error;
// never a crash, a hang, or another exception. Each compile takes ~0.5-1 s, so the suite runs a
// few dozen mutants: WARPSCOPE_CUDA_FUZZ_MUTANTS (default 24) within WARPSCOPE_FUZZ_SECONDS
// (default 40); WARPSCOPE_FUZZ_SEED picks the seed. scripts/fuzz.sh runs the libFuzzer target
// (tests/fuzz/main_cuda.cpp) for longer.
#include "support.hpp"
#include "fuzz/targets.hpp"

#include "compile/compile.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace warpscope;

namespace {
using wsfuzz::Rng;

// Mutations that mostly keep the source compiling (so the simulator sees odd kernels, not just
// the compiler odd text): other numbers, other operators, statements students get wrong (a
// barrier in divergent code, an endless loop, a partial shuffle mask, an index off the end), and
// a few that break the syntax.
std::string mutateCuda(const std::string& in, Rng& r) {
    static const char* numbers[] = {"0", "1", "-1", "31", "33", "1024", "1025", "0x0000ffff", "2147483647", "100000000", "-4096"};
    static const char* ops[][2] = {{"<", "<="}, {"+", "-"}, {"*", "/"}, {"==", "!="}, {"&&", "||"}, {"+=", "="}, {">>", "<<"}};
    static const char* statements[] = {
        "__syncthreads();",
        "if (threadIdx.x < 16) __syncthreads();",
        "while (threadIdx.x >= 0) {}",
        "{ int v = __shfl_down_sync(0x0000ffff, (int)threadIdx.x, 1); (void)v; }",
        "if (threadIdx.x == 5) return;",
        "{ __shared__ int s_fz[64]; s_fz[threadIdx.x] = 1; }",
        "{ int* p_fz = nullptr; *p_fz = 1; }",
        "{ volatile int z_fz = 0; int q_fz = 7 / z_fz; (void)q_fz; }",
        "__trap();",
        "for (;;) { __syncthreads(); }",
    };
    static const char* junk[] = {"}", "{", ";", "(", "/*", "\"", "#define x", "template", "__global__"};
    std::string s = in;
    int edits = 1 + int(r.below(3));
    for (int e = 0; e < edits && !s.empty(); ++e) {
        size_t pos = r.below(s.size());
        switch (r.below(6)) {
        case 0: {   // a number becomes another
            size_t d = s.find_first_of("0123456789", pos);
            if (d == std::string::npos) break;
            size_t end = s.find_first_not_of("0123456789xabcdefABCDEFuUlLf.", d);
            s.replace(d, (end == std::string::npos ? s.size() : end) - d, numbers[r.below(std::size(numbers))]);
            break;
        }
        case 1: {   // an operator becomes its neighbour
            auto& o = ops[r.below(std::size(ops))];
            bool fwd = r.below(2);
            const char* from = fwd ? o[0] : o[1];
            size_t at = s.find(from, pos);
            if (at != std::string::npos) s.replace(at, std::strlen(from), fwd ? o[1] : o[0]);
            break;
        }
        case 2:
        case 3: {   // a statement inside a function body: after the next ';' or '{' at a line end
            size_t at = s.find(";\n", pos);
            if (at == std::string::npos) at = s.find("{\n", pos);
            if (at != std::string::npos) s.insert(at + 1, std::string(" ") + statements[r.below(std::size(statements))]);
            break;
        }
        case 4: {   // a line deleted
            size_t a = s.rfind('\n', pos), b = s.find('\n', pos);
            if (a != std::string::npos && b != std::string::npos) s.erase(a, b - a);
            break;
        }
        case 5: s.insert(pos, junk[r.below(std::size(junk))]); break;   // syntax damage
        }
    }
    return s;
}

bool haveClang() {
    for (auto& a : compile::available())
        if (a.compiler == compile::Compiler::Clang) return true;
    return false;
}
} // namespace

TEST_CASE("mutated lesson CUDA sources never crash the clang path or the simulator", "[fuzz][fuzz-cuda]") {
    if (!haveClang()) {
        WARN("CUDA fuzzer skipped: clang is not installed");
        return;
    }
    std::vector<std::pair<std::string, std::string>> corpus;   // lesson id, kernel.cu
    for (auto& e : fs::directory_iterator(wst::sourcePath("lessons")))
        if (fs::exists(e.path() / "kernel.cu") && fs::exists(e.path() / "lesson.json"))
            corpus.emplace_back(e.path().filename().string(), wst::readFile((e.path() / "kernel.cu").string()));
    std::sort(corpus.begin(), corpus.end());
    REQUIRE(corpus.size() >= 5);
    int mutants = 24;
    double seconds = 40;
    if (const char* v = std::getenv("WARPSCOPE_CUDA_FUZZ_MUTANTS")) mutants = std::atoi(v);
    if (const char* v = std::getenv("WARPSCOPE_FUZZ_SECONDS")) seconds = std::max(std::atof(v), 5.0);
    uint64_t seed = 0x2545f4914f6cdd1dull;
    if (const char* v = std::getenv("WARPSCOPE_FUZZ_SEED")) seed = std::strtoull(v, nullptr, 10);
    Rng rng{seed | 1};
    auto t0 = std::chrono::steady_clock::now();
    auto until = t0 + std::chrono::duration<double>(seconds);
    int runs = 0, outcomes[3] = {0, 0, 0};
    double slowest = 0;
    for (int k = 0; k < mutants && std::chrono::steady_clock::now() < until; ++k) {
        auto& [id, src] = corpus[rng.below(corpus.size())];
        std::string m = "// lesson: " + id + "\n" + mutateCuda(src, rng);
        auto s0 = std::chrono::steady_clock::now();
        try {
            ++outcomes[int(wsfuzz::cudaOutcome(reinterpret_cast<const uint8_t*>(m.data()), m.size()))];
        } catch (const std::exception& e) {
            std::ofstream("fuzz-crash.cu") << m;
            FAIL("non-warpscope exception (input saved to fuzz-crash.cu): " << e.what());
        }
        double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
        slowest = std::max(slowest, took);
        // The compile time limit (20 s) and the instruction budget bound one input; far past
        // that is a hang in the making.
        if (took > 30) {
            std::ofstream("fuzz-slow.cu") << m;
            FAIL("one mutant took " << took << " s (input saved to fuzz-slow.cu)");
        }
        ++runs;
    }
    CHECK(runs > 0);
    WARN("CUDA fuzzer: " << runs << " mutants in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
                         << " s, slowest " << slowest << " s; " << outcomes[0] << " compile errors, " << outcomes[1]
                         << " ran, " << outcomes[2] << " stopped with a warpscope error");
}
