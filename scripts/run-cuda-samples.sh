#!/usr/bin/env bash
# Runs NVIDIA's cuda-samples (introductory and concept samples) on the simulator as a learner
# would, each unmodified: `warpscope run *.cu *.cpp -I Common --workdir .` in the sample's folder,
# no CUDA toolkit on PATH. Limits as issue 31 measures a sample: a wall-clock limit of --seconds
# (default 120) and a CPU-time limit of --seconds x the machine's cores (the simulator spreads a
# launch over every core, and its threads count against a CPU-time limit). Prints one line per
# sample (result, wall-clock seconds, CPU seconds: the build's included, a cached build costs
# about a second) and a count; docs/whole-programs.md quotes it.
#   scripts/run-cuda-samples.sh CUDA_SAMPLES_DIR [-j JOBS] [--warpscope PATH] [--seconds N]
#   SAMPLES="3_CUDA_Features/newdelete ..." scripts/run-cuda-samples.sh ...   (just those)
# CUDA_SAMPLES_DIR is a checkout of github.com/NVIDIA/cuda-samples (its Samples/ and Common/).
# Each sample runs in a copy of its folder (the samples write result files). "runs" means exit 0
# (the samples exit non-zero when their own check fails); "too slow" a limit stopped it. With
# -j above 1 the samples share the cores: measure the times with -j 1 on a quiet machine.
set -uo pipefail
root=${1:?usage: run-cuda-samples.sh CUDA_SAMPLES_DIR [-j JOBS] [--warpscope PATH] [--seconds N]}
shift
jobs=1
ws=$(cd "$(dirname "$0")/.." && pwd)/build/app/cli/warpscope
secs=120
while [ $# -gt 0 ]; do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    --warpscope) ws=$2; shift 2 ;;
    --seconds) secs=$2; shift 2 ;;
    *) echo "run-cuda-samples.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
samples="0_Introduction/vectorAdd 0_Introduction/asyncAPI 0_Introduction/clock 0_Introduction/simpleAtomicIntrinsics
0_Introduction/simpleVoteIntrinsics 0_Introduction/simpleZeroCopy 0_Introduction/simpleOccupancy 0_Introduction/simpleCallback
0_Introduction/simplePrintf 0_Introduction/simpleAssert 0_Introduction/simpleTemplates 0_Introduction/template
0_Introduction/simpleCooperativeGroups 0_Introduction/simpleHyperQ 0_Introduction/simpleMultiCopy 0_Introduction/mergeSort
0_Introduction/systemWideAtomics 0_Introduction/simpleStreams 0_Introduction/matrixMul 0_Introduction/simpleAttributes
0_Introduction/simpleAWBarrier 0_Introduction/fp16ScalarProduct 0_Introduction/cudaOpenMP 0_Introduction/UnifiedMemoryStreams
1_Utilities/deviceQuery 2_Concepts_and_Techniques/reduction 2_Concepts_and_Techniques/scalarProd
2_Concepts_and_Techniques/threadFenceReduction 2_Concepts_and_Techniques/inlinePTX 2_Concepts_and_Techniques/shfl_scan
2_Concepts_and_Techniques/streamOrderedAllocation 2_Concepts_and_Techniques/scan 2_Concepts_and_Techniques/histogram
2_Concepts_and_Techniques/sortingNetworks 2_Concepts_and_Techniques/convolutionSeparable 2_Concepts_and_Techniques/interval
2_Concepts_and_Techniques/reductionMultiBlockCG 2_Concepts_and_Techniques/eigenvalues 3_CUDA_Features/StreamPriorities
3_CUDA_Features/simpleCudaGraphs 3_CUDA_Features/binaryPartitionCG 3_CUDA_Features/warpAggregatedAtomicsCG
3_CUDA_Features/globalToShmemAsyncCopy 3_CUDA_Features/cudaTensorCoreGemm 3_CUDA_Features/graphMemoryNodes
3_CUDA_Features/newdelete"
[ -x "$ws" ] || { echo "run-cuda-samples.sh: no warpscope at $ws" >&2; exit 2; }
ws=$(cd "$(dirname "$ws")" && pwd)/$(basename "$ws")   # each sample runs in its own folder
samples=${SAMPLES:-$samples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
one() {
  local s=$1 name dir log rc wall user sys verdict
  name=$(basename "$s")
  dir="$work/$name"
  cp -r "$root/Samples/$s" "$dir" 2>/dev/null || { echo "$s | not in this checkout"; return; }
  log="$work/$name.log"
  # GNU time's CPU seconds count warpscope, the build and the program (every process below it
  # that was waited for); its wall-clock seconds the whole run. Without bubblewrap
  # (WARPSCOPE_BWRAP=none: NVIDIA's samples are not untrusted code; the limits still hold): the
  # program inside bwrap's PID namespace is reaped there, and its CPU time never reaches GNU time.
  (cd "$dir" && env -u CUDA_PATH -u CUDA_HOME PATH=/usr/bin:/bin WARPSCOPE_BWRAP=none /usr/bin/time -o "$work/$name.time" -f "%e %U %S" \
      "$ws" run $(ls *.cu *.cpp 2>/dev/null) -I "$root/Common" --workdir . --timeout "$secs" --cpu-seconds $((secs * cores)) \
      > "$log" 2>&1)
  rc=$?
  read -r wall user sys < <(tail -n 1 "$work/$name.time")
  if [ $rc -eq 0 ]; then verdict=runs
  elif grep -q "CPU-time limit\|wall-clock limit" "$log"; then verdict="too slow"
  elif grep -q "build failed" "$log"; then verdict="does not build: $(grep -m1 "error" "$log" | cut -c1-120)"
  else verdict="fails (exit $rc): $(tail -n 1 "$log" | cut -c1-120)"; fi
  printf '%s | %s | %.0f s | %.0f s CPU\n' "$s" "$verdict" "$wall" "$(awk "BEGIN { print $user + $sys }")"
}
export -f one
cores=$(nproc)
export root ws secs work cores
echo "$samples" | tr ' ' '\n' | grep -v '^$' | xargs -P "$jobs" -I{} bash -c 'one {}' | sort > "$work/results.txt"
cat "$work/results.txt"
echo "limits: ${secs} s wall clock, $((secs * cores)) s CPU ($cores cores); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs: $(grep -c "| runs |" "$work/results.txt") of $(grep -vc "not in this checkout" "$work/results.txt") tried"
