#!/usr/bin/env bash
# Runs every lesson on the simulator and on the real GPU (warpscope compare) and writes the
# results as Markdown: run on the GPU machine from the repository root after building the CLI.
#   scripts/compare-lessons.sh [build-dir] [output.md]
set -uo pipefail
build=${1:-build-gpu}
out=${2:-docs/compare-lessons.md}
cli="$build/app/cli/warpscope"
{
  echo "Recorded $(date -u +%Y-%m-%d) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)."
  echo
  for l in lessons/*/; do
    [ -f "$l/lesson.json" ] || continue
    echo "### $(basename "$l")"
    echo '```'
    "$cli" compare "${l%/}" 2>&1 | sed -n '1,/^  launches/p' | sed '$d'
    "$cli" run "${l%/}" --backend gpu 2>&1 | grep -E "launch|check"
    echo '```'
  done
} > "$out"
echo "wrote $out"
