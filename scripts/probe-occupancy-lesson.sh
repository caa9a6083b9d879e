#!/usr/bin/env bash
# Records the H100's time of the occupancy lesson's copy (lessons/occupancy-and-latency) at each
# SMEM value the lesson's table uses (8 ... 64 resident warps per SM), so the lesson's claims about
# how time falls with occupancy can be checked against hardware, not only against the model:
#   cold: one launch under Nsight Compute, gpu__time_duration.sum, --clock-control none (boost
#         clock) and --cache-control all (flushed caches), as scripts/record-timing-suite.sh does;
#   and dram__sectors_{read,write}.sum of the same launch (what reached DRAM during the kernel).
# Usage (repository root, on the GPU machine): scripts/probe-occupancy-lesson.sh [path/to/warpscope] > occupancy-h100.csv
# Copy the output to tests/validation/timing/probes/h100-occupancy-lesson.csv.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
export PATH="$PATH:/usr/local/cuda/bin"
ws=${1:-build-gpu/app/cli/warpscope}
command -v ncu > /dev/null || { echo "probe-occupancy-lesson: ncu not on PATH" >&2; exit 2; }
[ -x "$ws" ] || { echo "probe-occupancy-lesson: no warpscope at $ws" >&2; exit 2; }
echo "smem_kib,block,warps_per_sm,cold_us,dram_read_sectors,dram_write_sectors"
for cfg in "120 256 8" "100 256 16" "64 256 24" "48 256 32" "32 256 48" "0 256 64" "0 32 32"; do
    set -- $cfg
    csv=$(ncu --clock-control none --cache-control all --csv --page raw \
              --metrics gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum \
              "$ws" run occupancy-and-latency --param SMEM="$1" --param BLOCK="$2" --backend gpu 2> /dev/null)
    # Row 1: names, row 2: units, row 3: the launch. Pick the columns by name.
    echo "$csv" | grep '^"' | awk -F'","' -v s="$1" -v b="$2" -v w="$3" '
        NR == 1 { for (i = 1; i <= NF; ++i) { gsub(/"/, "", $i); col[$i] = i } }
        NR == 2 { for (i = 1; i <= NF; ++i) { gsub(/"/, "", $i); unit[i] = $i } }
        NR == 3 { for (i = 1; i <= NF; ++i) { gsub(/"/, "", $i); gsub(/,/, "", $i) }
                  t = $col["gpu__time_duration.sum"]; u = unit[col["gpu__time_duration.sum"]]
                  if (u == "nsecond" || u == "ns") t = t / 1000; else if (u == "msecond" || u == "ms") t = t * 1000
                  printf "%s,%s,%s,%.3f,%s,%s\n", s, b, w, t, $col["dram__sectors_read.sum"], $col["dram__sectors_write.sum"] }'
done
