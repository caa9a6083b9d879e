#!/usr/bin/env bash
# Multi-core scaling of the simulator (issue 17): `warpscope bench --threads T` for T = 1 2 4 8 16
# (full sizes, medians of 3), printing the one-core and all-cores lines of each run and the
# speed-up of the all-cores lines over T=1. Run on the 16-core GPU machine:
#   scripts/bench-scaling.sh [path/to/warpscope] > bench-scaling.txt   (QUICK=1: small sizes, a smoke test)
set -euo pipefail
ws=${1:-build/app/cli/warpscope}
declare -A base
for t in 1 2 4 8 16; do
    out=$("$ws" bench ${QUICK:+--quick} --threads "$t")
    echo "## --threads $t"
    echo "$out" | grep -E '^(vector_add_sim|matmul_tiled_sim|vector_add_timed|matmul_tiled_timed)'
    for k in vector_add_sim_all_cores matmul_tiled_sim_all_cores; do
        v=$(echo "$out" | awk -v k="$k:" '$1 == k { print $2 }')
        [ "$t" = 1 ] && base[$k]=$v
        awk -v k="$k" -v v="$v" -v b="${base[$k]}" -v t="$t" 'BEGIN { printf "speedup %s: %.2fx on %d threads\n", k, v / b, t }'
    done
done
