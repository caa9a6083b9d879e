#!/usr/bin/env bash
# Records, on the GPU machine, what the asynchronous-copy, warp-reduction and cooperative-launch
# support is checked against (docs/async-copy.md):
#   1. the golden results of tests/golden/{warp-reduce,async-copy,grid-sync} (record-golden.sh);
#   2. the H100's times of tests/validation/async-matmul.json next to the cycle model's
#      predictions (warpscope time-compare; --save-json keeps the measurements for replay);
#   3. Nsight Compute's LDGSTS counters (every metric whose name has "ldgsts") and the
#      instruction count for tests/golden/async-copy;
#   4. the same counters (the shared side: wavefronts and bank conflicts of LDGSTS's writes) for
#      the async-copy lesson's kernels at N = 128, tests/validation/async-matmul.cu's at n = 512
#      and the one-pattern probes of tests/validation/ldgsts-probe.cu, run by
#      scripts/time-async-lesson.cu (built with nvcc; no warpscope build needed), and the PTX of
#      the probes. Only this step: scripts/record-async.sh OUTDIR --ldgsts
# Run from the repository root:  scripts/record-async.sh OUTDIR [--ldgsts]
# OUTDIR gets async-golden.tar.gz (unpack at the repository root), record.log,
# async-matmul-time.txt / .json, ncu-query.txt and ncu-async-copy.csv; step 4:
# ncu-ldgsts-lesson.csv, ncu-ldgsts-validation.csv, ncu-ldgsts-probe.csv (copy them to
# tests/validation/ncu/), ldgsts-probe.ptx (nvcc's, to compare with the committed one).
set -u
out=${1:?usage: scripts/record-async.sh OUTDIR [--ldgsts]}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Step 4: LDGSTS counters of the lesson's, the validation's and the probe's kernels.
record_ldgsts() {
    if ! command -v ncu >/dev/null 2>&1; then echo "ncu not found"; return 1; fi
    nvcc -O3 -arch=sm_90 -std=c++17 -o "$out/tal" scripts/time-async-lesson.cu >"$out/tal-build.log" 2>&1 \
        || { echo "nvcc time-async-lesson: failed"; cat "$out/tal-build.log"; return 1; }
    nvcc -ptx -lineinfo -arch=sm_90 tests/validation/ldgsts-probe.cu -o "$out/ldgsts-probe.ptx"
    [ -s "$out/ncu-query.txt" ] || ncu --query-metrics >"$out/ncu-query.txt" 2>&1
    local names list
    names=$(grep -oE '^(sm|smsp|l1tex|lts)__[a-z0-9_]*ldgsts[a-z0-9_]*' "$out/ncu-query.txt" | sort -u | sed 's/$/.sum/' | paste -sd, -)
    list="smsp__inst_executed.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum${names:+,$names}"
    ncu --clock-control none --csv --page raw --metrics "$list" "$out/tal" once-lesson 128 >"$out/ncu-ldgsts-lesson.csv" 2>&1 \
        || echo "ncu lesson: exit $?"
    ncu --clock-control none --csv --page raw --metrics "$list" "$out/tal" once-validation >"$out/ncu-ldgsts-validation.csv" 2>&1 \
        || echo "ncu validation: exit $?"
    ncu --clock-control none --csv --page raw --metrics "$list" "$out/tal" once-probe >"$out/ncu-ldgsts-probe.csv" 2>&1 \
        || echo "ncu probe: exit $?"
    rm -f "$out/tal"
}
if [ "${2:-}" = "--ldgsts" ]; then
    record_ldgsts
    exit $?
fi
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
record_ldgsts
