#!/usr/bin/env bash
# Multi-core scaling of the simulator (issue 17): `warpscope bench --threads T` for T = 1 2 4 8 16
# (full sizes, medians of 3), printing the one-core lines once (functional, native, timed) and the
# all-cores lines for each T with their speed-up over T=1. Run on the 16-core GPU machine:
#   scripts/bench-scaling.sh [path/to/warpscope] > bench-scaling.txt   (QUICK=1: small sizes, a smoke test)
set -euo pipefail
ws=${1:-build/app/cli/warpscope}
echo "## one core"
"$ws" bench ${QUICK:+--quick} --only sim,timed
declare -A base
for t in 1 2 4 8 16; do
    out=$("$ws" bench ${QUICK:+--quick} --only all-cores --threads "$t")
    echo "## --threads $t"
    echo "$out" | grep -E '_all_cores:'
    for k in vector_add_sim_all_cores matmul_tiled_sim_all_cores; do
        v=$(echo "$out" | awk -v k="$k:" '$1 == k { print $2 }')
        [ "$t" = 1 ] && base[$k]=$v
        awk -v k="$k" -v v="$v" -v b="${base[$k]}" -v t="$t" 'BEGIN { printf "speedup %s: %.2fx on %d threads\n", k, v / b, t }'
    done
done
