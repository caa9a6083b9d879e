#!/bin/sh
# Renders one screenshot per lesson for the README gallery: docs/screenshots/lesson-<id>.png.
# Each is the lesson's key step with its step actions done (--text-step K --do-step), rendered by
# warpscope-gui under Xvfb at 1600x1000 and scaled to 1200x750 with a 256-colour palette
# (ImageMagick, where installed). Then the README's exercise screenshots,
# docs/screenshots/exercise-<name>.png: a file graded in the app (--exercise --solution --grade)
# and, for a failed one, "Show why" of one criterion (--show-why NAME), at 1600x1000 in 256
# colours (the app.screenshot.exercise.* tests render the same views and check their sidecars).
#   scripts/lesson-gallery.sh [build-dir]        (default: build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
gui=$build/app/gui/warpscope-gui
out=$root/docs/screenshots
[ -x "$gui" ] || { echo "no $gui: build the app first" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "xvfb-run is needed (apt-get install xvfb)" >&2; exit 1; }
export WARPSCOPE_LESSONS=$root/lessons WARPSCOPE_NO_SETTINGS=1 LIBGL_ALWAYS_SOFTWARE=1
# lesson id, the step shown (1-based)
while read -r id step; do
  [ -n "$id" ] || continue
  png=$out/lesson-$id.png
  xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --lesson "$id" --text-step "$step" --do-step \
    --screenshot "$png" --size 1600x1000 >/dev/null
  rm -f "$png.json"
  if command -v convert >/dev/null; then convert "$png" -resize 1200x750 -strip -colors 256 "PNG8:$png"; fi
  echo "wrote $png"
done <<LIST
vector-add 3
divergence 2
coalescing 1
stencil-1d 3
matmul 2
bank-conflicts 3
reduction 5
occupancy-and-latency 1
streams-overlap 3
streams-advanced 2
convolution-2d 6
histogram 3
prefix-scan 4
spmv 2
stencil-3d 5
merge 3
tensor-cores 3
radix-sort 3
bfs 2
async-copy 4
cooperative-groups 2
LIST
# Exercises: paths relative to the repository, as a learner's are.
cd "$root"
# name, lesson, exercise, file, the criterion Show why explains ("-": none)
while read -r name lesson ex file why; do
  [ -n "$name" ] || continue
  png=$out/exercise-$name.png
  set -- --lesson "$lesson" --exercise "$ex" --solution "$file" --grade
  [ "$why" = "-" ] || set -- "$@" --show-why "$why"
  xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" "$@" --screenshot "$png" --size 1600x1000 >/dev/null
  rm -f "$png.json"
  if command -v convert >/dev/null; then convert "$png" -strip -colors 256 "PNG8:$png"; fi
  echo "wrote $png"
done <<LIST
failed bank-conflicts pad-the-tile lessons/bank-conflicts/exercises/pad-the-tile/starter.cu bank
passed bank-conflicts pad-the-tile lessons/bank-conflicts/exercises/pad-the-tile/solution.cu -
why-sectors coalescing thread-mapping tests/exercises/coalescing/thread-mapping/wrong-stride-two.cu sectors
why-race reduction shuffle tests/exercises/reduction/shuffle/wrong-no-barrier.cu racecheck
why-divergence divergence warp-uniform tests/exercises/divergence/warp-uniform/wrong-half-warps.cu divergent
LIST
