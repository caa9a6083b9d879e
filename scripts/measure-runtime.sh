#!/usr/bin/env bash
# Measures the host runtime of the GPU in this machine (copy bandwidth and latency, launch and
# graph costs) with scripts/runtime-probe.cu and writes the JSON the H100 preset's runtime numbers
# come from. Run on a machine with a GPU and nvcc:
#   scripts/measure-runtime.sh [out.json]     (default tests/validation/runtime/h100-probe.json)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/tests/validation/runtime/h100-probe.json}"
nvcc="${NVCC:-nvcc}"
command -v "$nvcc" >/dev/null || { echo "measure-runtime: nvcc not found (set NVCC)" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -O2 -o "$tmp/probe" "$here/scripts/runtime-probe.cu"
"$tmp/probe" > "$out"
echo "wrote $out"
