#!/usr/bin/env bash
# Builds the engine, the app's window-free model and their tests with ThreadSanitizer and runs
# them (CTest): the parallel To end (sim::Gpu::runToEnd's shares, the app's share recorders and
# their join), the session worker and its UI-thread handshake, the background models.
#   scripts/tsan.sh [build-dir]          (WARPSCOPE_TSAN_TESTS: a ctest -R regex to run fewer)
# The desktop window itself is not built (WARPSCOPE_GUI=CORE): Mesa and GLFW are not built with
# TSan, and the window's frame loop is one thread.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-tsan}
flags="-fsanitize=thread -fno-omit-frame-pointer"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSCOPE_GUI=CORE \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread"
cmake --build "$build" --target warpscope_tests warpscope_gui_tests warpscope
# halt_on_error: the first report fails its test; the suppressions name each intended race (see the file).
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/scripts/tsan.supp ${TSAN_OPTIONS:-}"
export WARPSCOPE_FUZZ_SECONDS=${WARPSCOPE_FUZZ_SECONDS:-10}
ctest --test-dir "$build" -j"${WARPSCOPE_TSAN_JOBS:-2}" --output-on-failure \
  -R "${WARPSCOPE_TSAN_TESTS:-^(engine|app)\.}" -E "^(fuzz\.libfuzzer|engine\.layers)$"
