#!/usr/bin/env bash
# Install into a temporary prefix, move the prefix, then: the moved binary runs from another
# directory and finds its packs by name (and only in the moved prefix); a project outside the
# tree builds against the moved prefix with find_package(gridlock CONFIG) and runs.
# Usage: relocate.sh BUILD_DIR SOURCE_DIR WITH_CUDA(ON|OFF)
set -euo pipefail
build=$(realpath "$1"); src=$(realpath "$2"); cuda=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-relocate-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "relocate: FAIL: $*" >&2; exit 1; }
trap 'echo "relocate: FAIL: a command failed at line $LINENO" >&2' ERR

cmake --install "$build" --prefix "$tmp/first" >/dev/null
mv "$tmp/first" "$tmp/moved"
p=$tmp/moved
for f in bin/gridlock lib/libgridlock_plugin.so share/gridlock/rules/gridlock-legacy.json share/gridlock/rules/mpi.json \
         share/gridlock/schema/rule-pack.schema.json share/gridlock/schema/config.schema.json \
         share/gridlock/schema/baseline.schema.json share/gridlock/schema/scan-report.schema.json \
         share/gridlock/schema/gate-report.schema.json share/gridlock/schema/callers-report.schema.json \
         share/gridlock/schema/pair-report.schema.json share/doc/gridlock/scan.md share/doc/gridlock/LICENSE \
         share/doc/gridlock/suppressions.md \
         include/gridlock/process_group.h lib/cmake/gridlock/gridlockConfig.cmake; do
  [ -e "$p/$f" ] || fail "$f is not installed"
done
# No installed text file (CMake package, packs, schemas, headers) names the build tree or the
# first prefix. (The binary holds its build tree's path only to tell, at run time, that it runs
# from there; the unknown-pack check below shows the moved binary never looks there.)
if grep -rlIF -e "$build" -e "$tmp/first" "$p" >"$tmp/named"; then
  fail "installed files name the build tree or the install prefix: $(tr '\n' ' ' <"$tmp/named")"
fi

mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere"
version=$("$p/bin/gridlock" --version)
[[ "$version" =~ ^gridlock\ [0-9]+\.[0-9]+\.[0-9]+\ \(built\ with\ Clang\ 19\.[0-9.]+\)$ ]] ||
  fail "--version printed '$version'"
# One translation unit keeps it short: core/comm.cpp holds 8 annotated reads (`expect-read`,
# one of them x2) and includes core/templates.h with 3 more, none in an edge file: 11.
# --no-cache: the second scan would hit the first's cache entries and report other counts.
scan=(scan --no-cache --format json -p "$build/fixtures/scan" --root "$src/fixtures/scan"
      "$src/fixtures/scan/core/comm.cpp")
"$p/bin/gridlock" "${scan[@]}" --rules gridlock-legacy --rules mpi >named.json ||
  fail "the moved binary cannot scan with packs named by name"
"$p/bin/gridlock" "${scan[@]}" --rules "$src/rules/gridlock-legacy.json" \
  --rules "$src/rules/mpi.json" >paths.json
cmp -s named.json paths.json || fail "packs by name scan differently from packs by path"
grep -q '"total": 11,' named.json || fail "the scan did not find the 11 reads: $(head -c 300 named.json)"
# SARIF's help links are https URLs of the docs online (code scanning shows no file:// link),
# the same from a moved prefix.
"$p/bin/gridlock" scan --format sarif "${scan[@]:4}" --rules gridlock-legacy >scan.sarif
grep -qE '"helpUri": "https://[^"]+/scan\.md#what-counts-as-a-read"' scan.sarif ||
  fail "SARIF helpUri is not the https docs: $(grep -m1 helpUri scan.sarif)"
# An unknown name: looked for in the moved prefix only, never in the source tree.
rc=0; "$p/bin/gridlock" "${scan[@]}" --rules nope 2>err.txt >/dev/null || rc=$?
want="gridlock: error: unknown rule pack \"nope\": no nope.json in $p/share/gridlock/rules (installed)"
[ "$rc" = 2 ] && [ "$(cat err.txt)" = "$want" ] || fail "unknown pack: exit $rc, '$(cat err.txt)'"

cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$p" \
  -DCMAKE_CXX_COMPILER="${CXX:-c++}" -DWITH_CUDA="$cuda" >"$tmp/consumer.log" 2>&1 ||
  { cat "$tmp/consumer.log"; fail "the consumer does not configure against the moved prefix"; }
cmake --build "$tmp/consumer" -j2 >>"$tmp/consumer.log" 2>&1 ||
  { cat "$tmp/consumer.log"; fail "the consumer does not build against the moved prefix"; }
out=$("$tmp/consumer/consumer")
want=$'shards: 3 3 2 2\ninitialized: 0\nall_reduce: linked'
[ "$cuda" = ON ] && want+=$'\ncuda: 1'
[ "$out" = "$want" ] || fail "the consumer printed '$out'"
echo "relocate: OK ($p)"
