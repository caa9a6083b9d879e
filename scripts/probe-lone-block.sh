#!/usr/bin/env bash
# One block per SM against two (issue 34): tests/validation/probes/lone_block_probe.cu built as
# ptxas chooses and with -maxrregcount=32, each of its 12 launches (six kernels, plain and with
# 116 KiB of unused dynamic shared memory: one block per SM) under Nsight Compute with flushed
# caches at the boost clock, as the realistic suite's cold recordings are taken. Needs nvcc, ncu:
#   scripts/probe-lone-block.sh [OUTDIR]   (default tests/validation/timing/probes)
# Writes OUTDIR/h100-lone-block.csv (ncu --page raw, both builds; the "build" column says which)
# and OUTDIR/h100-lone-block.txt (the program's own lines: registers, blocks per SM, checks).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/tests/validation/timing/probes}"
mkdir -p "$out"
tmp=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$tmp/lone" "$here/tests/validation/probes/lone_block_probe.cu"
nvcc -O3 -arch=sm_90 -maxrregcount=32 -o "$tmp/lone32" "$here/tests/validation/probes/lone_block_probe.cu"
metrics=gpu__time_duration.sum,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__waves_per_multiprocessor,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg,smsp__cycles_active.avg,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts.sum.pct_of_peak_sustained_elapsed,smsp__average_warp_latency_per_inst_issued.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio
{ for b in lone lone32; do echo "# build $b"; "$tmp/$b"; done; } > "$out/h100-lone-block.txt"
{
    for b in lone lone32; do
        ncu --clock-control none --cache-control all --metrics "$metrics" --csv --page raw "$tmp/$b" > "$tmp/$b.log" 2>&1 || true
        # the first build's two header lines (names, units) once, then every launch with its build
        if [ "$b" = lone ]; then grep '^"' "$tmp/$b.log" | sed "1s/^/\"build\",/; 2s/^/\"\",/; 3,\$s/^/\"$b\",/"
        else grep '^"' "$tmp/$b.log" | sed '1,2d' | sed "s/^/\"$b\",/"; fi
    done
} > "$out/h100-lone-block.csv"
rm -rf "$tmp"
