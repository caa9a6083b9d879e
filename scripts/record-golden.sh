#!/usr/bin/env bash
# Records the golden hardware results: runs every tests/golden/*/spec.json on a real GPU through
# the warpscope CLI and keeps each buffer's final bytes, so the simulator can be checked against
# hardware later on machines without a GPU.
#
# Run from the repository root on the GPU machine:
#   scripts/record-golden.sh                       # results go into tests/golden/<name>/hw/
#   scripts/record-golden.sh --out "$OUT/rec"      # same layout under another root
#   scripts/record-golden.sh --tar "$OUT/golden.tar.gz"   # also pack everything into one file
#   scripts/record-golden.sh --only f32-ieee --only warp-vote
#
# Options and environment:
#   --out DIR | WARPSCOPE_GOLDEN_OUT   root to write tests/golden/... under (default: the repo)
#   --tar PATH | WARPSCOPE_GOLDEN_TAR  also write a .tar.gz of every hw/ folder and MANIFEST.txt
#   --build-dir DIR | WARPSCOPE_BUILD_DIR   CMake build folder (default: build-gpu)
#   --skip-build                        use an existing build
#   --only NAME                         record only this kernel (repeatable)
#   CMAKE_PREFIX_PATH, WARPSCOPE_DEPS   where header-only dependencies (nlohmann-json, Catch2)
#                                       were carried to; WARPSCOPE_DEPS is added to both the
#                                       prefix path and the include path
#
# Writes, per kernel: tests/golden/<name>/hw/<buffer>.bin (raw little-endian bytes) and run.log;
# and tests/golden/MANIFEST.txt (GPU, driver, nvcc, date, PTX checksums, pass/fail per kernel).
# Exit status: 0 when every spec ran, 1 when any failed, 2 on bad usage or a failed build.
set -u -o pipefail

usage() { sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; }

repo=$(pwd)
if [[ ! -d "$repo/tests/golden" || ! -f "$repo/CMakeLists.txt" ]]; then
    echo "record-golden: run this from the repository root (tests/golden and CMakeLists.txt not found in $repo)" >&2
    exit 2
fi

out_root=${WARPSCOPE_GOLDEN_OUT:-$repo}
tar_path=${WARPSCOPE_GOLDEN_TAR:-}
build_dir=${WARPSCOPE_BUILD_DIR:-build-gpu}
skip_build=0
only=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) out_root=$2; shift 2 ;;
        --tar) tar_path=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --skip-build) skip_build=1; shift ;;
        --only) only+=("$2"); shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "record-golden: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$out_root" || exit 2
out_root=$(cd "$out_root" && pwd)

# ---- build the CLI -------------------------------------------------------------------------
cli="$build_dir/app/cli/warpscope"
if [[ $skip_build -eq 0 ]]; then
    prefix=${CMAKE_PREFIX_PATH:-}
    cxxflags=${CXXFLAGS:-}
    if [[ -n "${WARPSCOPE_DEPS:-}" ]]; then
        deps=$(cd "$WARPSCOPE_DEPS" && pwd)
        prefix="$deps${prefix:+;$prefix}"
        cxxflags="$cxxflags -isystem $deps/include -isystem $deps"
    fi
    echo "== configuring $build_dir"
    CXXFLAGS="$cxxflags" cmake -S . -B "$build_dir" -DWARPSCOPE_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
        ${prefix:+"-DCMAKE_PREFIX_PATH=$prefix"} || { echo "record-golden: cmake configure failed" >&2; exit 2; }
    echo "== building warpscope"
    cmake --build "$build_dir" -j "$(nproc 2>/dev/null || echo 4)" --target warpscope ||
        { echo "record-golden: build failed" >&2; exit 2; }
fi
if [[ ! -x "$cli" ]]; then
    echo "record-golden: $cli not found or not executable" >&2
    exit 2
fi

# ---- machine description -------------------------------------------------------------------
gpu="unknown (nvidia-smi not found)"
driver="unknown"
if command -v nvidia-smi >/dev/null 2>&1; then
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
    driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)
fi
nvcc_version="not installed"
if command -v nvcc >/dev/null 2>&1; then
    nvcc_version=$(nvcc --version | grep -i release | head -n1)
fi
checksum() { if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1; else cksum "$1" | cut -d' ' -f1; fi; }

# ---- run every spec ------------------------------------------------------------------------
manifest="$out_root/tests/golden/MANIFEST.txt"
mkdir -p "$out_root/tests/golden"
results=()
failed=0
ran=0
for spec in tests/golden/*/spec.json; do
    name=$(basename "$(dirname "$spec")")
    if [[ ${#only[@]} -gt 0 ]]; then
        keep=0
        for o in "${only[@]}"; do [[ "$o" == "$name" ]] && keep=1; done
        [[ $keep -eq 1 ]] || continue
    fi
    hw="$out_root/tests/golden/$name/hw"
    rm -rf "$hw"
    mkdir -p "$hw"
    echo "== $name"
    ran=$((ran + 1))
    if "$cli" run "$spec" --backend gpu --save-all "$hw" >"$hw/run.log" 2>&1; then
        n=$(find "$hw" -name '*.bin' | wc -l)
        results+=("$name ok ($n buffers) ptx-sha256=$(checksum "tests/golden/$name/kernel.ptx")")
        echo "   ok, $n buffers"
    else
        rc=$?
        failed=$((failed + 1))
        results+=("$name FAILED (exit $rc, see $name/hw/run.log) ptx-sha256=$(checksum "tests/golden/$name/kernel.ptx")")
        echo "   FAILED (exit $rc):"
        tail -n 5 "$hw/run.log" | sed 's/^/     /'
    fi
done
if [[ $ran -eq 0 ]]; then
    echo "record-golden: no spec matched" >&2
    exit 2
fi

{
    echo "warpscope golden hardware results"
    echo "gpu: $gpu"
    echo "driver: $driver"
    echo "nvcc: $nvcc_version"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -srm)"
    echo "cli: $cli"
    echo "kernels: $ran run, $failed failed"
    echo
    printf '%s\n' "${results[@]}"
} >"$manifest"
echo "== wrote $manifest"

# ---- optional single-file bundle (the device tool brings back only a few files) ------------
if [[ -n "$tar_path" ]]; then
    mkdir -p "$(dirname "$tar_path")"
    tar_abs="$(cd "$(dirname "$tar_path")" && pwd)/$(basename "$tar_path")"
    (cd "$out_root" && tar -czf "$tar_abs" tests/golden/MANIFEST.txt $(cd "$out_root" && ls -d tests/golden/*/hw 2>/dev/null)) ||
        { echo "record-golden: could not write $tar_abs" >&2; exit 1; }
    echo "== packed $tar_abs (unpack at the repository root with: tar -xzf $(basename "$tar_path"))"
fi

[[ $failed -eq 0 ]] || { echo "record-golden: $failed of $ran kernels failed" >&2; exit 1; }
exit 0
