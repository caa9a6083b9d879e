#!/usr/bin/env bash
# Records, on the GPU machine, what the asynchronous-copy, warp-reduction and cooperative-launch
# support is checked against (docs/async-copy.md):
#   1. the golden results of tests/golden/{warp-reduce,async-copy,grid-sync} (record-golden.sh);
#   2. the H100's times of tests/validation/async-matmul.json next to the cycle model's
#      predictions (warpscope time-compare; --save-json keeps the measurements for replay);
#   3. Nsight Compute's LDGSTS counters (every metric whose name has "ldgsts") and the
#      instruction count for tests/golden/async-copy.
# Run from the repository root:  scripts/record-async.sh OUTDIR
# OUTDIR gets async-golden.tar.gz (unpack at the repository root), record.log,
# async-matmul-time.txt / .json, ncu-query.txt and ncu-async-copy.csv.
set -u
out=${1:?usage: scripts/record-async.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=${WARPSCOPE_BUILD_DIR:-build-gpu}
scripts/record-golden.sh --only warp-reduce --only async-copy --only grid-sync --out "$out/rec" --tar "$out/async-golden.tar.gz" \
    >"$out/record.log" 2>&1
echo "record-golden: exit $?"; tail -n 6 "$out/record.log"
cli="$build/app/cli/warpscope"
"$cli" time-compare tests/validation/async-matmul.json --repeat 20 --save-json "$out/async-matmul-time.json" \
    >"$out/async-matmul-time.txt" 2>&1
echo "time-compare: exit $?"; cat "$out/async-matmul-time.txt"
if command -v ncu >/dev/null 2>&1; then
    ncu --query-metrics >"$out/ncu-query.txt" 2>&1
    names=$(grep -oE '^(sm|smsp|l1tex|lts)__[a-z0-9_]*ldgsts[a-z0-9_]*' "$out/ncu-query.txt" | sort -u | sed 's/$/.sum/' | paste -sd, -)
    list="smsp__inst_executed.sum${names:+,$names}"
    echo "ncu metrics: $list"
    ncu --clock-control none --csv --page raw --metrics "$list" "$cli" run tests/golden/async-copy/spec.json --backend gpu \
        >"$out/ncu-async-copy.csv" 2>&1 || echo "ncu async-copy: exit $?"
else
    echo "ncu not found" | tee "$out/ncu-query.txt"
fi
