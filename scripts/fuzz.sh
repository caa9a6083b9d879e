#!/usr/bin/env bash
# Builds the libFuzzer targets (PTX parser+compiler+simulator, lesson loader+runner, expression
# evaluator, CUDA C++ through the clang compile path and the simulator) with clang, AddressSanitizer and UndefinedBehaviorSanitizer, and runs each for a
# bounded time. Inputs that crash are saved under tests/fuzz/regressions/<target>/ (keep them:
# the regular test suite replays them after the fix).
#   scripts/fuzz.sh [seconds-per-target] [build-dir]
#   scripts/fuzz.sh build [build-dir]     only build the targets (the native build's `fuzzers`
#                                         target does this, so the fuzz.libfuzzer test only runs them)
#   JOBS=N                                parallel compile jobs (default: every core)
set -uo pipefail
secs=${1:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$root/build-fuzz}
cxx=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$cxx" ]; then echo "fuzz.sh: skipped (clang++ not installed)"; exit 0; fi
cc=$(command -v clang || command -v clang-14)
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long){return 0;}' | \
     "$cxx" -x c++ -fsanitize=fuzzer - -o /tmp/fuzz-probe.$$ 2>/dev/null; then
  echo "fuzz.sh: skipped (this clang has no libFuzzer runtime: install libclang-rt-dev)"; exit 0
fi
rm -f /tmp/fuzz-probe.$$
# -O1 with line tables only: the sanitizers' reports keep file:line, and the build (the whole
# engine under ASan/UBSan, the suite's longest step on 2 cores) takes far less time than -O2 -g.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
  -DWARPSCOPE_GUI=OFF -DWARPSCOPE_TESTS=OFF -DWARPSCOPE_FUZZERS=ON > "$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" --target fuzz_ptx fuzz_lesson fuzz_expr fuzz_cuda -j"${JOBS:-$(nproc)}" || exit 1
[ "$secs" = build ] && { echo "fuzz.sh: the fuzz targets are built in $build"; exit 0; }
status=0
for t in ptx lesson expr cuda; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus" "$root/tests/fuzz/regressions/$t"
  cp "$root"/tests/fuzz/seeds/$t/* "$root"/tests/fuzz/regressions/$t/* "$corpus"/ 2>/dev/null
  if [ "$t" = cuda ]; then
    # Seeds: the lessons' kernels, each tagged with the lesson whose host program runs it.
    for k in "$root"/lessons/*/kernel.cu; do
      id=$(basename "$(dirname "$k")")
      { echo "// lesson: $id"; cat "$k"; } > "$corpus/lesson-$id.cu"
    done
  fi
  echo "== fuzz_$t for ${secs}s"
  if ! "$build/tests/fuzz/fuzz_$t" "$corpus" -max_total_time="$secs" -max_len=65536 -timeout=$([ "$t" = cuda ] && echo 60 || echo 10) -rss_limit_mb=4096 \
       -artifact_prefix="$root/tests/fuzz/regressions/$t/" -print_final_stats=1 2>"$build/fuzz_$t.log"; then
    echo "fuzz_$t found a problem: see $build/fuzz_$t.log; the input is in tests/fuzz/regressions/$t/"
    tail -30 "$build/fuzz_$t.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/fuzz_$t.log" | sed 's/^/   /'
  fi
done
exit $status
