#!/bin/sh
# Issue 16's timing goals on the whole realistic suite, replayed from the H100's recordings in
# tests/validation/timing/realistic/ (no GPU; about 3 minutes of one core).
#   scripts/timing-goals.sh [build-dir] [more time-compare options, e.g. --warm]
# Prints every launch (predicted, cold, warm), per family the rank agreement, the share within
# 35 % and the worst ratio, and whether the goals are met (exit 0) or not (exit 5).
set -e
build=${1:-build}
[ $# -gt 0 ] && shift
rec=tests/validation/timing/realistic
exec "$build/app/cli/warpscope" time-compare tests/validation/realistic.json \
    --measured "$rec/warm.json" --cold "$rec/cold.csv" --goals "$@"
