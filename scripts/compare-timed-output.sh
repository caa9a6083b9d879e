#!/bin/bash
# Compares what two warpscope builds predict in Timed mode (cycles, stall reasons per line, cache
# counters: the `run --json` output with wall-clock fields removed) on every lesson (h100 and
# teaching presets) and the validation specs. Used to show that a speed change to the cycle model
# (issue 17) leaves every prediction as it was. Exit status 1 when anything differs.
#   scripts/compare-timed-output.sh OLD/app/cli/warpscope NEW/app/cli/warpscope
# (each binary finds its lessons and presets through its build folder's warpscope-source-dir.txt)
set -u
if [ $# -ne 2 ]; then echo "usage: $0 OLD_WARPSCOPE NEW_WARPSCOPE" >&2; exit 2; fi
A=$1; B=$2
R=$(cd "$(dirname "$0")/.." && pwd)
fail=0
run() { local bin=$1; shift; "$bin" run "$@" --json 2>&1 | grep -vE '"elapsed_ms"|"wall|_ms"'; }
cmp1() {
    local oa ob
    oa=$(run "$A" "$@"); ob=$(run "$B" "$@")
    if [ "$oa" != "$ob" ]; then
        echo "DIFF: $*"; diff <(echo "$oa") <(echo "$ob") | head -8; fail=1
    else
        echo "same: $* ($(echo "$oa" | grep -c stalled) stall figures)"
    fi
}
for gpu in h100 teaching; do
    for t in $(ls "$R/lessons"); do cmp1 "$t" --gpu "$gpu"; done
done
cmp1 "$R/tests/validation/memory-patterns.json" --gpu h100 --metrics
cmp1 "$R/tests/validation/bpg_matmul.json" --gpu h100
cmp1 "$R/tests/validation/realistic.json" --gpu h100
exit $fail
