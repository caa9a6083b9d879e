// Fuzz targets: each takes arbitrary bytes and must return normally or throw warpscope::Error,
// never crash, hang or throw anything else. libFuzzer drives them (tests/fuzz/main_*.cpp, built
// with clang by scripts/fuzz.sh); the regular test suite replays the kept inputs in
// tests/fuzz/regressions/<target>/.
#pragma once
#include <cstddef>
#include <cstdint>

namespace wsfuzz {
// xorshift64: the suite's mutation fuzzers draw their edits from it (reproducible by seed).
struct Rng {
    uint64_t s;
    uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    size_t below(size_t n) { return n ? size_t(next() % n) : 0; }
};

void ptx(const uint8_t* data, size_t size);      // parse, compile every kernel, run briefly
void lesson(const uint8_t* data, size_t size);   // lesson JSON: load, resolve params, run on a tiny budget
void expr(const uint8_t* data, size_t size);     // the expression evaluator
// CUDA C++ through the clang compile path (time limit), then the lesson's host program on the
// simulator in a small sandbox (instruction budget, device memory). A first line
// "// lesson: <id>" picks the lesson whose host program runs the PTX (default vector-add).
// A failed compile must say why (diagnostics or an error); anything else throws std::logic_error.
void cuda(const uint8_t* data, size_t size);
// cuda() that says how the input ended (for the suite's statistics).
enum class CudaOutcome { CompileError, Ran, EngineError };
CudaOutcome cudaOutcome(const uint8_t* data, size_t size);
} // namespace wsfuzz
