#!/usr/bin/env bash
# The timing model against the real GPU: every lesson at a size that fills the GPU, predicted
# time per launch (H100 preset) next to the measured median of 20 runs, and the rank correlation
# per lesson (each lesson's launches are a family of variants). Run on the GPU machine:
#   scripts/time-compare.sh [build-dir] [output.md]
set -uo pipefail
build=${1:-build-gpu}
out=${2:-docs/time-compare.md}
cli="$build/app/cli/warpscope"
families=(
  "vector-add --param N=16777216"
  "divergence"
  "coalescing --param N=1048576 --param OFFSET=1 --param STRIDE=4"
  "stencil-1d --param N=4194304"
  "matmul --param M=512 --param N=512 --param K=512"
  "bank-conflicts --param ROWS=2048 --param COLS=2048"
  "reduction --param BLOCKS=4096"
  "tests/validation/textbook.json"
)
{
  echo "Recorded $(date -u +%Y-%m-%d) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); registers per thread estimated (32) unless stated."
  for f in "${families[@]}"; do
    echo
    echo "### ${f}"
    echo
    # shellcheck disable=SC2086
    "$cli" time-compare $f --repeat 20 2>&1 | tail -n +2
  done
} > "$out"
echo "wrote $out"
