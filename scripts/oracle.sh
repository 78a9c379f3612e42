#!/usr/bin/env bash
# The tool's outputs on fixed inputs, captured before a change and compared after: a refactor
# changes nothing, a named change exactly what its expectation says (docs/fixtures.md, "The
# oracle").
#   oracle.sh capture BIN OUT [fixtures] [full] [real]   stdout, stderr and status of each command
#   oracle.sh compare A B [--expect NAME]...            identical, or only the named change
#   oracle.sh metrics                                    the structure measures of this checkout
# ORACLE_WORK: a fixed directory (outputs name its paths: every capture to compare uses the same
# one); ORACLE_SOURCE: a checkout of the base commit, whose fixtures are the inputs (copied into
# ORACLE_WORK once). The real tier reads ORACLE_MEGATRON_GIT (a Megatron-LM git directory),
# ORACLE_LLMC (an llm.c checkout at f1e2ace with build/compile_commands.json; ORACLE_LLMC_ARGS,
# the --extra-arg options docs/real-codebases.md gives) and ORACLE_INFINITRAIN (a b24d92f checkout
# with build-scan/); each one unset is captured as MISSING, which fails a compare.
set -euo pipefail
export LC_ALL=C TZ=UTC NO_COLOR=1 GRIDLOCK_PROGRESS_INTERVAL=1000000
HERE=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  echo "usage: oracle.sh capture BIN OUT [fixtures] [full] [real] | compare A B [--expect NAME]..." \
    "| metrics" >&2
  exit 2
}

one() {  # one NAME DIR ARGS...: stdout, stderr and status of `$BIN ARGS` run in DIR
  local n=$1 d=$2 rc=0
  shift 2
  (cd "$d" && "$BIN" "$@" >"$OUT/$n.out" 2>"$OUT/$n.err") || rc=$?
  echo $rc >"$OUT/$n.rc"
}
missing() { echo "$1: not captured: $2" | tee "$OUT/$1.MISSING" >&2; }
three() {  # the plan as JSON, the diff, the exported fixes
  local n=$1 d=$2
  shift 2
  one "$n.plan" "$d" scan "$@" --no-cache --plan --format json
  one "$n.diff" "$d" rewrite "$@" --no-cache --diff
  # The YAML goes to one fixed path: stderr names it, and it must not name OUT.
  rm -f "$W/export.yaml"
  one "$n.fixes" "$d" rewrite "$@" --no-cache --export-fixes "$W/export.yaml"
  if [ -e "$W/export.yaml" ]; then mv "$W/export.yaml" "$OUT/$n.fixes.yaml"; fi
}
project() {  # project NAME DIR FUNCTION PARAM ARGS...: three, every format of scan/gate/callers
  local n=$1 d=$2 fn=$3 pa=$4 f
  shift 4
  three "$n" "$d" "$@"
  for f in text json sarif; do
    one "$n.scan.$f" "$d" scan "$@" --no-cache --format $f
    one "$n.plan.$f" "$d" scan "$@" --no-cache --plan --format $f
    one "$n.gate.$f" "$d" gate "$@" --no-cache --baseline gridlock-baseline.json --format $f
  done
  for f in text json; do
    one "$n.callers.$f" "$d" callers "$@" --no-cache --function "$fn" --param "$pa" --format $f
  done
}
prepare() {  # the inputs, made once from the base checkout; captures only read them
  [ -e "$W/.ready" ] && return
  local c
  rm -rf "$W/fixtures" "$W/rules" "$W/model-build" "$W/rewrite"
  mkdir -p "$W/fixtures" "$W/rewrite"
  # As in the checkout: their packs extend ../../rules/.
  cp -a "$SRC/rules" "$W/rules"
  cp -a "$SRC/fixtures/pymodel" "$W/fixtures/pymodel"
  cp -a "$SRC/fixtures/model" "$W/fixtures/model"
  cmake -DSRC="$W/fixtures/model" -DBIN="$W/model-build" -DGRIDLOCK="$SRC" -DCONFIGURE_ONLY=ON \
    -P "$SRC/tests/model/build_fixture.cmake" >"$W/model-configure.log"
  for c in $(cd "$SRC/fixtures/rewrite" && ls -d -- */ | tr -d /); do
    if [ -e "$SRC/fixtures/rewrite/$c/compile_commands.json.in" ]; then
      sh "$SRC/fixtures/rewrite/prep.sh" "$c" "$W/rewrite/$c"
    else
      mkdir -p "$W/rewrite/$c/src"
      cp -R "$SRC/fixtures/rewrite/$c/input/." "$W/rewrite/$c/src/"
    fi
  done
  touch "$W/.ready"
}
fixtures() {
  prepare
  project pymodel "$W/fixtures/pymodel" minimodel.attention.GroupedQueryAttention pg_collection \
    --rules gridlock.json --root .
  project model "$W/fixtures/model" minimodel::GroupedQueryAttention::GroupedQueryAttention pg_collection \
    -p "$W/model-build" --rules gridlock.json --root . --jobs 2
  # Configured without CUDA, the model's gate stops at the .cu files no unit covers; past them
  # it judges, with the SARIF fixes of its C++ reads.
  local f
  for f in text json sarif; do
    one "model.gate-uncovered.$f" "$W/fixtures/model" gate -p "$W/model-build" --rules gridlock.json \
      --root . --jobs 2 --no-cache --baseline gridlock-baseline.json --allow-uncovered --format $f
  done
  local d c
  for d in "$W"/rewrite/*/; do  # as tests/rewrite's Case runs it
    c=$(basename "$d")
    local db=()
    [ -d "$d/build" ] && db=(-p build)
    three "rw.$c" "$d" "${db[@]}" --rules "$SRC/fixtures/rewrite/$c/gridlock.json" --root src
  done
}
full() {
  local c
  one help "$W" --help
  one version "$W" --version
  for c in scan gate callers rewrite merge pair grid shard; do one "help.$c" "$W" $c --help; done
  local man
  man="$(dirname "$BIN")/../../gridlock.1"
  if [ -e "$man" ]; then cp "$man" "$OUT/gridlock.1"; else missing man "no gridlock.1 in the build"; fi
}
real() {  # the trees docs/real-codebases.md names; an unset variable is MISSING
  if [ -n "${ORACLE_MEGATRON_GIT:-}" ]; then
    if [ ! -d "$W/megatron" ]; then
      mkdir -p "$W/megatron.part"
      git --git-dir="$ORACLE_MEGATRON_GIT" archive bf71c142b5b563af7348b55a692450869f47d734 |
        tar -x -C "$W/megatron.part"
      mv "$W/megatron.part" "$W/megatron"
    fi
    three meg "$W/megatron" --rules megatron-core --root .
    one meg.sarif "$W/megatron" scan --rules megatron-core --root . --no-cache --format sarif
  else missing megatron "ORACLE_MEGATRON_GIT unset"; fi
  if [ -n "${ORACLE_LLMC:-}" ]; then
    local x=()
    read -ra x <<<"${ORACLE_LLMC_ARGS:-}"
    three llmc "$ORACLE_LLMC" -p build --rules "$SRC/rules/examples/llmc.json" --root . -j 2 \
      "${x[@]}"
  else missing llmc "ORACLE_LLMC unset"; fi
  if [ -n "${ORACLE_INFINITRAIN:-}" ]; then
    three infinitrain "$ORACLE_INFINITRAIN" -p build-scan \
      --rules "$SRC/rules/examples/infinitrain.json" --root . -j 2
  else missing infinitrain "ORACLE_INFINITRAIN unset"; fi
}

compare() {  # identical, or identical once each named change is taken out; a MISSING fails
  [ $# -ge 2 ] && [ -d "$1" ] && [ -d "$2" ] || usage
  local A="$W/cmp/before" B="$W/cmp/after" bad=0
  rm -rf "$W/cmp"
  mkdir -p "$W/cmp"
  cp -a "$1" "$A"
  cp -a "$2" "$B"
  shift 2
  while [ $# -gt 0 ]; do
    [ "$1" = --expect ] && [ $# -ge 2 ] || usage
    declare -F "expect_${2//-/_}" >/dev/null || {
      echo "oracle: no expectation named $2" >&2
      exit 2
    }
    "expect_${2//-/_}" "$A" "$B" || bad=1
    shift 2
  done
  if compgen -G "$A/*.MISSING" >/dev/null || compgen -G "$B/*.MISSING" >/dev/null; then
    echo "oracle: not captured:" $(cd "$W/cmp" && ls -d before/*.MISSING after/*.MISSING 2>/dev/null)
    bad=1
  fi
  diff -r "$A" "$B" >"$W/cmp/diff" || {
    bad=1
    head -60 "$W/cmp/diff"
  }
  if [ $bad = 0 ]; then echo "oracle: identical ($(ls "$A" | wc -l) files)"; fi
  return $bad
}
expect_python_sarif_fixes() {  # results in .py files gain `fixes`; nothing else moves
  local A=$1 B=$2 added=0 f n
  local py='.runs[].results[] | select(.locations[0].physicalLocation.artifactLocation.uri | endswith(".py"))'
  for f in "$B"/*sarif*.out; do
    [ -e "$f" ] || continue
    n=${f##*/}
    [ -s "$f" ] && [ -s "$A/$n" ] || continue
    added=$((added + $(jq "[$py|select(.fixes)]|length" "$f") - $(jq "[$py|select(.fixes)]|length" "$A/$n")))
    jq "($py) |= del(.fixes)" "$f" >"$f.n" && mv "$f.n" "$f"  # both sides re-printed by jq
    jq "($py) |= del(.fixes)" "$A/$n" >"$A/$n.n" && mv "$A/$n.n" "$A/$n"
  done
  [ $added -gt 0 ] || {
    echo "expect python-sarif-fixes: no Python result gained a fix" >&2
    return 1
  }
}

# Section 7 of the issue's note: the longest functions, lines in cli, tree-sitter node uses
# outside the Python model, the Python rewriter's size and strategy classes.
metrics() {
  cd "$HERE"
  echo "## longest functions (lines, file:line, signature)"
  local f
  for f in $(git ls-files 'tool/*.cpp'); do
    awk -v F="$f" '
      !s && /^[A-Za-z].*[)]( const)?( override)?( noexcept)? [{]$/ {s=NR; t=$0; next}
      !s && /^[A-Za-z].*[(,]$/ {p=NR; q=$0; next}
      p && !s && /^ .*[)]( const)?( override)? [{]$/ {s=p; t=q; p=0; next}
      s && /^[}]$/ {print NR-s+1, F":"s, substr(t,1,60); s=0; p=0}' "$f"
  done | sort -nr | awk 'NR <= 10'  # awk reads it all: head would stop sort with SIGPIPE
  echo "## lines in cli"
  cat tool/cli/*.h tool/cli/*.cpp | wc -l
  echo "## tree-sitter node uses outside tool/python/model (uses, files)"
  local files
  files=$(grep -rloE 'ts_node_[a-z_]+|TSNode' tool | grep -v '^tool/python/model/' || true)
  if [ -n "$files" ]; then
    echo "$(echo "$files" | xargs grep -oE 'ts_node_[a-z_]+|TSNode' | wc -l) $(echo "$files" | wc -l)"
  else echo "0 0"; fi
  echo "## rewriters (files, lines, StrategyOf classes)"
  local d
  for d in tool/pyrewrite tool/rewrite tool/rewrite/core tool/rewrite/cpp tool/rewrite/python; do
    [ -d "$d" ] || continue
    echo "$d $(git ls-files "$d" | wc -l) $(git ls-files "$d" | xargs cat | wc -l)" \
      "$(git ls-files "$d" | xargs grep -c 'public StrategyOf<' | awk -F: '{n+=$2} END {print n+0}')"
  done
}

case ${1:-} in
  capture)
    [ $# -ge 3 ] || usage
    W=${ORACLE_WORK:?a fixed directory: outputs name its paths, both captures must use it}
    SRC=${ORACLE_SOURCE:?a checkout of the base commit: its fixtures are the inputs}
    # One pyright for every capture: this checkout's (scripts/setup.sh), unless one is named.
    if [ -z "${GRIDLOCK_PYRIGHT:-}" ]; then
      GRIDLOCK_PYRIGHT=$(ls -d "$HERE"/.deps/pyright-*/index.js 2>/dev/null | head -1)
      [ -n "$GRIDLOCK_PYRIGHT" ] || {
        echo "oracle: no pyright: run scripts/setup.sh or set GRIDLOCK_PYRIGHT" >&2
        exit 2
      }
    fi
    export GRIDLOCK_PYRIGHT
    BIN=$(realpath "$2")
    OUT=$(realpath -m "$3")
    shift 3
    [ -x "$BIN" ] || usage
    mkdir -p "$W" "$OUT"
    for t in "${@:-fixtures}"; do
      case $t in fixtures | full | real) "$t" ;; *) usage ;; esac
    done
    ;;
  compare)
    shift
    W=${ORACLE_WORK:?a fixed directory for the comparison}
    compare "$@"
    ;;
  metrics) metrics ;;
  *) usage ;;
esac
