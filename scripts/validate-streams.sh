#!/usr/bin/env bash
# Simulated vs measured timelines of lessons/streams-overlap on the GPU in this machine (the H100
# preset against a real H100): one `warpscope timeline-compare` per sweep, JSON into OUTDIR, the
# Markdown tables of docs/validation.md on stdout. Needs a built warpscope and an NVIDIA GPU:
#   scripts/validate-streams.sh [path/to/warpscope] [OUTDIR]
# With --program (needs nvcc, no warpscope build): the held-out issue-order program
# tests/validation/programs/streams-order.cu (serial, depth-first and breadth-first issue, pinned and
# pageable, three sizes), built with nvcc and run twice; the CSV into
# OUTDIR/streams-order-program-h100.txt. The simulator's side:
#   warpscope run tests/validation/programs/streams-order.cu --timed
set -euo pipefail
if [ "${1:-}" = "--program" ]; then
    here="$(cd "$(dirname "$0")/.." && pwd)"
    out="${2:-$here/tests/validation/runtime}"
    mkdir -p "$out"
    tmp=$(mktemp -d)
    nvcc -O3 -arch=sm_90 -o "$tmp/streams-order" "$here/tests/validation/programs/streams-order.cu"
    { nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u +%F
      for r in 1 2; do echo "# run $r"; "$tmp/streams-order"; done; } > "$out/streams-order-program-h100.txt"
    rm -rf "$tmp"
    exit 0
fi
here="$(cd "$(dirname "$0")/.." && pwd)"
W="${1:-$here/build/app/cli/warpscope}"
out="${2:-$here/tests/validation/runtime}"
mkdir -p "$out"
run() {   # name, then timeline-compare arguments
    local name="$1"; shift
    "$W" timeline-compare streams-overlap "$@" --json > "$out/streams-$name.json"
    "$W" timeline-compare streams-overlap "$@" --sim-only > /dev/null   # the simulated side alone must work too
    python3 - "$out/streams-$name.json" "$name" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"\n**{sys.argv[2]}** ({d['sweep']} swept; {d['gpu']}, median of {d['repeat']} runs)\n")
print(f"| {d['sweep']} | simulated (µs) | measured (µs) | sim / hw | speed-up sim | speed-up hw |")
print("|---|---|---|---|---|---|")
v = d['variants']
for r in v:
    print(f"| {r['value']} | {r['simulated_us']:.1f} | {r['measured_us']:.1f} | {r['ratio']:.2f} | "
          f"{v[0]['simulated_us'] / r['simulated_us']:.2f} | {v[0]['measured_us'] / r['measured_us']:.2f} |")
PY
}
run pinned-1M --sweep STREAMS=1,2,4,8
run pinned-4M --sweep STREAMS=1,2,4,8 --param N=4194304
run pageable-1M --sweep STREAMS=1,2,4,8 --param PINNED=0
run legacy --sweep LEGACY=0,1
run order --sweep ORDER=0,1
run graph --sweep MODE=1,2
