#!/usr/bin/env bash
# Paired A/B of two warpscope builds: `bench` of OLD and NEW run one after the other, PAIRS times
# (pinned to one CPU with taskset when the machine has one to spare), and for every figure the
# median of the pairs' new/old ratios, with the smallest and largest ratio. A machine's drift
# between runs falls on both builds of a pair alike, so the ratios are steadier than either side.
#
#   scripts/bench-pairs.sh OLD_WARPSCOPE NEW_WARPSCOPE [PAIRS] [bench options...]
#   e.g. scripts/bench-pairs.sh /tmp/old/build/app/cli/warpscope build/app/cli/warpscope 8 --threads 1
#
# Prints each run's figures (old and new, pair by pair) and then the table. Higher is faster: a
# ratio above 1 means NEW runs more thread-instructions per second than OLD.
set -u
old=${1:?usage: scripts/bench-pairs.sh OLD_WARPSCOPE NEW_WARPSCOPE [PAIRS] [bench options...]}
new=${2:?usage: scripts/bench-pairs.sh OLD_WARPSCOPE NEW_WARPSCOPE [PAIRS] [bench options...]}
pairs=${3:-8}
shift $(( $# < 3 ? $# : 3 ))
for b in "$old" "$new"; do [ -x "$b" ] || { echo "bench-pairs.sh: $b is not an executable" >&2; exit 1; }; done
case $pairs in ''|*[!0-9]*) echo "bench-pairs.sh: PAIRS must be a whole number, got '$pairs'" >&2; exit 1 ;; esac
pin=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 4 ]; then pin=(taskset -c 2); fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((i = 1; i <= pairs; i++)); do
    # Alternate which build goes first, so neither always runs on a machine warmed by the other.
    if ((i % 2)); then order="old new"; else order="new old"; fi
    for which in $order; do
        bin=$old; [ "$which" = new ] && bin=$new
        "${pin[@]}" "$bin" bench "$@" > "$out/$which.$i" 2>&1 || { echo "bench-pairs.sh: $which bench failed:" >&2; cat "$out/$which.$i" >&2; exit 1; }
        echo "== pair $i, $which"
        grep -E '^[a-z_]+: [0-9]+ thread-instructions/s' "$out/$which.$i"
    done
done
echo
echo "figure | median new/old | min | max | pairs"
for fig in $(grep -hoE '^[a-z_]+(: [0-9]+ thread-instructions/s)' "$out"/old.1 | cut -d: -f1); do
    ratios=()
    for ((i = 1; i <= pairs; i++)); do
        o=$(grep -E "^$fig: " "$out/old.$i" | awk '{print $2}')
        n=$(grep -E "^$fig: " "$out/new.$i" | awk '{print $2}')
        [ -n "$o" ] && [ -n "$n" ] && [ "$o" != 0 ] && ratios+=("$(awk -v a="$n" -v b="$o" 'BEGIN{printf "%.4f", a/b}')")
    done
    [ ${#ratios[@]} -eq 0 ] && continue
    printf '%s\n' "${ratios[@]}" | sort -g | awk -v f="$fig" '{r[NR]=$1} END{m = (NR % 2) ? r[(NR+1)/2] : (r[NR/2] + r[NR/2+1]) / 2; printf "%s | %.3f | %.3f | %.3f | %d\n", f, m, r[1], r[NR], NR}'
done
