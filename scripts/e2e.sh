#!/usr/bin/env bash
# The whole story on fixtures/model, on CPU (Open MPI):
#   1. copy the fixture twice (baseline, change) and configure both as standalone projects;
#   2. scan the baseline and gate it against fixtures/model/gridlock-baseline.json;
#   3. `gridlock rewrite --apply` the change copy (the rewritten tree is a test output only);
#   4. `gridlock pair`: build both trees with one command, run the suite under mpirun with
#      2 and 4 ranks (one GoogleTest JSON per rank), compare test by test;
#   5. scan the change and print the verdict: the three bug tests move from failing to passing,
#      no test regresses or crashes, and the global-read count drops.
# Then the Python story on fixtures/pymodel, the same steps with its pytest suite
# (scripts/e2e-python.sh, in $E2E_DIR/python).
# Exit 0 when all of that holds, 1 when the check fails, 2 when something could not run (no
# `gridlock rewrite`, a failed build, ...), 77 when the C++ story passed and the Python one was
# skipped (torch or pytest not importable: it says so). docs/fixtures.md explains the fixtures
# and the output.
#
# Environment: BUILD_DIR (gridlock's build, default build), GRIDLOCK (the binary), E2E_DIR (work
# directory, default $BUILD_DIR/e2e), E2E_RANKS (default "2 4"), JOBS (default 2),
# E2E_SKIP_BUILD=1 (use the gridlock binary as it is), E2E_CUDA=ON (scripts/e2e-gpu.sh),
# MPIRUN (default mpirun), E2E_STORIES (default "cpp python": which stories run).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK_NAME=e2e
. scripts/e2e_common.sh  # ROOT, BUILD_DIR, GRIDLOCK, WORK, RANKS; say, build_gridlock, run_pair
JOBS=${JOBS:-2}
CUDA=${E2E_CUDA:-OFF}
MPIRUN=${MPIRUN:-mpirun}
STORIES=" ${E2E_STORIES:-cpp python} "
RULES="$ROOT/fixtures/model/gridlock.json"
GATE_BASELINE="$ROOT/fixtures/model/gridlock-baseline.json"
BUG_TESTS="VisionLanguage.EncoderOnOwnGridUsesOwnGroups GradNorm.ExpertParamsFilteredByExpertTpGroup TwoModels.FirstModelKeepsItsKvHeads"

die() { echo "e2e: error: $*" >&2; exit 2; }
build_gridlock
command -v python3 >/dev/null || die "python3 is needed to read the JSON reports"
[[ $STORIES == *" cpp "* || $STORIES == *" python "* ]] ||
  die "E2E_STORIES names no story (cpp, python): '${E2E_STORIES:-}'"
if [[ $STORIES != *" cpp "* ]]; then
  E2E_SKIP_BUILD=1 GRIDLOCK="$GRIDLOCK" BUILD_DIR="$BUILD_DIR" exec ./scripts/e2e-python.sh
fi

# 1. Two copies of the fixture, configured the same way.
CONFIGURE="cmake -S . -B build -DGRIDLOCK_SOURCE_DIR=$ROOT -DCMAKE_BUILD_TYPE=Release -DMINIMODEL_WITH_CUDA=$CUDA"
command -v ninja >/dev/null && CONFIGURE="$CONFIGURE -G Ninja"
command -v clang++-19 >/dev/null && CONFIGURE="$CONFIGURE -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19"
BUILD_CMD="$CONFIGURE >/dev/null && cmake --build build -j $JOBS"
MPI="$MPIRUN --allow-run-as-root --oversubscribe --mca btl_vader_single_copy_mechanism none"
# Each rank count writes under its own directory (np2/rank0/model_test.json, ...); pair merges
# them: a test fails when it fails at any rank count on any rank.
TEST_CMD='rc=0;'
for n in $RANKS; do
  TEST_CMD="$TEST_CMD GRIDLOCK_RESULTS_DIR=\"\$GRIDLOCK_RESULTS_DIR/np$n\" $MPI -n $n build/model_test || rc=1;"
done
if [ "$CUDA" = ON ]; then  # the device tests need a GPU per rank: one rank
  TEST_CMD="$TEST_CMD GRIDLOCK_RESULTS_DIR=\"\$GRIDLOCK_RESULTS_DIR/np1\" $MPI -n 1 build/model_test --gtest_filter='Device.*' || rc=1;"
fi
TEST_CMD="$TEST_CMD exit \$rc"

say "preparing $WORK/{baseline,change} from fixtures/model"
rm -rf "$WORK"
mkdir -p "$WORK/baseline" "$WORK/change"
for tree in baseline change; do
  tar -C fixtures/model --exclude='./build*' -cf - . | tar -C "$WORK/$tree" -xf -
  (cd "$WORK/$tree" && eval "$CONFIGURE" >"$WORK/configure-$tree.log" 2>&1) ||
    die "configuring the $tree tree failed; see $WORK/configure-$tree.log"
done

# 2. Scan and gate the baseline.
SCAN=(--rules "$RULES" --jobs "$JOBS")
say "gridlock scan (baseline)"
"$GRIDLOCK" scan -p "$WORK/baseline/build" "${SCAN[@]}" --root "$WORK/baseline" \
  --format json -o "$WORK/scan-baseline.json" || die "scan of the baseline failed"
# Without CUDA the build leaves out the device files (device_model.cpp, device_ops.{h,cu}): the
# gate names them, as warnings, and keeps their keys; e2e-gpu.sh's build compiles them.
UNCOVERED=()
[ "$CUDA" = ON ] || UNCOVERED=(--allow-uncovered)
"$GRIDLOCK" gate -p "$WORK/baseline/build" "${SCAN[@]}" --root "$WORK/baseline" \
  --baseline "$GATE_BASELINE" "${UNCOVERED[@]}" ||
  die "the baseline does not pass its own gate ($GATE_BASELINE)"

# 3. Rewrite the change copy.
say "gridlock rewrite --apply (change)"
if ! "$GRIDLOCK" rewrite --help >/dev/null 2>&1; then
  echo "e2e: error: \`gridlock rewrite\` is not available in $GRIDLOCK;" >&2
  echo "e2e: error: without it there is no change tree to pair with the baseline. Stopping." >&2
  exit 2
fi
rc=0
(cd "$WORK/change" && "$GRIDLOCK" rewrite -p build "${SCAN[@]}" --root . --apply) || rc=$?
[ "$rc" = 0 ] || die "gridlock rewrite exited with status $rc"
diff -ru --exclude=build "$WORK/baseline" "$WORK/change" >"$WORK/rewrite.diff" || true
if [ ! -s "$WORK/rewrite.diff" ]; then
  echo "e2e: gridlock rewrite changed nothing" >&2
else
  echo "the rewrite ($WORK/rewrite.diff):"
  cat "$WORK/rewrite.diff"
fi

# 4. Pair: build both, test both, compare.
say "gridlock pair (build both trees, run the suite with ${RANKS// /, } ranks)"
echo "(build and test output: $WORK/pair.log)"
run_pair --build "$BUILD_CMD" --test "$TEST_CMD" --timeout 600
rc=$PAIR_RC

# 5. The change's inventory, and the verdict.
say "gridlock scan (change)"
"$GRIDLOCK" scan -p "$WORK/change/build" "${SCAN[@]}" --root "$WORK/change" \
  --format json -o "$WORK/scan-change.json" || die "scan of the change failed"

say "e2e verdict"
cpp_rc=0
python3 "$ROOT/scripts/e2e_verdict.py" "$WORK" "$rc" $BUG_TESTS || cpp_rc=$?
[[ $STORIES == *" python "* ]] || exit $cpp_rc

# The Python story; the worse of the two statuses (2, then 1, then 77 for a skipped story).
py_rc=0
E2E_SKIP_BUILD=1 GRIDLOCK="$GRIDLOCK" BUILD_DIR="$BUILD_DIR" E2E_DIR="$WORK/python" \
  ./scripts/e2e-python.sh || py_rc=$?
for status in 2 1 77; do
  if [ "$cpp_rc" = "$status" ] || [ "$py_rc" = "$status" ]; then exit "$status"; fi
done
[ "$cpp_rc" = 0 ] && [ "$py_rc" = 0 ] || exit 2
