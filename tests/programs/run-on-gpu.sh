#!/bin/sh
# Builds every whole program in tests/programs with nvcc and runs it on a real NVIDIA GPU, so its
# output and exit code can be held against warpscope's (warpscope run tests/programs/X.cu).
#   tests/programs/run-on-gpu.sh [OUTDIR]     (needs nvcc and a GPU)
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/warpscope-programs-gpu}
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
for src in "$here"/*.cu; do
    name=$(basename "$src" .cu)
    case $name in endless|build_error|managed_var|runaway) continue ;; esac   # these never build or never end on a GPU
    args=""
    [ "$name" = exit_code ] && args="0 x y"
    if ! "$nvcc" -arch=native -o "$out/$name" "$src" > "$out/$name.build.txt" 2>&1; then
        echo "== $name: nvcc failed"; cat "$out/$name.build.txt"; continue
    fi
    timeout 20 "$out/$name" $args > "$out/$name.out.txt" 2>&1
    rc=$?
    echo "== $name (exit $rc)"
    cat "$out/$name.out.txt"
done
if "$nvcc" -arch=native -o "$out/mixed" "$here/mixed/main.cpp" "$here/mixed/square.cu" > "$out/mixed.build.txt" 2>&1; then
    timeout 20 "$out/mixed" > "$out/mixed.out.txt" 2>&1
    echo "== mixed (exit $?)"
    cat "$out/mixed.out.txt"
fi
if "$nvcc" -arch=native -o "$out/two_units" "$here/two_units/main.cu" "$here/two_units/scale.cu" > "$out/two_units.build.txt" 2>&1; then
    timeout 20 "$out/two_units" > "$out/two_units.out.txt" 2>&1
    echo "== two_units (exit $?)"
    cat "$out/two_units.out.txt"
fi
