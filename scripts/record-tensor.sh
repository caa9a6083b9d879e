#!/usr/bin/env bash
# Records, on the GPU machine, everything the tensor-core support is checked against:
#   1. the golden results of tests/golden/{wmma-fragments,wmma-gemm,mma-sync,mma-specials} (record-golden.sh),
#   2. latency and throughput of mma.sync / wmma / ldmatrix (scripts/tensor-probe.cu),
#   3. Nsight Compute's tensor-pipe and ldmatrix counters for the two golden GEMM specs.
# Run from the repository root:  scripts/record-tensor.sh OUTDIR
# OUTDIR gets tensor-golden.tar.gz (unpack at the repository root), tensor-probe.txt,
# ncu-query.txt, ncu-mma-sync.csv, ncu-wmma-gemm.csv.
set -u
out=${1:?usage: scripts/record-tensor.sh OUTDIR}
mkdir -p "$out"
build=${WARPSCOPE_BUILD_DIR:-build-gpu}
scripts/record-golden.sh --only wmma-fragments --only wmma-gemm --only mma-sync --only mma-specials --out "$out/rec" --tar "$out/tensor-golden.tar.gz" \
    >"$out/record.log" 2>&1
echo "record-golden: exit $?"; tail -n 8 "$out/record.log"
nvcc -O2 -arch=sm_90 scripts/tensor-probe.cu -o "$build/tensor-probe" && "$build/tensor-probe" | tee "$out/tensor-probe.txt"
if command -v ncu >/dev/null 2>&1; then
    ncu --query-metrics >"$out/ncu-query.txt" 2>&1
    names=$(grep -oE '^(sm|smsp)__[a-z0-9_]*(tensor|mma|ldsm)[a-z0-9_]*' "$out/ncu-query.txt" | sort -u | sed 's/$/.sum/' | paste -sd, -)
    list="smsp__inst_executed.sum,smsp__thread_inst_executed.sum${names:+,$names}"
    echo "ncu metrics: $list"
    for spec in mma-sync wmma-gemm; do
        ncu --clock-control none --csv --page raw --metrics "$list" "$build/app/cli/warpscope" run "tests/golden/$spec/spec.json" --backend gpu \
            >"$out/ncu-$spec.csv" 2>&1 || echo "ncu $spec: exit $?"
    done
else
    echo "ncu not found" | tee "$out/ncu-query.txt"
fi
