#!/usr/bin/env bash
# The Python story on fixtures/pymodel, on CPU (torch.distributed over gloo), as scripts/e2e.sh
# tells the C++ one:
#   1. copy the fixture twice (baseline, change);
#   2. scan the baseline and gate it against fixtures/pymodel/gridlock-baseline.json;
#   3. `gridlock rewrite --apply` the change copy (the rewritten tree is a test output only);
#   4. `gridlock pair`: run the pytest suite of both trees with 2 and 4 ranks
#      (fixtures/pymodel/run_tests.sh: one JUnit XML per rank), compare test by test;
#   5. scan the change and print the verdict (scripts/e2e_verdict.py): the four bug tests move
#      from failing to passing, no test regresses, and the global-read count drops.
# Exit 0 when all of that holds, 1 when the check fails, 2 when something could not run, 77
# when torch or pytest is not importable (nothing ran: the story is skipped, and says so).
# docs/fixtures.md explains the fixture and the output.
#
# Environment: BUILD_DIR (gridlock's build, default build), GRIDLOCK (the binary), E2E_DIR (work
# directory, default $BUILD_DIR/e2e-python), E2E_RANKS (default "2 4"), E2E_SKIP_BUILD=1 (use
# the gridlock binary as it is), PYTHON (the interpreter run_tests.sh uses).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK_NAME=e2e-python
. scripts/e2e_common.sh  # ROOT, BUILD_DIR, GRIDLOCK, WORK, RANKS; say, build_gridlock, run_pair
FIXTURE="$ROOT/fixtures/pymodel"
RULES="$FIXTURE/gridlock.json"
GATE_BASELINE="$FIXTURE/gridlock-baseline.json"
BUG_TESTS="tests.test_vision.test_bug_encoder_on_own_grid_uses_own_tp_group
tests.test_vision.test_bug_encoder_on_own_grid_splits_over_own_cp_group
tests.test_grad_norm.test_bug_expert_grads_filtered_by_expert_tp_group
tests.test_attention.test_bug_first_model_keeps_its_kv_heads"

die() { echo "e2e-python: error: $*" >&2; exit 2; }
build_gridlock

# The suite needs torch and pytest, in the interpreter run_tests.sh picks (the same candidates).
python=""
candidates=(python3 /usr/bin/python3)
[ -n "${PYTHON:-}" ] && candidates=("$PYTHON")
for candidate in "${candidates[@]}"; do
  if "$candidate" -c 'import torch.distributed, pytest' >/dev/null 2>&1; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "e2e-python: SKIPPED: the Python story did not run: torch.distributed and pytest are not" \
    "both importable by ${candidates[*]} (scripts/setup.sh installs python3-torch and" \
    "python3-pytest; or set PYTHON)" >&2
  exit 77
fi

say "preparing $WORK/{baseline,change} from fixtures/pymodel"
rm -rf "$WORK"
mkdir -p "$WORK/baseline" "$WORK/change"
for tree in baseline change; do
  tar -C "$FIXTURE" --exclude=__pycache__ --exclude=.gridlock-cache -cf - . |
    tar -C "$WORK/$tree" -xf -
done

# 2. Scan and gate the baseline (no compile database: the pack's scope names the files).
SCAN=(--rules "$RULES" --cache-dir "$WORK/cache")
say "gridlock scan (baseline)"
"$GRIDLOCK" scan "${SCAN[@]}" --root "$WORK/baseline" --format json \
  -o "$WORK/scan-baseline.json" || die "scan of the baseline failed"
"$GRIDLOCK" gate "${SCAN[@]}" --root "$WORK/baseline" --baseline "$GATE_BASELINE" ||
  die "the baseline does not pass its own gate ($GATE_BASELINE)"

# 3. Rewrite the change copy.
say "gridlock rewrite --apply (change)"
rc=0
(cd "$WORK/change" && "$GRIDLOCK" rewrite "${SCAN[@]}" --root . --apply) || rc=$?
[ "$rc" = 0 ] || die "gridlock rewrite exited with status $rc"
diff -ru "$WORK/baseline" "$WORK/change" >"$WORK/rewrite.diff" || true
if [ ! -s "$WORK/rewrite.diff" ]; then
  echo "e2e-python: gridlock rewrite changed nothing" >&2
else
  echo "the rewrite ($WORK/rewrite.diff):"
  cat "$WORK/rewrite.diff"
fi

# 4. Pair: each tree runs its own copy of run_tests.sh; each rank count writes under its own
# directory (np2/rank0/pymodel_test.xml, ...), and a test fails when it fails at any rank count
# on any rank.
TEST_CMD="PYTHON=$python; export PYTHON; rc=0;"
for n in $RANKS; do
  TEST_CMD="$TEST_CMD ./run_tests.sh $n \"\$GRIDLOCK_RESULTS_DIR/np$n\" || rc=1;"
done
TEST_CMD="$TEST_CMD exit \$rc"
say "gridlock pair (the pytest suite of both trees with ${RANKS// /, } ranks)"
echo "(test output: $WORK/pair.log)"
run_pair --test "$TEST_CMD" --timeout 1200
rc=$PAIR_RC

# 5. The change's inventory, and the verdict.
say "gridlock scan (change)"
"$GRIDLOCK" scan "${SCAN[@]}" --root "$WORK/change" --format json \
  -o "$WORK/scan-change.json" || die "scan of the change failed"

say "e2e verdict (Python)"
exec python3 "$ROOT/scripts/e2e_verdict.py" "$WORK" "$rc" $BUG_TESTS
