#!/usr/bin/env bash
# The main job on the bundled example: scan the fixture codebase (fixtures/scan), show its
# inventory, and gate it against its committed baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh gridlock >/dev/null  # the tool; fixtures/scan's database is configured
BUILD_DIR=${BUILD_DIR:-build}
GRIDLOCK="$BUILD_DIR/tool/cli/gridlock"
ARGS=(-p "$BUILD_DIR/fixtures/scan" --rules fixtures/scan/gridlock.json --root fixtures/scan)
echo "== gridlock scan (fixtures/scan) =="
"$GRIDLOCK" scan "${ARGS[@]}"
echo "== gridlock gate --baseline fixtures/scan/gridlock-baseline.json =="
"$GRIDLOCK" gate "${ARGS[@]}" --baseline fixtures/scan/gridlock-baseline.json
