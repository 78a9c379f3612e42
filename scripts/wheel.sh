#!/usr/bin/env bash
# Builds dist/gridlock-<version>-py3-none-manylinux_2_<Y>_<arch>.whl: gridlock for Python
# projects, `pip install`ed into a virtualenv (docs/install.md). The binary is the Python build,
# `gridlock-python` (no Clang, LLVM or MPI), configured in its own build directory with
# -DGRIDLOCK_WITH_CLANG=OFF and every library but glibc linked statically
# (-DGRIDLOCK_STATIC_LIBRARIES=ON: cmake/static_libraries.cmake); scripts/wheel_pack.py checks
# what it links and the glibc it needs, which the platform tag states, and packs it with the
# rule packs, schemas, man page and licence.
# Usage: wheel.sh
# Environment: WHEEL_BUILD_DIR (default build-python), DIST_DIR (default dist), JOBS,
# GRIDLOCK_BINARY (pack this binary instead of building one: it is checked all the same).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "wheel: error: $*" >&2; exit 1; }
DIST_DIR=${DIST_DIR:-dist}
WHEEL_BUILD_DIR=${WHEEL_BUILD_DIR:-build-python}
OPTIONS="-DGRIDLOCK_WITH_CLANG=OFF -DGRIDLOCK_STATIC_LIBRARIES=ON"

if [ -z "${GRIDLOCK_BINARY:-}" ]; then
  if [ -f "$WHEEL_BUILD_DIR/CMakeCache.txt" ]; then
    # A build directory configured otherwise would pack the wrong binary: say so, not rebuild it.
    for option in $OPTIONS; do
      name=${option#-D}; name=${name%%=*}; want=${option#*=}
      grep -Eqx "$name:(BOOL|UNINITIALIZED)=$want" "$WHEEL_BUILD_DIR/CMakeCache.txt" ||
        die "$WHEEL_BUILD_DIR is not configured with $option (remove it, or set WHEEL_BUILD_DIR)"
    done
  fi
  BUILD_DIR=$WHEEL_BUILD_DIR CMAKE_ARGS=$OPTIONS ./scripts/build.sh gridlock-python
  GRIDLOCK_BINARY=$(ninja -C "$WHEEL_BUILD_DIR" -t query gridlock-python |
    awk '/^  input:/ {getline; print $1; exit}')
  [ -n "$GRIDLOCK_BINARY" ] || die "ninja names no file for the target gridlock-python"
  GRIDLOCK_BINARY=$WHEEL_BUILD_DIR/$GRIDLOCK_BINARY
fi
[ -x "$GRIDLOCK_BINARY" ] || die "$GRIDLOCK_BINARY is not an executable"

# The man page from the binary's own help, as the .deb's (cmake/man_page.cmake).
man=$(mktemp "${TMPDIR:-/tmp}/gridlock-wheel-man-XXXXXX")
trap 'rm -f "$man"' EXIT
version=$(sed -n 's/^project(gridlock VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
cmake -DGRIDLOCK="$GRIDLOCK_BINARY" -DVERSION="$version" -DOUT="$man" -P cmake/man_page.cmake

/usr/bin/python3 scripts/wheel_pack.py --binary "$GRIDLOCK_BINARY" --source . \
  --out "$DIST_DIR" --man "$man"
