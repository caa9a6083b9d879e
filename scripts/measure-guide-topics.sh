#!/usr/bin/env bash
# Runs scripts/guide-topics-probe.cu on the GPU machine (host functions, stream priorities, mapped
# and write-combined memory, an L2 access policy window) and ncu's L2 hit rate for its L2 kernel
# with and without the window. Output: JSON on stdout, ncu CSV in $OUT (or /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp}
nvcc -O3 -arch=sm_90 -o "$out/guide-topics-probe" scripts/guide-topics-probe.cu
"$out/guide-topics-probe" | tee "$out/guide-topics.json"
if command -v ncu >/dev/null; then
  ncu --clock-control none --csv --page raw -k regex:stream_with_table \
      --metrics lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum \
      "$out/guide-topics-probe" l2 > "$out/guide-topics-ncu.csv" 2>&1 || true
  cat "$out/guide-topics-ncu.csv" | tail -25
fi
