#!/usr/bin/env bash
# The timing model against the real GPU: every lesson at a size that fills the GPU, plus the
# textbook kernels of the memory validation and the Best Practices Guide's matrix multiplies;
# predicted time per launch (H100 preset, registers per thread as the driver reports them) next
# to the measured median of 20 back-to-back launches after a warm-up, and the rank correlation
# per family (each lesson's launches are a family of variants).
#   scripts/time-compare.sh [build-dir] [output.md]             on the GPU machine: measures, and
#                                                               keeps each family's measurement in
#                                                               tests/validation/timing/
#   scripts/time-compare.sh --replay [build-dir] [output.md]    anywhere: the model's predictions
#                                                               against those recorded measurements
set -uo pipefail
replay=0
if [ "${1:-}" = "--replay" ]; then replay=1; shift; fi
build=${1:-build-gpu}
out=${2:-docs/time-compare.md}
cli="$build/app/cli/warpscope"
rec=tests/validation/timing
mkdir -p "$rec"
families=(
  "vector-add --param N=16777216"
  "divergence --param N=1048576"
  "coalescing --param N=1048576 --param OFFSET=1 --param STRIDE=4"
  "stencil-1d --param N=4194304"
  "matmul --param M=512 --param N=512 --param K=512"
  "bank-conflicts --param ROWS=2048 --param COLS=2048"
  "reduction --param BLOCKS=4096"
  "tests/validation/textbook.json"
  "tests/validation/bpg_matmul.json --param M=1024 --param N=1024"
)
slug() { basename "${1%% *}" .json; }
{
  if [ $replay = 1 ]; then
    echo "Measured $(cat "$rec/RECORDED.txt" 2>/dev/null || echo '(date unknown)'); predictions from this build's model."
  else
    stamp="$(date -u +%Y-%m-%d) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    echo "$stamp" > "$rec/RECORDED.txt"
    echo "Measured $stamp; predictions from this build's model."
  fi
  for f in "${families[@]}"; do
    echo
    echo "### ${f}"
    echo
    name=$(slug "$f")
    if [ $replay = 1 ]; then
      # shellcheck disable=SC2086
      "$cli" time-compare $f --measured "$rec/$name.json" 2>&1 | tail -n +2
    else
      # shellcheck disable=SC2086
      "$cli" time-compare $f --repeat 20 --save-json "$rec/$name.json" 2>&1 | tail -n +2
    fi
  done
} > "$out"
echo "wrote $out"
