#!/usr/bin/env bash
# The main job builds only what it runs: scripts/e2e.sh and scripts/demo.sh build the
# `gridlock` target, not the test suite (scripts/test.sh builds everything). A stand-in `cmake`
# on PATH records how each script calls it; each script then stops at its first gridlock run.
# Usage: build_targets.sh SOURCE_DIR
set -euo pipefail
src=$(realpath "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-build-targets-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "build_targets: FAIL: $*" >&2; exit 1; }

mkdir "$tmp/bin"
cat >"$tmp/bin/cmake" <<'END'
#!/bin/sh
printf '%s\n' "$*" >>"$CMAKE_LOG"
END
chmod +x "$tmp/bin/cmake"

# What a script's `cmake --build` line was, with the build directory named B.
build_line() { sed -n "s|^--build $1|--build B|p" "$2"; }

export PATH="$tmp/bin:$PATH" JOBS=2
rc=0
CMAKE_LOG=$tmp/e2e.log BUILD_DIR=$tmp/e2e GRIDLOCK=$tmp/no-gridlock \
  bash "$src/scripts/e2e.sh" >"$tmp/e2e.out" 2>&1 || rc=$?
grep -q "no gridlock binary at $tmp/no-gridlock" "$tmp/e2e.out" ||
  { cat "$tmp/e2e.out"; fail "e2e.sh did not stop at the missing binary (exit $rc)"; }
[ "$(build_line "$tmp/e2e" "$tmp/e2e.log")" = "--build B -j 2 --target gridlock" ] ||
  fail "e2e.sh builds: '$(build_line "$tmp/e2e" "$tmp/e2e.log")'"

rc=0
CMAKE_LOG=$tmp/demo.log BUILD_DIR=$tmp/demo bash "$src/scripts/demo.sh" >"$tmp/demo.out" 2>&1 ||
  rc=$?
[ "$rc" != 0 ] || fail "demo.sh ran a gridlock that was never built"
[ "$(build_line "$tmp/demo" "$tmp/demo.log")" = "--build B -j 2 --target gridlock" ] ||
  fail "demo.sh builds: '$(build_line "$tmp/demo" "$tmp/demo.log")'"
echo "build_targets: OK"
