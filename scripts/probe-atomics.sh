#!/usr/bin/env bash
# Measures global-atomic throughput (one hot line, k lanes per address, RED vs ATOM, how many hot
# lines, no sharing, one warp alone) and DRAM bandwidth against bytes in flight on the GPU of this
# machine, with tests/validation/probes/atomics_probe.cu. The cycle model's atomic and
# loaded-latency parameters come from its output. Run on a machine with a GPU and nvcc:
#   scripts/probe-atomics.sh [out.csv]    (default tests/validation/timing/probes/h100-atomics.csv)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/tests/validation/timing/probes/h100-atomics.csv}"
nvcc="${NVCC:-nvcc}"
command -v "$nvcc" >/dev/null || { echo "probe-atomics: nvcc not found (set NVCC)" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -O2 -arch=sm_90 -o "$tmp/probe" "$here/tests/validation/probes/atomics_probe.cu"
mkdir -p "$(dirname "$out")"
"$tmp/probe" | tee "$out"
echo "wrote $out" >&2

# Nsight Compute's sector count per request for the first six configurations (one hot line,
# k = 1..32 lanes per address, RED): shows that sectors are counted per pass.
if command -v ncu >/dev/null; then
    sectors="${out%.csv}-sectors.txt"
    ncu -k atomRed --launch-count 48 --csv \
        --metrics l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum \
        "$tmp/probe" 2>/dev/null | grep '"atomRed' | awk -F'","' '{print $(NF-2), $NF}' | tr -d '"' > "$sectors"
    echo "wrote $sectors (launches in order: k = 1, 2, 4, 8, 16, 32, eight launches each)" >&2
fi
