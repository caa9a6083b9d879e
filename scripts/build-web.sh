#!/usr/bin/env bash
# Builds the web app (docs/web.md) into build-web/web/: index.html and two programs linked from the
# same objects,
#   warpscope.js, .wasm, .worker.js, .data     threads (a cross-origin isolated page: warpscope serve)
#   warpscope-st.js, .wasm, .data              one thread (any other page; index.html picks it)
# Needs Debian's emscripten and a deb-src entry (scripts/setup.sh arranges both); Dear ImGui's
# sources come from Debian's source package (apt-get source imgui), unpacked once into
# build-web/_deps. Nothing else is downloaded.
#   scripts/build-web.sh            configure (first time) and build both
#   scripts/build-web.sh --if-possible
#                                   as the native build's `web` target calls it: where emscripten or
#                                   Dear ImGui's source package cannot be had, say so and succeed
#                                   (the desktop build goes on; the web tests then say the page is missing)
#   WEB_BUILDS=threads|single       link only one of them (default: both)
#   BUILD_WEB_DIR=DIR JOBS=N ...    another build folder, N parallel jobs (default 2)
#   WEB_UNITY=1 WEB_OPT=-O1 ...     when a folder is configured: a unity build (CMake joins each
#                                   target's sources into a few files) and/or another optimisation
#                                   level than Release's -O3 (docs/web.md, "What CI runs": the cold
#                                   build's time with each)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${BUILD_WEB_DIR:-$root/build-web}
jobs=${JOBS:-2}
missing_status=1
if [ "${1:-}" = --if-possible ]; then missing_status=0; shift; fi
if ! command -v emcmake >/dev/null || ! command -v em++ >/dev/null; then
  echo "build-web.sh: emscripten is not installed (Debian: apt-get install emscripten; scripts/setup.sh): no web build" >&2
  exit $missing_status
fi
# Debian's emcc runs its JavaScript optimizer with node, which must find Debian's node modules
# (acorn) even when another node is first on PATH.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

deps="$out/_deps"
mkdir -p "$deps"
imgui=$(find "$deps" -maxdepth 1 -type d -name 'imgui-*' | head -n1)
if [ -z "$imgui" ] || [ ! -f "$imgui/imgui.cpp" ]; then
  echo "build-web.sh: fetching Dear ImGui's source package (apt-get source imgui) into $deps"
  if ! (cd "$deps" && apt-get source -q imgui); then
    echo "build-web.sh: 'apt-get source imgui' failed: is there a deb-src entry? (scripts/setup.sh adds one): no web build" >&2
    exit $missing_status
  fi
  imgui=$(find "$deps" -maxdepth 1 -type d -name 'imgui-*' | head -n1)
fi
# Header-only dependencies from Debian's packages, in a folder of their own (the emscripten
# sysroot must not see /usr/include as a whole).
inc="$deps/include"
mkdir -p "$inc"
for need in /usr/include/nlohmann /usr/include/stb/stb_image_write.h; do
  [ -e "$need" ] || { echo "build-web.sh: $need is missing (scripts/setup.sh installs nlohmann-json3-dev and libstb-dev)" >&2; exit 1; }
  ln -sfn "$need" "$inc/$(basename "$need")"
done

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
if [ ! -f "$out/build.ninja" ]; then
  # Threads (pthreads) and C++ exceptions in every object (the single-thread program links the
  # same objects without -pthread: web.cmake gives each program its link options); the engine's
  # AVX2 paths are x86-64 only and drop out by themselves; compat.hpp fills
  # what emscripten 3.1.6's C++ library lacks (std::bit_cast). Exceptions are emscripten's
  # JavaScript-based ones: Debian's 3.1.6 has no threaded libc++abi for -fwasm-exceptions, and with
  # -pthread a catch clause there matches nothing (a std::exception handler misses every throw).
  extra=()
  case ${WEB_UNITY:-0} in 0) ;; 1) extra+=(-DCMAKE_UNITY_BUILD=ON) ;; *) echo "build-web.sh: WEB_UNITY is 0 or 1" >&2; exit 2 ;; esac
  case ${WEB_OPT:-} in
    "") ;;
    -O0|-O1|-O2|-O3|-Os|-Oz) extra+=("-DCMAKE_CXX_FLAGS_RELEASE=${WEB_OPT} -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=${WEB_OPT} -DNDEBUG") ;;
    *) echo "build-web.sh: WEB_OPT is one of -O0 -O1 -O2 -O3 -Os -Oz" >&2; exit 2 ;;
  esac
  emcmake cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPSCOPE_TESTS=OFF "${extra[@]}" \
    -DWARPSCOPE_IMGUI_SRC="$imgui" -DWARPSCOPE_CARRIED_INCLUDE="$inc" \
    -DCMAKE_CXX_FLAGS="-pthread -fexceptions -include $root/app/gui/web/compat.hpp" -DCMAKE_C_FLAGS="-pthread" \
    -DCMAKE_EXE_LINKER_FLAGS="-pthread -fexceptions" "${launcher[@]}"
fi
targets=()
case ${WEB_BUILDS:-threads,single} in
  threads) targets=(warpscope-web) ;;
  single) targets=(warpscope-web-st) ;;
  threads,single|single,threads) targets=(warpscope-web warpscope-web-st) ;;
  *) echo "build-web.sh: WEB_BUILDS is threads, single or threads,single" >&2; exit 2 ;;
esac
cmake --build "$out" --target "${targets[@]}" -j"$jobs"
echo "build-web.sh: the page is in $out/web (serve it with: warpscope serve --web $out/web)"
