#!/usr/bin/env bash
# Held-out tiled kernels at one block per SM against two, and a lone block's fixed cost (issue 34):
# tests/validation/probes/lone_tiles_probe.cu launches the kernels of tests/validation/lone-tiles.cu
# as tests/validation/lone-empty.json and lone-tiles.json do, in the same order; each launch is
# profiled under Nsight Compute with flushed caches at the boost clock, as the realistic suite's cold
# recordings are taken. Needs nvcc and ncu:
#   scripts/probe-lone-tiles.sh [OUTDIR]   (default tests/validation/timing/probes)
# Writes OUTDIR/h100-lone-empty.csv (the empty and barrier-only blocks), OUTDIR/h100-lone-tiles.csv
# (the tiled kernels; both plain ncu --csv --page raw, so `warpscope time-compare SPEC --cold FILE`
# reads them), OUTDIR/h100-lone-tiles.txt (the program's own lines: registers, blocks per SM, checks)
# and OUTDIR/h100-lone-tiles-sass.txt (the tiled kernels' SASS for sm_90).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/tests/validation/timing/probes}"
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
tmp=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$tmp/probe" "$here/tests/validation/probes/lone_tiles_probe.cu"
cuobjdump -sass "$tmp/probe" | grep -v '^\s*$' > "$out/h100-lone-tiles-sass.txt" || true
"$tmp/probe" > "$out/h100-lone-tiles.txt"
metrics=gpu__time_duration.sum,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__waves_per_multiprocessor,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg,smsp__cycles_active.avg,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts.sum.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warp_latency_per_inst_issued.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_misc_per_issue_active.ratio
profile() {   # profile KERNEL-FILTER FILE: the header row, the units row and one row per launch
    ncu --clock-control none --cache-control all --kernel-name "$1" --metrics "$metrics" --csv --page raw "$tmp/probe" \
        > "$tmp/log" 2>&1 || true
    grep '^"' "$tmp/log" > "$2" || true
    # Every launch or none: a metric this ncu does not know fails them all; then durations alone.
    if [ "$(wc -l < "$2")" -le 2 ]; then
        echo "probe-lone-tiles: ncu gave no rows with the full metric list; durations only" >&2
        tail -5 "$tmp/log" >&2
        ncu --clock-control none --cache-control all --kernel-name "$1" --metrics gpu__time_duration.sum --csv --page raw \
            "$tmp/probe" 2>&1 | grep '^"' > "$2" || true
    fi
}
profile 'regex:^lt_(empty|sync)$' "$out/h100-lone-empty.csv"
profile 'regex:^lt_(transpose|stencil2d|matvec|reduce|conv1d)$' "$out/h100-lone-tiles.csv"
rm -rf "$tmp"
