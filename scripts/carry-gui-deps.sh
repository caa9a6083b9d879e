#!/usr/bin/env bash
# Makes .carry/gui: what the offscreen frame bench (warpscope-framebench) needs to build and run on
# a machine with a GPU driver but no desktop packages, no glvnd loader and no network (the H100
# machine; scripts/device-framebench.sh uses it there). From this machine's Debian 12 packages:
#   include/  Dear ImGui 1.86 headers (libimgui-dev), stb_image_write.h (libstb-dev), the Khronos GL
#             headers (GL/gl.h, GL/glext.h, KHR/khrplatform.h), nlohmann/json.hpp
#   lib/      libimgui.a and libstb.a (linked in at build time), and glvnd's loaders found at run time:
#             libEGL.so.1, libOpenGL.so.0, libGLdispatch.so.0, and libGL.so.1 + libGLX.so.0 with their
#             X11 libraries, because ImGui's OpenGL3 loader dlopens libGL.so.1 and asks
#             glXGetProcAddressARB (glvnd answers from libGLdispatch for the context EGL made current;
#             no X server is contacted)
#   egl_vendor.d/10_nvidia.json  glvnd's EGL vendor file naming NVIDIA's libEGL_nvidia.so.0 (the
#             driver's own library, mounted on the GPU machine, not carried); 50_mesa.json for a dry
#             run here
#   fonts/    the DejaVu fonts the app draws with (fonts-dejavu-core), so the frames are the same
#   MANIFEST  every file, its size, and the newest glibc symbol version each library needs
# Usage: scripts/carry-gui-deps.sh [DIR]   (default .carry/gui; about 9 MiB)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.carry/gui}"
libdir=/usr/lib/x86_64-linux-gnu

fail() { echo "carry-gui-deps.sh: $*" >&2; exit 1; }
need() { [ -e "$1" ] || fail "missing $1 (${2}; scripts/setup.sh installs it)"; }

need /usr/include/imgui/imgui.h "libimgui-dev"
need /usr/include/imgui/backends/imgui_impl_opengl3.h "libimgui-dev"
need "$libdir/libimgui.a" "libimgui-dev"
need /usr/include/stb/stb_image_write.h "libstb-dev"
need "$libdir/libstb.a" "libstb-dev"
need /usr/include/GL/gl.h "libgl-dev"
need /usr/include/GL/glext.h "libgl-dev"
need /usr/include/KHR/khrplatform.h "libegl-dev / libgl-dev"
need /usr/include/nlohmann/json.hpp "nlohmann-json3-dev"
runtime=(libEGL.so.1 libOpenGL.so.0 libGLdispatch.so.0 libGL.so.1 libGLX.so.0
         libX11.so.6 libxcb.so.1 libXau.so.6 libXdmcp.so.6 libbsd.so.0 libmd.so.0)
for l in "${runtime[@]}"; do need "$libdir/$l" "glvnd / X11 runtime library"; done
fonts=(DejaVuSans.ttf DejaVuSansMono.ttf DejaVuSans-Bold.ttf DejaVuSans-Oblique.ttf)
for f in "${fonts[@]}"; do need "/usr/share/fonts/truetype/dejavu/$f" "fonts-dejavu-core"; done

rm -rf "$out"
mkdir -p "$out/include/GL" "$out/include/KHR" "$out/lib" "$out/egl_vendor.d" "$out/fonts"
cp -r /usr/include/imgui "$out/include/"
cp /usr/include/stb/stb_image_write.h "$out/include/"
cp /usr/include/GL/gl.h /usr/include/GL/glext.h "$out/include/GL/"
cp /usr/include/KHR/khrplatform.h "$out/include/KHR/"
cp -r /usr/include/nlohmann "$out/include/"
cp "$libdir/libimgui.a" "$libdir/libstb.a" "$out/lib/"
for l in "${runtime[@]}"; do cp -L "$libdir/$l" "$out/lib/$l"; done
for f in "${fonts[@]}"; do cp "/usr/share/fonts/truetype/dejavu/$f" "$out/fonts/"; done
printf '{\n  "file_format_version" : "1.0.0",\n  "ICD" : { "library_path" : "libEGL_nvidia.so.0" }\n}\n' > "$out/egl_vendor.d/10_nvidia.json"
printf '{\n  "file_format_version" : "1.0.0",\n  "ICD" : { "library_path" : "libEGL_mesa.so.0" }\n}\n' > "$out/egl_vendor.d/50_mesa.json"

# Every carried library must load with nothing else: its needs are carried or in glibc.
for l in "${runtime[@]}"; do
  missing=$(LD_LIBRARY_PATH="$out/lib" ldd "$out/lib/$l" | awk '/=>/ && $3 !~ "^'"$out"'/lib/" && $1 !~ /^(libc|libm|libdl|libpthread|librt)\.so/ {print $1" -> "$3}')
  [ -z "$missing" ] || fail "$l needs libraries that are not carried: $missing"
done

{
  echo "# carried by scripts/carry-gui-deps.sh on $(date -u +%Y-%m-%dT%H:%MZ) from $(. /etc/os-release; echo "$PRETTY_NAME"), $(ldd --version | head -1)"
  echo "# path bytes newest-glibc-symbol"
  (cd "$out" && find . -type f ! -name MANIFEST | sort | while read -r f; do
     g=""
     case "$f" in *.so.*) g=$(objdump -T "$f" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1);; esac
     echo "${f#./} $(stat -c %s "$f") $g"
   done)
} > "$out/MANIFEST"
need_glibc=$(awk '$3 ~ /^GLIBC_/ {print substr($3, 7)}' "$out/MANIFEST" | sort -V | tail -1)
echo "GLIBC_NEEDED $need_glibc" >> "$out/MANIFEST"
echo "carried: $(du -sh "$out" | cut -f1) in $out (the runtime libraries need glibc >= $need_glibc)"
