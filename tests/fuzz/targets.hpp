// Fuzz targets: each takes arbitrary bytes and must return normally or throw warpscope::Error,
// never crash, hang or throw anything else. libFuzzer drives them (tests/fuzz/main_*.cpp, built
// with clang by scripts/fuzz.sh); the regular test suite replays the kept inputs in
// tests/fuzz/regressions/<target>/.
#pragma once
#include <cstddef>
#include <cstdint>

namespace wsfuzz {
void ptx(const uint8_t* data, size_t size);      // parse, compile every kernel, run briefly
void lesson(const uint8_t* data, size_t size);   // lesson JSON: load, resolve params, run on a tiny budget
void expr(const uint8_t* data, size_t size);     // the expression evaluator
} // namespace wsfuzz
