#!/usr/bin/env bash
# gridlock's Python frontend on Megatron-LM, the codebase issue 29 names, at the three commits
# of its process-group migration, beside the checker of Megatron-LM PR #6258:
#   1. fetch Megatron-LM (a bare, blobless clone under $MEGATRON_WORK; or MEGATRON_GIT, an
#      existing clone or mirror) and unpack each commit's tree, and the checker from the PR head;
#   2. run tests/python/megatron_ratchet_test.cpp on each tree: rules/megatron-core-ratchet.json
#      against the checker's scan(), site by site (file, line, kind, accessor), and
#      rules/megatron-core.json's counts; tests/python/megatron_gate_test.cpp (the gate from a
#      .gridlock.json on a copy of the tree: baseline, a new read, an allowed one, SARIF); at
#      bf71c142 also tests/python/megatron_test.cpp (callers of TELinear's tp_group);
#   3. the same through the binary, as a user runs it (no -p): `gridlock scan --rules
#      megatron-core-ratchet TREE`, whose total must be the checker's; `gridlock scan --rules
#      megatron-core TREE`, whose extras scripts/megatron_extras.py prints by category; and
#      `gridlock gate --rules megatron-core` with a baseline written by --update, then SARIF.
# Prints each tree's totals. Exit 0 when every comparison holds, 1 when one fails, 2 when
# something could not run. The sources stay under $MEGATRON_WORK, outside the repository.
#
# Environment: BUILD_DIR (gridlock's build, default build), MEGATRON_WORK (default
# $BUILD_DIR/megatron), MEGATRON_GIT (a local clone or mirror to read the commits from),
# MEGATRON_URL (default https://github.com/NVIDIA/Megatron-LM.git).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD_DIR=${BUILD_DIR:-build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
WORK=${MEGATRON_WORK:-$BUILD_DIR/megatron}
URL=${MEGATRON_URL:-https://github.com/NVIDIA/Megatron-LM.git}
TEST="$BUILD_DIR/tests/python/python_megatron_test"
GRIDLOCK=${GRIDLOCK:-$BUILD_DIR/tool/cli/gridlock}
CHECKER_COMMIT=9bc342067d56acaa0d45f9de0f37484ab436c141  # refs/pull/6258/head
COMMITS="bf71c142b5b563af7348b55a692450869f47d734 3f4234deeb221dffe036e5786c9124fe09cbca07
d98e8a64ddf34856e74b24714e3bedb2f5a39553"

[ -x "$TEST" ] || { echo "megatron-check: no $TEST (cmake --build $BUILD_DIR --target python_megatron_test)" >&2; exit 2; }
mkdir -p "$WORK"
GIT=${MEGATRON_GIT:-$WORK/megatron.git}
if [ -z "${MEGATRON_GIT:-}" ]; then
  [ -d "$GIT" ] || git clone -q --bare --filter=blob:none "$URL" "$GIT" || exit 2
  git --git-dir="$GIT" fetch -q origin $COMMITS "+refs/pull/6258/head:refs/pr/6258" || exit 2
fi
for c in $COMMITS $CHECKER_COMMIT; do
  git --git-dir="$GIT" cat-file -e "$c^{commit}" 2>/dev/null || { echo "megatron-check: $GIT lacks $c" >&2; exit 2; }
done
CHECKER="$WORK/check_process_group_usage.py"
git --git-dir="$GIT" show "$CHECKER_COMMIT:tools/check_process_group_usage.py" > "$CHECKER" || exit 2

status=0
for c in $COMMITS; do
  tree="$WORK/megatron-${c:0:8}"
  if [ ! -d "$tree/megatron/core" ]; then
    rm -rf "$tree.partial" && mkdir -p "$tree.partial"
    git --git-dir="$GIT" archive "$c" | tar -x -C "$tree.partial" || exit 2
    mv "$tree.partial" "$tree"
  fi
  filter='MegatronRatchet.*:MegatronGate.*'
  [ "${c:0:8}" = bf71c142 ] && filter="$filter:MegatronCallers.*"
  echo "== Megatron-LM ${c:0:8}"
  if ! GRIDLOCK_MEGATRON_LM="$tree" GRIDLOCK_MEGATRON_COMMIT="${c:0:8}" \
      GRIDLOCK_MEGATRON_CHECKER="$CHECKER" \
      "$TEST" --gtest_filter="$filter" --gtest_brief=1 | grep -v '^Running main'; then
    status=1
  fi
  [ -x "$GRIDLOCK" ] || { echo "megatron-check: no $GRIDLOCK" >&2; exit 2; }
  cp "$CHECKER" "$tree/tools/check_process_group_usage.py"  # it scans the tree it sits in
  # All of its output read (no `| head`: a checker writing into a closed pipe fails the run).
  stats=$(cd "$tree" && python3 tools/check_process_group_usage.py --stats) || exit 2
  checker=$(printf '%s\n' "$stats" | sed -n '1s/ .*//p')
  for pack in megatron-core-ratchet megatron-core; do
    "$GRIDLOCK" scan -q --rules $pack --root "$tree" --cache-dir "$WORK/cache" --format json \
        "$tree" > "$WORK/$pack-${c:0:8}.json" || exit 2
  done
  ours=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["total"])' \
         "$WORK/megatron-core-ratchet-${c:0:8}.json")
  echo "gridlock scan --rules megatron-core-ratchet: $ours; the checker's --stats: $checker"
  [ "$ours" = "$checker" ] || status=1
  # What the gate pack counts beyond the ratchet, by category (docs/real-codebases.md).
  python3 scripts/megatron_extras.py "$WORK/megatron-core-ratchet-${c:0:8}.json" \
      "$WORK/megatron-core-${c:0:8}.json" || status=1
  base="$WORK/baseline-${c:0:8}.json"
  rm -f "$base"
  "$GRIDLOCK" gate -q --rules megatron-core --root "$tree" --cache-dir "$WORK/cache" \
      --baseline "$base" --update > /dev/null || status=1
  if "$GRIDLOCK" gate -q --rules megatron-core --root "$tree" --cache-dir "$WORK/cache" \
      --baseline "$base" --format sarif -o "$WORK/gate-${c:0:8}.sarif"; then
    echo "gridlock gate --rules megatron-core: passes against its baseline ($WORK/gate-${c:0:8}.sarif)"
  else
    status=1
  fi
done
exit $status
