#!/usr/bin/env bash
# scripts/oracle.sh's own checks, on a stand-in binary and hand-made captures: a capture
# compared with itself is identical; one byte changed fails and names the file; a MISSING on
# either side fails; --expect python-sarif-fixes fails when no Python result gained a fix and
# when anything else moved, and passes when only that moved.
# Usage: oracle_test.sh SOURCE_DIR
set -uo pipefail
ORACLE="$1/scripts/oracle.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export ORACLE_WORK="$T/work" ORACLE_SOURCE="$1" GRIDLOCK_PYRIGHT=/nonexistent/pyright
failures=0
check() {  # check NAME EXPECTED-STATUS EXPECTED-TEXT COMMAND...: status and a line of its output
  local name=$1 want=$2 text=$3 got out
  shift 3
  out=$("$@" 2>&1)
  got=$?
  if [ "$got" != "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "FAIL $name: status $got (want $want), output lacks '$text':"
    sed 's/^/  /' <<<"$out"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

# A stand-in gridlock: prints its arguments, a line on stderr, exits 3 for `merge --help`; its
# man page where a build puts it (two directories above the binary).
mkdir -p "$T/build/tool/cli"
cat >"$T/build/tool/cli/gridlock" <<'EOF'
#!/bin/sh
echo "args: $*"
echo "cwd: $(pwd)" >&2
[ "$1" = merge ] && exit 3
exit 0
EOF
chmod +x "$T/build/tool/cli/gridlock"
echo ".TH GRIDLOCK 1" >"$T/build/gridlock.1"

check capture-full 0 "" "$ORACLE" capture "$T/build/tool/cli/gridlock" "$T/a" full
for f in help.out help.err help.rc version.out help.merge.rc help.shard.out gridlock.1; do
  [ -e "$T/a/$f" ] || {
    echo "FAIL capture-full: no $f"
    failures=$((failures + 1))
  }
done
check capture-args 0 "args: scan --help" cat "$T/a/help.scan.out"
check capture-cwd 0 "cwd: $T/work" cat "$T/a/help.err"
check capture-status 0 "3" cat "$T/a/help.merge.rc"
check capture-status-zero 0 "0" cat "$T/a/help.rc"

# The real tier without its trees: every codebase MISSING, and a compare fails on it.
check capture-real-missing 0 "megatron: not captured: ORACLE_MEGATRON_GIT unset" \
  "$ORACLE" capture "$T/build/tool/cli/gridlock" "$T/r" real
check missing-fails 1 "after/llmc.MISSING" "$ORACLE" compare "$T/a" "$T/r"
check missing-before-fails 1 "before/megatron.MISSING" "$ORACLE" compare "$T/r" "$T/a"

check same-is-identical 0 "oracle: identical (31 files)" "$ORACLE" compare "$T/a" "$T/a"
cp -a "$T/a" "$T/b"
printf 'args: scan --helq\n' >"$T/b/help.scan.out"
check one-byte-fails 1 "help.scan.out" "$ORACLE" compare "$T/a" "$T/b"
rm "$T/b/help.scan.out"
check a-file-gone-fails 1 "Only in $T/work/cmp/before: help.scan.out" "$ORACLE" compare "$T/a" "$T/b"

# --expect python-sarif-fixes on hand-made SARIF: one result in a .py file, one in a .cpp file.
sarif() {  # sarif PY-FIX CPP-FIX CPP-TEXT: a scan's SARIF, with fixes on the results named
  local pyfix=$1 cppfix=$2 text=$3
  jq -n --argjson pf "$pyfix" --argjson cf "$cppfix" --arg t "$text" '{runs: [{results: [
    ({message: {text: "py"}, locations: [{physicalLocation: {artifactLocation: {uri: "m/a.py"}}}]}
      + (if $pf then {fixes: [{description: {text: "use g"}}]} else {} end)),
    ({message: {text: $t}, locations: [{physicalLocation: {artifactLocation: {uri: "m/b.cpp"}}}]}
      + (if $cf then {fixes: [{description: {text: "use h"}}]} else {} end))]}]}'
}
mkdir -p "$T/s1" "$T/s2" "$T/s3" "$T/s4"
sarif false true cpp >"$T/s1/pymodel.scan.sarif.out"
sarif true true cpp >"$T/s2/pymodel.scan.sarif.out"
check expect-passes 0 "oracle: identical (1 files)" \
  "$ORACLE" compare "$T/s1" "$T/s2" --expect python-sarif-fixes
check without-expect-fails 1 "pymodel.scan.sarif.out" "$ORACLE" compare "$T/s1" "$T/s2"
check expect-no-fix-fails 1 "no Python result gained a fix" \
  "$ORACLE" compare "$T/s1" "$T/s1" --expect python-sarif-fixes
sarif true true other >"$T/s3/pymodel.scan.sarif.out"
check expect-other-text-fails 1 "other" "$ORACLE" compare "$T/s1" "$T/s3" --expect python-sarif-fixes
sarif true false cpp >"$T/s4/pymodel.scan.sarif.out"
check expect-cpp-fix-fails 1 "use h" "$ORACLE" compare "$T/s1" "$T/s4" --expect python-sarif-fixes
check unknown-expect 2 "no expectation named nothing" \
  "$ORACLE" compare "$T/s1" "$T/s2" --expect nothing
check usage 2 "usage: oracle.sh" "$ORACLE" compare "$T/s1"

if [ $failures -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "every check passed"
