#!/bin/sh
# Renders assets/icons/warpscope.svg to the hicolor PNG sizes committed beside it (the build
# needs no SVG tool). Run after editing the SVG: sh assets/icons/gen-png.sh (needs rsvg-convert,
# Debian package librsvg2-bin).
set -eu
here=$(dirname "$0")
for size in 16 22 24 32 48 64 128 256 512; do
  mkdir -p "$here/hicolor/${size}x${size}/apps"
  rsvg-convert -w "$size" -h "$size" "$here/warpscope.svg" -o "$here/hicolor/${size}x${size}/apps/warpscope.png"
done
