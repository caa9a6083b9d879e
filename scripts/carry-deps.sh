#!/usr/bin/env bash
# Copies the header-only dependencies (nlohmann-json, Catch2 v2) from this machine's Debian
# packages into .carry/include, for building the engine, CLI and tests on a machine that has
# only a compiler, CMake and the CUDA toolkit (the GPU machine). CMake finds them there by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .carry/include
cp -r /usr/include/nlohmann .carry/include/
cp -r /usr/include/catch2 .carry/include/
echo "carried: $(du -sh .carry | cut -f1) in .carry/include"
