# Sourced by scripts/e2e.sh and scripts/e2e-python.sh from the checkout's root: what both
# stories share. Sets ROOT, BUILD_DIR, GRIDLOCK, WORK ($E2E_DIR, default $BUILD_DIR/$WORK_NAME)
# and RANKS from the environment; the functions need the caller's `die`.
ROOT=$(pwd)
BUILD_DIR=${BUILD_DIR:-build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
GRIDLOCK=${GRIDLOCK:-$BUILD_DIR/tool/cli/gridlock}
WORK=${E2E_DIR:-$BUILD_DIR/$WORK_NAME}
case "$WORK" in /*) ;; *) WORK="$ROOT/$WORK" ;; esac
RANKS=${E2E_RANKS:-"2 4"}

say() { printf '\n== %s ==\n' "$*"; }

# Builds the tool alone, unless E2E_SKIP_BUILD=1 (the fixtures build their own copy of the
# runtime, and the test suite is scripts/test.sh's to build); dies without a binary.
build_gridlock() {
  if [ "${E2E_SKIP_BUILD:-0}" != 1 ]; then
    say "building gridlock ($BUILD_DIR)"
    BUILD_DIR="$BUILD_DIR" ./scripts/build.sh gridlock >/dev/null
  fi
  [ -x "$GRIDLOCK" ] || die "no gridlock binary at $GRIDLOCK (build it, or set GRIDLOCK)"
}

# run_pair OPTION...: `gridlock pair` of $WORK/baseline and $WORK/change with the options given
# (--test, --build, --timeout), one rerun, results kept in $WORK/results, commands' output in
# $WORK/pair.log; prints the text report and writes pair.{txt,json,markdown}. Sets PAIR_RC (0 or
# 1); dies when pair could not run.
run_pair() {
  PAIR_RC=0
  "$GRIDLOCK" pair --baseline "$WORK/baseline" --change "$WORK/change" "$@" \
    --results-dir "$WORK/results" --reruns 1 -o "$WORK/pair.txt" 2>"$WORK/pair.log" || PAIR_RC=$?
  if [ "$PAIR_RC" -gt 1 ]; then
    tail -n 40 "$WORK/pair.log" >&2
    die "gridlock pair could not run (status $PAIR_RC); see $WORK/pair.log"
  fi
  cat "$WORK/pair.txt"
  local fmt
  for fmt in json markdown; do
    "$GRIDLOCK" pair --baseline-results "$WORK/results/baseline" \
      --change-results "$WORK/results/change" --format "$fmt" -o "$WORK/pair.$fmt" || true
  done
}
