#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer and runs the whole test
# suite (CTest) under them. Slower than the normal run; use before a release or after engine work.
#   scripts/sanitize.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-asan}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
cmake --build "$build"
# Leak checking is off: the GL driver (Mesa) and GLFW keep allocations until exit on purpose.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export WARPSCOPE_FUZZ_SECONDS=${WARPSCOPE_FUZZ_SECONDS:-10}
ctest --test-dir "$build" -j2 --output-on-failure -E "^fuzz\.libfuzzer$"
