#!/usr/bin/env bash
# Configures and builds into ${BUILD_DIR:-build} with clang++-19 and Ninja: every target, or
# only the targets named (`./scripts/build.sh gridlock`: the tool without the test suite).
# Usage: build.sh [TARGET...]
# Environment: BUILD_DIR, BUILD_TYPE, JOBS, CMAKE_ARGS (more -D options for the first configure,
# split at spaces: scripts/wheel.sh's build)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # ccache, when installed, makes rebuilds in other checkouts and build directories cheap.
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  read -ra extra <<<"${CMAKE_ARGS:-}"
  cmake -S . -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 "${launcher[@]}" "${extra[@]}" >/dev/null
fi
targets=()
[ $# -gt 0 ] && targets=(--target "$@")
cmake --build "$BUILD_DIR" -j "${JOBS:-$(nproc)}" "${targets[@]}"
