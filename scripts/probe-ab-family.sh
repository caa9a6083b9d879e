#!/usr/bin/env bash
# The C = AB / C = AA^T family at M = N = 1024 under Nsight Compute on the GPU machine (issue 34):
# every metric of `--set full`, one launch each from flushed caches at the boost clock, as the
# realistic suite's cold recordings are taken; and the SASS of the six kernels. Needs nvcc, ncu
# and cuobjdump:
#   scripts/probe-ab-family.sh [OUTDIR]   (default tests/validation/timing/probes)
# Writes OUTDIR/h100-ab-family.csv (ncu --page raw), OUTDIR/h100-ab-family-sass.txt and, from a
# build with at most 32 registers per thread (two 1024-thread blocks per SM for ab_tile_a too),
# OUTDIR/h100-ab-family-maxrreg32.csv (durations only).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/tests/validation/timing/probes}"
mkdir -p "$out"
tmp=$(mktemp -d)
nvcc -O3 -arch=sm_90 -lineinfo -o "$tmp/ab" "$here/tests/validation/probes/ab_family_probe.cu"
nvcc -O3 -arch=sm_90 -maxrregcount=32 -o "$tmp/ab32" "$here/tests/validation/probes/ab_family_probe.cu"
"$tmp/ab"
cuobjdump -sass "$tmp/ab" | grep -E "Function|^\s+/\*[0-9a-f]+\*/" > "$out/h100-ab-family-sass.txt"
ncu --clock-control none --cache-control all --set full --csv --page raw "$tmp/ab" > "$tmp/full.log" 2>&1 || true
grep '^"' "$tmp/full.log" > "$out/h100-ab-family.csv"
ncu --clock-control none --cache-control all --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active \
    --csv --page raw "$tmp/ab32" > "$tmp/r32.log" 2>&1 || true
grep '^"' "$tmp/r32.log" > "$out/h100-ab-family-maxrreg32.csv"
rm -rf "$tmp"
