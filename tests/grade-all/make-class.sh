#!/usr/bin/env bash
# Makes a class of N submissions for warpscope grade-all, one folder per student, from an
# exercise's model solution, starter and the wrong answers under tests/exercises (round robin, so
# a class of 300 holds each many times). With --unique each file gets a comment naming its student,
# so no two files are the same text and every compile misses the cache (a cold class).
# usage: tests/grade-all/make-class.sh LESSON/ID N OUT_DIR [--unique]
set -euo pipefail
ex=$1; n=$2; out=$3; unique=${4:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
lesson=${ex%%/*}; id=${ex#*/}
answers=("$root/lessons/$lesson/exercises/$id/solution.cu" "$root/lessons/$lesson/exercises/$id/solution.cu"
         "$root/lessons/$lesson/exercises/$id/starter.cu")
for w in "$root"/tests/exercises/"$lesson"/"$id"/wrong-*.cu; do answers+=("$w"); done
rm -rf "$out"; mkdir -p "$out"
for ((i = 0; i < n; i++)); do
  d=$(printf "%s/student-%03d" "$out" "$i"); mkdir "$d"
  src=${answers[$((i % ${#answers[@]}))]}
  if [ "$unique" = "--unique" ]; then
    { printf '// student-%03d, submitted for %s\n' "$i" "$ex"; cat "$src"; } > "$d/kernel.cu"
  else
    cp "$src" "$d/kernel.cu"
  fi
done
echo "$n submissions in $out (${#answers[@]} distinct answers, round robin)"
