#!/usr/bin/env bash
# scripts/e2e.sh with E2E_STORIES=python and an interpreter that imports neither torch nor
# pytest: exit 77, the SKIPPED line naming the interpreter and the packages, and nothing made in
# the work directory (the story did not start).
# Usage: python_skip.sh SOURCE_DIR GRIDLOCK
set -euo pipefail
src=$(realpath "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-python-skip-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "python_skip: FAIL: $*" >&2; exit 1; }

rc=0
E2E_STORIES=python E2E_SKIP_BUILD=1 GRIDLOCK="$2" E2E_DIR="$tmp/work" PYTHON=/bin/false \
  bash "$src/scripts/e2e.sh" >"$tmp/out" 2>&1 || rc=$?
cat "$tmp/out"
[ "$rc" = 77 ] || fail "exit $rc, expected 77"
want="e2e-python: SKIPPED: the Python story did not run: torch.distributed and pytest are not"
want="$want both importable by /bin/false (scripts/setup.sh installs python3-torch and"
want="$want python3-pytest; or set PYTHON)"
[ "$(cat "$tmp/out")" = "$want" ] || fail "the output is not the one SKIPPED line"
[ ! -e "$tmp/work" ] || fail "the skipped story made $tmp/work"
echo "python_skip: OK"
