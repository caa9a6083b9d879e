#!/usr/bin/env bash
# Runs every planted-bug case of tests/bugs under compute-sanitizer's four tools (on the real GPU)
# and under the simulator's checkers, and writes a Markdown table of who caught what.
# Run on the GPU machine from the repository root, after building the CLI:
#   scripts/sanitizer-compare.sh [build-dir] [output.md] [case-glob]
# Every tests/bugs/*.json is a row (new specs need no change here); a third argument picks some,
# e.g. 'global-*'. Each compute-sanitizer run is killed after SANITIZER_TIMEOUT seconds (default
# 180): some planted bugs hang a real GPU. What each tool printed is kept in <output>-logs/ (the
# first 60 lines per tool and case) so the table can be checked against the raw reports.
set -uo pipefail
build=${1:-build-gpu}
out=${2:-docs/sanitizer-comparison.md}
cases=${3:-*}
cli="$build/app/cli/warpscope"
logs="${out%.md}-logs"
mkdir -p "$logs"

# What one tool said about one case: "caught (N)", "clean", or "launch failed".
sanitize() {
  local tool=$1 spec=$2 log
  # A kernel that hangs on hardware (mismatched barrier counts) must not stop the whole table.
  log=$(timeout "${SANITIZER_TIMEOUT:-180}" compute-sanitizer --tool "$tool" --print-limit 5 "$cli" run "$spec" --backend gpu 2>&1)
  local rc=$?
  printf '%s\n' "$log" | head -60 > "$logs/$(basename "$spec" .json).$tool.txt"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then echo "hung (killed after ${SANITIZER_TIMEOUT:-180} s)"; return; fi
  local n
  n=$(printf '%s\n' "$log" | grep -oE "(ERROR SUMMARY|RACECHECK SUMMARY): [0-9]+ (errors?|hazards?)" | grep -oE "[0-9]+" | head -1)
  if printf '%s\n' "$log" | grep -q "error (fault)\|error (device)" && [ -z "$n" -o "$n" = "0" ]; then echo "launch failed"; return; fi
  if [ -n "$n" ] && [ "$n" != "0" ]; then echo "caught ($n)"; return; fi
  echo "clean"
}

{
  echo "| case | planted | memcheck | racecheck | initcheck | synccheck | warpscope |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  for spec in tests/bugs/$cases.json; do
    name=$(basename "$spec" .json)
    planted=$(grep -A2 '"planted"' "$spec" | grep -oE '"tool": "[a-z]+"' | cut -d'"' -f4)
    hazard=$(grep -A3 '"planted"' "$spec" | grep -oE '"hazard": "[^"]*"' | cut -d'"' -f4)
    row="| $name | $planted${hazard:+ ($hazard)} |"
    for tool in memcheck racecheck initcheck synccheck; do row="$row $(sanitize "$tool" "$spec") |"; done
    sim=$("$cli" run "$spec" --check initcheck,racecheck,synccheck --budget 1000000 2>&1)
    printf '%s\n' "$sim" | head -60 > "$logs/$name.warpscope.txt"
    found=$(printf '%s\n' "$sim" | grep -oE "^  (initcheck|racecheck) \([a-z -]+( \([a-z ]+\))?\)|error \((fault|deadlock|budget)\)" | head -1 | sed 's/^  //')
    row="$row ${found:-clean} |"
    echo "$row"
  done
} > "$out"
echo "wrote $out"
