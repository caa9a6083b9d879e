#!/bin/sh
# Renders the README's exercise screenshots: docs/screenshots/exercise-<name>.png. Each grades a
# file in the app (--exercise --solution --grade) and, for a failed one, does "Show why" of one
# criterion (--show-why NAME), under Xvfb at 1600x1000 (the app.screenshot.exercise.* tests render
# the same views and check their sidecars), reduced to 256 colours with ImageMagick where installed. Paths are relative to the repository, as a learner's are.
#   scripts/exercise-gallery.sh [build-dir]        (default: build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
gui=$build/app/gui/warpscope-gui
out=$root/docs/screenshots
[ -x "$gui" ] || { echo "no $gui: build the app first" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "xvfb-run is needed (apt-get install xvfb)" >&2; exit 1; }
export WARPSCOPE_LESSONS=$root/lessons WARPSCOPE_NO_SETTINGS=1 LIBGL_ALWAYS_SOFTWARE=1
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
