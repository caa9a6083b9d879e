#!/usr/bin/env bash
# The app's frame time on a real GL driver, on a machine with no X server, no GLFW, no glvnd and no
# packages (the H100 machine): builds warpscope-framebench from the carried folder that
# scripts/carry-gui-deps.sh made, renders the app's frames offscreen through NVIDIA's EGL (device
# platform, an FBO as the target) and prints the frame times for 1600x1000 and 1920x1080 at UI
# scale 1 and 1.5, with the simulation paused and running (vector-add, N=262144: 1024 blocks).
#
#   scripts/device-framebench.sh [CARRY_DIR] [BUILD_DIR]     (defaults .carry/gui, build-framebench)
#   env: FRAMES (default 120), EGL_CHOICE=auto|device|surfaceless|default (the bench's --egl-platform,
#        default auto: a GPU device first), VENDOR=nvidia|mesa (mesa: a dry run on a Mesa machine; the GL renderer
#        then need not be NVIDIA), OUT (if set, the screenshots and the log are copied there)
#
# Prints ldd of the binary, the glibc version, the EGL and GL vendor/renderer strings and one
# "median frame time" line per run; every failure says what is missing and exits non-zero.
set -uo pipefail
cd "$(dirname "$0")/.."
carry="$(cd "${1:-.carry/gui}" 2>/dev/null && pwd)" || { echo "device-framebench.sh: no carried folder '${1:-.carry/gui}' (make it with scripts/carry-gui-deps.sh and carry it)" >&2; exit 1; }
build="${2:-build-framebench}"
frames="${FRAMES:-120}"
vendor="${VENDOR:-nvidia}"
egl_choice="${EGL_CHOICE:-auto}"
log="$(mktemp)"
fail() { echo "device-framebench.sh: FAILED: $*" >&2; [ -n "${OUT:-}" ] && cp "$log" "$OUT/framebench.log" 2>/dev/null; exit 1; }
say() { echo "$*" | tee -a "$log"; }

say "== machine"
say "$(uname -srm); $(nproc) cores"
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
[ -n "$glibc" ] || glibc=$(ldd --version 2>/dev/null | head -1 | grep -o '[0-9]\+\.[0-9]\+$')
say "glibc: ${glibc:-unknown}"
[ -r /etc/os-release ] && say "os: $(. /etc/os-release; echo "${PRETTY_NAME:-?}")"
command -v nvidia-smi >/dev/null && say "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
say "compiler: $(${CXX:-c++} --version 2>/dev/null | head -1)"; say "cmake: $(cmake --version 2>/dev/null | head -1)"

say "== carried files ($carry)"
for f in MANIFEST lib/libimgui.a lib/libstb.a lib/libEGL.so.1 lib/libOpenGL.so.0 lib/libGLdispatch.so.0 lib/libGL.so.1 lib/libGLX.so.0 \
         include/imgui/imgui.h include/GL/glext.h include/nlohmann/json.hpp egl_vendor.d/10_nvidia.json egl_vendor.d/50_mesa.json fonts/DejaVuSans.ttf; do
  [ -e "$carry/$f" ] || fail "the carried folder lacks $f (rerun scripts/carry-gui-deps.sh and carry .carry/gui)"
done
say "$(head -1 "$carry/MANIFEST")"
needed=$(awk '$1 == "GLIBC_NEEDED" {print $2}' "$carry/MANIFEST")
if [ -n "$glibc" ] && [ -n "$needed" ] && [ "$(printf '%s\n%s\n' "$needed" "$glibc" | sort -V | head -1)" != "$needed" ]; then
  fail "the carried glvnd/X11 libraries need glibc >= $needed, this machine has $glibc"
fi
say "the carried libraries need glibc >= $needed: ok"

case "$vendor" in
  nvidia) vendor_json="$carry/egl_vendor.d/10_nvidia.json"; vendor_lib=libEGL_nvidia.so.0 ;;
  mesa) vendor_json="$carry/egl_vendor.d/50_mesa.json"; vendor_lib=libEGL_mesa.so.0 ;;
  *) fail "VENDOR must be nvidia or mesa, not '$vendor'" ;;
esac
# The driver's EGL library is the machine's (found by the dynamic loader: ld.so.cache or the
# driver's folder), never carried.
where=$(ldconfig -p 2>/dev/null | awk -v l="$vendor_lib" '$1 == l {print $NF; exit}')
if [ -z "$where" ]; then
  for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/nvidia/lib64 /usr/lib; do
    [ -e "$d/$vendor_lib" ] && { where="$d/$vendor_lib"; break; }
  done
fi
[ -n "$where" ] || fail "no $vendor_lib on this machine (the NVIDIA driver's EGL library: the container needs the 'graphics' driver capability)"
say "EGL vendor library: $where"
extra_ld=""
case "$where" in /usr/lib/x86_64-linux-gnu/*|/lib/x86_64-linux-gnu/*|/usr/lib64/*|/usr/lib/*) ;; *) extra_ld=":$(dirname "$where")" ;; esac
[ "$vendor" = nvidia ] && for c in libnvidia-eglcore.so libnvidia-glcore.so libnvidia-glsi.so; do
  ldconfig -p 2>/dev/null | grep -q "$c" || ls /usr/lib/x86_64-linux-gnu/$c.* >/dev/null 2>&1 || say "warning: no $c* found (the driver's GL core; EGL may fail)"
done

say "== build ($build)"
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DWARPSCOPE_FRAMEBENCH_ONLY=ON -DWARPSCOPE_TESTS=OFF \
      -DWARPSCOPE_CARRIED_GUI="$carry" -DWARPSCOPE_CARRIED_INCLUDE="$carry/include" >>"$log" 2>&1 \
  || { tail -30 "$log" >&2; fail "cmake could not configure the frame bench (see above)"; }
cmake --build "$build" -j"$(nproc)" --target warpscope-framebench >>"$log" 2>&1 \
  || { grep -E "error|Error" "$log" | tail -30 >&2; fail "the frame bench did not build (see above)"; }
bin="$build/app/gui/warpscope-framebench"
[ -x "$bin" ] || fail "no $bin after the build"

# Only the carried folder on the library path, no display: what the bench may use.
unset DISPLAY WAYLAND_DISPLAY
export LD_LIBRARY_PATH="$carry/lib$extra_ld"
export __EGL_VENDOR_LIBRARY_FILENAMES="$vendor_json"
export WARPSCOPE_NO_SETTINGS=1
say "== ldd $bin (LD_LIBRARY_PATH=$LD_LIBRARY_PATH)"
ldd "$bin" | tee -a "$log"
ldd "$bin" | grep -q "not found" && fail "the frame bench's libraries are not all found (above)"
ldd "$carry/lib/libGL.so.1" | grep "not found" && fail "libGL.so.1 (dlopened by ImGui's GL loader) misses libraries (above)"

say "== EGL and GL"
shots="${OUT:-$build}"
probe=$("$bin" --egl-platform "$egl_choice" --fonts "$carry/fonts" --lesson vector-add --steps 40 --size 1600x1000 \
        --screenshot "$shots/framebench-$vendor.png" 2>&1)
rc=$?
echo "$probe" | tee -a "$log"
[ $rc -eq 0 ] || fail "the frame bench could not render offscreen (exit $rc; its messages are above)"
renderer=$(echo "$probe" | sed -n 's/^GL_RENDERER: //p')
if [ "$vendor" = nvidia ] && ! echo "$renderer" | grep -qi nvidia; then
  fail "GL_RENDERER is '$renderer', not NVIDIA's: the frames would not be measured on the GPU"
fi

say "== frame times (vector-add, N=262144: 1024 blocks; $frames frames after 5 warm-up frames; whole frame ends with glFinish)"
for size in 1600x1000 1920x1080; do
  for scale in 1 1.5; do
    for mode in paused running; do
      run=(); [ "$mode" = running ] && run=(--bench-run)
      res=$("$bin" --egl-platform "$egl_choice" --fonts "$carry/fonts" --lesson vector-add --param N=262144 --size "$size" --scale "$scale" \
            --bench-frames "$frames" "${run[@]}" 2>&1)
      rc=$?
      [ $rc -eq 0 ] || { echo "$res" >&2; fail "the $size scale $scale $mode run exited with $rc"; }
      say "-- $size scale $scale $mode"
      echo "$res" | grep -E "^(offscreen:|median frame time|frame time p90)" | tee -a "$log"
    done
  done
done
if [ -n "${OUT:-}" ]; then cp "$log" "$OUT/framebench.log"; fi
say "device-framebench.sh: done"
