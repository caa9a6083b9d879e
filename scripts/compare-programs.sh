#!/usr/bin/env bash
# Whole CUDA programs on the simulator and the real GPU (warpscope compare prog.cu), over the
# suite's test programs (tests/programs) and a few CUDA samples. In two steps, because the GPU
# machine need not have clang (the simulator's build) and this machine has no GPU:
#   scripts/compare-programs.sh record OUTDIR [SAMPLES_DIR]    on the GPU machine (nvcc + GPU):
#       warpscope run P --backend gpu --save-run OUTDIR/NAME.json for each program
#   scripts/compare-programs.sh compare OUTDIR [SAMPLES_DIR]   anywhere with clang:
#       warpscope compare P --gpu-run OUTDIR/NAME.json > OUTDIR/NAME.txt for each program
# With both on one machine, `warpscope compare P` does both at once.
# SAMPLES_DIR is a checkout of github.com/NVIDIA/cuda-samples (its Samples/ and Common/); without
# it only tests/programs are used. $WARPSCOPE names the CLI (default build/app/cli/warpscope).
set -uo pipefail
mode=${1:?usage: compare-programs.sh record|compare OUTDIR [SAMPLES_DIR]}
out=${2:?usage: compare-programs.sh record|compare OUTDIR [SAMPLES_DIR]}
samples=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
ws=${WARPSCOPE:-$root/build/app/cli/warpscope}
mkdir -p "$out"
out=$(cd "$out" && pwd)
p=$root/tests/programs
# name|folder to run in|sources and options (relative to that folder)|program arguments
list="add|$p|add.cu|
vector_add|$p|vector_add.cu|
constant|$p|constant.cu|
printf|$p|printf.cu|
reduction|$p|reduction.cu|
streams|$p|streams.cu|
graph|$p|graph.cu|
graph_capture|$p|graph_capture.cu|
graph_nodes|$p|graph_nodes.cu|
graph_memory|$p|graph_memory.cu|
managed|$p|managed.cu|
coop_groups|$p|coop_groups.cu|
clock_wait|$p|clock_wait.cu|
barrier_pipeline|$p|barrier_pipeline.cu|
two_units|$p/two_units|main.cu scale.cu|
mixed|$p/mixed|main.cpp square.cu|"
if [ -n "$samples" ]; then
  s=$(cd "$samples" && pwd)
  list="$list
vectorAdd|$s/Samples/0_Introduction/vectorAdd|vectorAdd.cu -I $s/Common|
simplePrintf|$s/Samples/0_Introduction/simplePrintf|simplePrintf.cu -I $s/Common|
clock|$s/Samples/0_Introduction/clock|clock.cu -I $s/Common|
simpleTemplates|$s/Samples/0_Introduction/simpleTemplates|simpleTemplates.cu -I $s/Common|
graphMemoryNodes|$s/Samples/3_CUDA_Features/graphMemoryNodes|graphMemoryNodes.cu -I $s/Common|
simpleAWBarrier|$s/Samples/0_Introduction/simpleAWBarrier|simpleAWBarrier.cu -I $s/Common|
globalToShmemAsyncCopy|$s/Samples/3_CUDA_Features/globalToShmemAsyncCopy|globalToShmemAsyncCopy.cu -I $s/Common|-wA=64 -hA=64 -wB=64 -hB=64
globalToShmemAsyncCopy_k2|$s/Samples/3_CUDA_Features/globalToShmemAsyncCopy|globalToShmemAsyncCopy.cu -I $s/Common|-kernel=2 -wA=64 -hA=64 -wB=64 -hB=64
globalToShmemAsyncCopy_k3|$s/Samples/3_CUDA_Features/globalToShmemAsyncCopy|globalToShmemAsyncCopy.cu -I $s/Common|-kernel=3 -wA=64 -hA=64 -wB=64 -hB=64"
fi
echo "$list" | while IFS='|' read -r name dir srcs args; do
  [ -n "$name" ] || continue
  [ -f "$dir/${srcs%% *}" ] || { echo "== $name: no ${srcs%% *} in $dir, skipped"; continue; }
  if [ "$mode" = record ]; then
    ( cd "$dir" && timeout 300 "$ws" run $srcs --backend gpu --workdir . --save-run "$out/$name.json" -- $args > "$out/$name.gpu.txt" 2>&1 )
    echo "== $name: exit $? ($(grep -c '"kernel"' "$out/$name.json" 2>/dev/null || echo 0) launches recorded)"
  elif [ "$mode" = compare ]; then
    [ -f "$out/$name.json" ] || { echo "== $name: no recorded GPU run"; continue; }
    ( cd "$dir" && timeout 600 "$ws" compare $srcs --workdir . --gpu-run "$out/$name.json" -- $args > "$out/$name.txt" 2>&1 )
    echo "== $name: exit $?; $(grep -E 'lines differ' "$out/$name.txt" | sed 's/^ *//')"
  else
    echo "compare-programs.sh: the mode is record or compare, not '$mode'" >&2
    exit 2
  fi
done
