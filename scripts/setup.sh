#!/usr/bin/env bash
# Installs everything warpscope needs on Debian 12 (bookworm), from Debian's own packages:
# compiler and build tools, GLFW, Dear ImGui (with its GLFW/OpenGL3 backends), glm, stb,
# nlohmann-json, Catch2, a font, Xvfb + Mesa for headless GUI tests and screenshots (openbox and
# xdotool drive the real app under Xvfb as a user does) (Mesa's EGL for
# the offscreen frame bench's test: app.framebench.*), and clang
# with its libFuzzer runtime for the fuzz tests and LLVM's OpenMP runtime (whole programs whose
# host code uses OpenMP); desktop-file-utils, appstream and dpkg-dev (with
# file) for the install and .deb tests (app/packaging). The web build (scripts/build-web.sh,
# docs/web.md): emscripten, chromium for its tests, and a deb-src entry for Debian's own mirror so
# that build-web.sh can fetch Dear ImGui's source package (apt-get source imgui).
# Safe to run again: apt-get skips what is installed. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libglfw3-dev libimgui-dev libglm-dev libstb-dev nlohmann-json3-dev catch2
  libgl1-mesa-dev libgl1-mesa-dri mesa-utils xvfb xauth
  openbox xdotool x11-apps
  libegl-mesa0 libegl-dev
  fonts-dejavu-core
  clang libclang-rt-14-dev libomp-14-dev
  desktop-file-utils appstream dpkg-dev file
  bubblewrap
  emscripten chromium
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "setup.sh: need root (or sudo) to install: ${packages[*]}" >&2; exit 1; fi
}

# Source packages (Dear ImGui's .cpp files for the web build) come from the same mirror as the
# binary ones: a deb-src entry beside the deb entries, written once.
src_list=/etc/apt/sources.list.d/warpscope-deb-src.sources
need_update=0
if ! grep -rqs '^\(Types:.*deb-src\|deb-src \)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | grep -v security | grep -m1 debian | awk '{print $2}' || true)
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  if [ -z "$uri" ]; then
    uri=$(grep -hs '^deb ' /etc/apt/sources.list | grep -v security | grep -m1 debian | awk '{print $2}' || true)
  fi
  uri=${uri:-http://deb.debian.org/debian}
  echo "setup.sh: adding a deb-src entry for $uri $suite ($src_list)"
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$uri" "$suite" | as_root tee "$src_list" >/dev/null
  need_update=1
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  [ "$need_update" -eq 0 ] || as_root apt-get update -q
  echo "setup.sh: all packages already installed"
  exit 0
fi
echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -q
as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
