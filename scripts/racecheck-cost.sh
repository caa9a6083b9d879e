#!/usr/bin/env bash
# What racecheck costs on the bundled lessons: the simulated kernels' time (sum of the launches'
# elapsed_ms, best of 3) and the process's peak memory (max RSS) without and with
# --check racecheck, and the largest global-memory race shadow of any launch. Prints a Markdown
# table (docs/validation.md keeps the last one). Extra arguments go to every run, e.g.
#   scripts/racecheck-cost.sh build
#   scripts/racecheck-cost.sh build matmul --param M=256 --param N=256 --param K=256
set -euo pipefail
build=${1:-build}
shift || true
cli="$build/app/cli/warpscope"
export WARPSCOPE_LESSONS=${WARPSCOPE_LESSONS:-lessons}
lessons=()
extra=()
if [ $# -gt 0 ]; then lessons=("$1"); shift; extra=("$@"); else for d in lessons/*/; do lessons+=("$(basename "$d")"); done; fi

# Kernel milliseconds (best of 3), max RSS in KiB, and the JSON of the last run.
measure() {
  local best="" rss=0 tf ms kb
  tf=$(mktemp)
  for _ in 1 2 3; do
    /usr/bin/time -o "$tf" -f "%M" "$cli" run "$@" --json > "$tf.json" 2> /dev/null || true
    kb=$(tail -1 "$tf")
    ms=$(grep -oE '"elapsed_ms": [0-9.e+-]+' "$tf.json" | awk '{ s += $2 } END { printf "%.3f", s }')
    if [ -z "$best" ] || awk "BEGIN{exit !($ms < $best)}"; then best=$ms; fi
    if [ "$kb" -gt "$rss" ]; then rss=$kb; fi
  done
  shadow=$(grep -oE '"race_shadow_bytes": [0-9]+' "$tf.json" | grep -oE '[0-9]+$' || echo 0)
  reports=$(grep -c '"tool": "racecheck"' "$tf.json" || true)
  rm -f "$tf" "$tf.json"
  echo "$best $rss ${shadow:-0} ${reports:-0}"
}

echo "| lesson | kernels off (ms) | kernels racecheck (ms) | slowdown | RSS off (MiB) | RSS racecheck (MiB) | global shadow (MiB) | racecheck reports |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for id in "${lessons[@]}"; do
  read -r t0 m0 _ _ < <(measure "$id" "${extra[@]}")
  read -r t1 m1 sh r < <(measure "$id" "${extra[@]}" --check racecheck)
  awk -v id="$id ${extra[*]}" -v t0="$t0" -v t1="$t1" -v m0="$m0" -v m1="$m1" -v sh="$sh" -v r="$r" 'BEGIN {
    printf "| %s | %.1f | %.1f | %.2fx | %.0f | %.0f | %.1f | %s |\n", id, t0, t1, (t0 > 0 ? t1 / t0 : 0), m0 / 1024, m1 / 1024, sh / 1048576, r }'
done
