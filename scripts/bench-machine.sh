#!/usr/bin/env bash
# The issue-17 speed figures on a many-core machine (the GPU machine's 16 cores), for the README:
# the one-core lines pinned to one CPU, Timed mode pinned to another at the same time, 2 threads
# pinned to two CPUs, and the all-cores lines for 1, 2, 4, 8 and 16 threads. With OLD (another
# build's warpscope binary) every pinned measurement alternates old and new, in one call, so that
# the machine's drift between runs (its one-core figures move by up to 1.5x) falls on both alike.
#
#   scripts/bench-machine.sh NEW_WARPSCOPE [OLD_WARPSCOPE] [RESULTS_DIR]
#   (build one with: cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPSCOPE_TESTS=OFF
#    && cmake --build build-gpu --target warpscope; on a machine without the Debian packages, run
#    scripts/carry-deps.sh here first and carry .carry)
# Needs taskset and at least 7 CPUs (it uses CPUs 2, 3 and 6). Prints everything and keeps it in
# RESULTS_DIR (default /tmp/bench-machine): sim-pinned.txt, timed.txt, two.txt, scaling.txt.
set -u
new=${1:?usage: scripts/bench-machine.sh NEW_WARPSCOPE [OLD_WARPSCOPE] [RESULTS_DIR]}
old=${2:-}
R=${3:-/tmp/bench-machine}
mkdir -p "$R"
[ -x "$new" ] || { echo "bench-machine.sh: $new is not an executable" >&2; exit 1; }
[ -z "$old" ] || [ -x "$old" ] || { echo "bench-machine.sh: $old is not an executable" >&2; exit 1; }
command -v taskset >/dev/null || { echo "bench-machine.sh: needs taskset (util-linux)" >&2; exit 1; }
[ "$(nproc)" -ge 7 ] || { echo "bench-machine.sh: needs at least 7 CPUs (uses 2, 3 and 6); this machine has $(nproc)" >&2; exit 1; }
builds="new"; [ -n "$old" ] && builds="old new"
bin() { if [ "$1" = old ]; then echo "$old"; else echo "$new"; fi; }
t0=$(date +%s); step() { echo "[$(($(date +%s) - t0)) s] $*"; }
lscpu | grep -E "Model name|^CPU\(s\)|Thread|L3" > "$R/cpu.txt"
step "Timed mode on CPU 6 while the one-core lines run on CPU 2"
( for i in 1 2; do for b in $builds; do echo "== $b $i"; taskset -c 6 "$(bin $b)" bench --only timed; done; done > "$R/timed.txt" 2>&1 ) &
for i in 1 2 3; do for b in $builds; do echo "== $b pinned $i"; taskset -c 2 "$(bin $b)" bench --threads 1 --only sim; done; done > "$R/sim-pinned.txt" 2>&1
wait
step "2 threads pinned to CPUs 2 and 3"
for i in 1 2 3; do for b in $builds; do echo "== $b $i"; taskset -c 2,3 "$(bin $b)" bench --threads 2 --only sim,all-cores; done; done > "$R/two.txt" 2>&1
step "all cores: 1, 2, 4, 8, 16 threads (new)"
for t in 1 2 4 8 16; do echo "== threads $t"; "$new" bench --only all-cores --threads $t | grep all_cores; done > "$R/scaling.txt" 2>&1
step done
for f in cpu.txt sim-pinned.txt timed.txt two.txt scaling.txt; do echo "######## $f"; grep -vE "^# (warpscope bench|vector add N)" "$R/$f"; done
