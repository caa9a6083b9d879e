#!/usr/bin/env bash
# Records the H100's times of the realistic-size timing suite (tests/validation/realistic.json,
# issue 16) in one go on the GPU machine: builds the engine and CLI, then measures every launch
#   1. cold: one launch per kernel under Nsight Compute, gpu__time_duration.sum with
#      --clock-control none (the GPU runs at its boost clock, as a student's own run sees it;
#      ncu's default would lock it to the lower base clock) and --cache-control all (L1 and L2
#      flushed before the kernel: a single launch from cold caches, which is what the guides'
#      tables mean and what the cycle model predicts by default). gpu__time_duration is the
#      kernel's time on the GPU, so module loading and the host's launch call are not in it;
#   2. atomics: for the reduction, histogram and compaction kernels, the global atomics as the
#      hardware counts them (op_atom vs op_red requests and sectors; ptxas emits RED for an
#      atomic whose result is unused), to check the simulator's counters;
#   3. warm: `warpscope time-compare` (CUDA events, a warm-up, then the median of back-to-back
#      launches of the same kernel; the H100's 50 MB L2 keeps a 16 MB working set between them),
#      which also writes the model's predictions beside them.
# Usage (repository root):
#   scripts/record-timing-suite.sh [output-folder] [--spec FILE] [--param NAME=VALUE ...]
# --spec picks another suite (default tests/validation/realistic.json), e.g.
# tests/validation/launch-costs.json (issue 34's launch and block-dispatch probe); step 2 runs only
# for a suite with reduce_/histogram_/compact_ kernels.
# The output folder (default: $OUT/realistic, else ./timing-suite-out) gets at most 8 files;
# copy them to tests/validation/timing/realistic/. Needs: nvidia-smi, ncu, cmake, a C++20
# compiler, and nlohmann-json (Debian package or .carry/include from scripts/carry-deps.sh).
# WARPSCOPE_BUILD (default build-gpu) is the build folder; WARPSCOPE_REPEAT (default 20) the
# number of back-to-back launches.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
t0=$(date +%s)
fail() { echo "record-timing-suite: $*" >&2; exit 2; }
step() { echo "[$(($(date +%s) - t0)) s] $*"; }

out=""
spec=tests/validation/realistic.json
params=()
while [ $# -gt 0 ]; do
  case "$1" in
    --param) [ $# -ge 2 ] || fail "--param needs NAME=VALUE"; params+=(--param "$2"); shift 2 ;;
    --spec) [ $# -ge 2 ] || fail "--spec needs a file"; spec=$2; shift 2 ;;
    -h|--help) sed -n 2,27p "$0"; exit 0 ;;
    -*) fail "unknown option $1" ;;
    *) out=$1; shift ;;
  esac
done
if [ -z "$out" ]; then
  if [ -n "${OUT:-}" ]; then out="$OUT/$(basename "$spec" .json)"; else out=timing-suite-out; fi
fi
build=${WARPSCOPE_BUILD:-build-gpu}
repeat=${WARPSCOPE_REPEAT:-20}
cli="$build/app/cli/warpscope"

# Everything that can be missing is checked before anything runs.
export PATH="$PATH:/usr/local/cuda/bin"
[ -f "$spec" ] || fail "$spec not found (run from the repository root)"
for tool in nvidia-smi ncu cmake; do
  command -v "$tool" > /dev/null || fail "'$tool' is not on PATH (nor in /usr/local/cuda/bin)"
done
command -v c++ > /dev/null || command -v g++ > /dev/null || command -v clang++ > /dev/null || fail "no C++ compiler (c++, g++ or clang++)"
[ -f .carry/include/nlohmann/json.hpp ] || [ -f /usr/include/nlohmann/json.hpp ] ||
  fail "nlohmann/json.hpp not found: run scripts/carry-deps.sh here and carry .carry to the GPU machine"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null | head -1)
[ -n "$gpu" ] || fail "nvidia-smi sees no GPU"
mkdir -p "$out" || fail "cannot create $out"
[ -z "$(ls -A "$out" 2> /dev/null)" ] || fail "$out is not empty"

step "building the engine and CLI in $build ($gpu)"
gen=()
command -v ninja > /dev/null && gen=(-G Ninja)
{ cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DWARPSCOPE_GUI=OFF -DWARPSCOPE_TESTS=OFF &&
  cmake --build "$build" -j "$(nproc 2> /dev/null || echo 8)" --target warpscope; } > "$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log" >&2; fail "build failed (whole log: $out/build.log)"; }
[ -x "$cli" ] || fail "the build made no $cli"
rm -f "$out/build.log"
launches=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['host']))" "$spec" 2> /dev/null ||
  grep -c '"launch"' "$spec")

# 1. Cold single launches.
step "cold: ncu gpu__time_duration.sum over $launches launches"
timeout 240 ncu --clock-control none --cache-control all --metrics gpu__time_duration.sum --csv --page raw \
  "$cli" run "$spec" --backend gpu "${params[@]}" > "$out/cold.csv" 2> "$out/cold.log"
rc=$?
rows=$(grep -c '^"[0-9]' "$out/cold.csv" 2> /dev/null)
if [ "${rows:-0}" != "$launches" ]; then
  tail -20 "$out/cold.log" "$out/cold.csv" >&2
  fail "ncu (cold) exited $rc with ${rows:-0} of $launches kernel rows (see $out/cold.log)"
fi
# ncu returns the program's exit code: a failed result check (e.g. a float sum in another
# order) does not spoil the times, but is worth a look.
[ "$rc" = 0 ] || echo "warning: ncu (cold) exited $rc though every kernel was profiled; see the checks in $out/cold.csv" >&2

# 2. Atomic counters of the kernels with global atomics.
if grep -Eq '"launch": *"(reduce_|histogram_|compact_)' "$spec"; then
step "atomics: op_atom / op_red counters"
red_metrics=l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
red_metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
timeout 120 ncu --clock-control none --cache-control all --kernel-name 'regex:^(reduce_|histogram_|compact_)' \
  --metrics "$red_metrics" --csv --page raw "$cli" run "$spec" --backend gpu "${params[@]}" > "$out/atomics.csv" 2>> "$out/cold.log"
rc=$?
arows=$(grep -c '^"[0-9]' "$out/atomics.csv" 2> /dev/null)
if [ "${arows:-0}" = 0 ]; then fail "ncu (atomics) exited $rc with no kernel rows (see $out/cold.log)"; fi
fi

# 3. Warm back-to-back launches, with the model's predictions.
step "warm: time-compare, median of $repeat back-to-back launches (then the model's predictions)"
timeout 300 "$cli" time-compare "$spec" --gpu h100 --repeat "$repeat" "${params[@]}" --save-json "$out/warm.json" > "$out/warm.md" 2>&1
rc=$?
if [ "$rc" != 0 ] || [ ! -s "$out/warm.json" ]; then
  tail -20 "$out/warm.md" >&2
  fail "time-compare exited $rc (see $out/warm.md)"
fi

{
  echo "gpu: $gpu"
  echo "ncu: $(ncu --version 2> /dev/null | tail -1)"
  echo "nvcc: $(nvcc --version 2> /dev/null | tail -1)"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "commit: $(git rev-parse --short HEAD 2> /dev/null || echo unknown)"
  echo "spec: $spec ${params[*]}"
  echo "cold: ncu --clock-control none --cache-control all --metrics gpu__time_duration.sum (one launch each, boost clock, caches flushed)"
  echo "warm: warpscope time-compare --repeat $repeat (CUDA events, warm-up, median of back-to-back launches)"
} > "$out/RECORDED.txt"
step "done; files (copy them to tests/validation/timing/$(basename "$spec" .json)/):"
for f in "$out"/*; do echo "  $f"; done
