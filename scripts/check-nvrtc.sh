#!/usr/bin/env bash
# Verifies the NVRTC compiler path once on a machine with a CUDA toolkit (and, if present, a GPU):
# every bundled lesson's kernel.cu is compiled by NVRTC (dlopen'ed libnvrtc), its PTX compared in
# traffic with the committed nvcc PTX (the [nvrtc] test), and each lesson run from its .cu alone
# (no kernel.ptx) on the simulator and, where a GPU works, on the GPU. The result is written to
# tests/validation/nvrtc-check.txt (commit it) and printed.
#   scripts/check-nvrtc.sh [build-dir]      (default: build; needs warpscope and warpscope_tests)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
W="$build/app/cli/warpscope"
T="$build/tests/warpscope_tests"
out="$here/tests/validation/nvrtc-check.txt"
for f in "$W" "$T"; do [ -x "$f" ] || { echo "check-nvrtc.sh: $f is not built" >&2; exit 2; }; done
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" WARPSCOPE_COMPILER=nvrtc
{
  echo "# NVRTC check (scripts/check-nvrtc.sh), $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
  echo "## compilers found"
  "$W" compile --list
  nvcc_version="$(command -v nvcc >/dev/null && nvcc --version | tail -1 || echo 'nvcc not on PATH')"
  echo "nvcc: $nvcc_version"
  echo "## [nvrtc] test: every lesson through NVRTC, traffic equal to the committed PTX"
  if "$T" "[nvrtc]" > "$tmp/test.log" 2>&1; then echo "PASS: $(grep -E "All tests passed|test cases" "$tmp/test.log" | tail -1)"; else echo "FAIL:"; tail -40 "$tmp/test.log"; fi
  grep -q "NVRTC tests skipped" "$tmp/test.log" && echo "(skipped: no libnvrtc found)"
  echo "## each lesson from its kernel.cu alone (kernel.ptx removed), compiled by NVRTC when loaded"
  for dir in "$here"/lessons/*/; do
    id="$(basename "$dir")"
    cp -r "$dir" "$tmp/$id"; rm -f "$tmp/$id/kernel.ptx"
    sim="$("$W" run "$tmp/$id" 2>&1 | grep -Eo 'PASS|FAIL|error.*' | head -1)"
    gpu="$("$W" run "$tmp/$id" --backend gpu 2>&1 | grep -Eo 'PASS|FAIL|error.*' | head -1)"
    echo "$id: simulator ${sim:-?}; gpu ${gpu:-?}"
  done
} 2>&1 | tee "$out"
echo
echo "Recorded in $out: commit it (git add tests/validation/nvrtc-check.txt)."
