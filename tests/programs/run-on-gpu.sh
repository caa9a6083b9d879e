#!/bin/sh
# Builds every whole program in tests/programs with nvcc and runs it on a real NVIDIA GPU, so its
# output and exit code can be held against warpscope's (warpscope run tests/programs/X.cu).
#   tests/programs/run-on-gpu.sh [OUTDIR]     (needs nvcc and a GPU)
#   ONLY="coop_groups hints" tests/programs/run-on-gpu.sh    (just those programs)
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/warpscope-programs-gpu}
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
for src in "$here"/*.cu; do
    name=$(basename "$src" .cu)
    case $name in endless|build_error|managed_var|runaway) continue ;; esac   # these never build or never end on a GPU
    if [ -n "${ONLY:-}" ]; then case " $ONLY " in *" $name "*) ;; *) continue ;; esac; fi
    args=""
    [ "$name" = exit_code ] && args="0 x y"
    flags=""
    [ "$name" = openmp ] && flags="-Xcompiler -fopenmp"   # warpscope adds it when a source includes <omp.h>
    if ! "$nvcc" -arch=native $flags -o "$out/$name" "$src" > "$out/$name.build.txt" 2>&1; then
        echo "== $name: nvcc failed"; cat "$out/$name.build.txt"; continue
    fi
    timeout 20 "$out/$name" $args > "$out/$name.out.txt" 2>&1
    rc=$?
    echo "== $name (exit $rc)"
    cat "$out/$name.out.txt"
done
# The SDK-style program: its helpers from -I, the driver API's device queries from libcuda.
if [ -z "${ONLY:-}" ] || case " $ONLY " in *" sdk_style "*) true ;; *) false ;; esac; then
if "$nvcc" -arch=native -I "$here/sdk_style/common" -o "$out/sdk_style" "$here/sdk_style/main.cu" -lcuda > "$out/sdk_style.build.txt" 2>&1; then
    (cd "$here/sdk_style" && timeout 20 "$out/sdk_style" > "$out/sdk_style.out.txt" 2>&1)
    echo "== sdk_style (exit $?)"
    cat "$out/sdk_style.out.txt"
else
    echo "== sdk_style: nvcc failed"; cat "$out/sdk_style.build.txt"
fi
fi
[ -n "${ONLY:-}" ] && exit 0
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
