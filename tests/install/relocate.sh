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
for f in bin/gridlock share/man/man1/gridlock.1 share/bash-completion/completions/gridlock \
         share/zsh/vendor-completions/_gridlock lib/libgridlock_plugin.so share/gridlock/rules/gridlock-legacy.json share/gridlock/rules/mpi.json \
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
want="gridlock: error: unknown rule pack \"nope\": no nope.json in $p/share/gridlock/rules (installed), $p/share/gridlock/rules/examples (installed examples); the shipped packs are gridlock-legacy, megatron-core, megatron-core-ratchet, mpi; the examples are deepspeed-autotp, hpccg, infinitrain, llmc, lulesh, minife"
[ "$rc" = 2 ] && [ "$(cat err.txt)" = "$want" ] || fail "unknown pack: exit $rc, '$(cat err.txt)'"

# The shell completions as the shells load them from the prefix, in an empty directory (no
# file to offer): commands, options and --format values from the binary's help, packs by name.
mkdir "$tmp/empty" && cd "$tmp/empty"
bash_complete() {  # the candidates bash offers for the last of the words given
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gridlock
           printf "%s\n" "${COMPREPLY[@]}"' _ "$p/share/bash-completion/completions/gridlock" \
    "$p/bin/gridlock" "$@"
}
zsh_complete() {  # what the zsh completion adds for the last of the words given (unfiltered)
  zsh -fc 'compadd() { if [[ $1 == -a ]]; then print -l -- ${(P)2}; else
             [[ $1 == -- ]] && shift; print -l -- "$@"; fi }
           _describe() { print -l -- ${(P)${@[-1]}} }
           _files() { print -- "<files>" }; _directories() { print -- "<directories>" }
           words=("$@"); CURRENT=$#; PREFIX=${words[-1]}; source "$0"' \
    "$p/share/zsh/vendor-completions/_gridlock" "$p/bin/gridlock" "$@"
}
expect_completion() {  # SHELL WANT WORDS...: the candidates, one a line, are WANT
  local shell=$1 want=$2 got; shift 2
  got=$("${shell}_complete" "$@") || fail "$shell completion of '$*' failed: $got"
  [ "$got" = "$want" ] || fail "$shell completes '$*' as '$got', not '$want'"
}
expect_completion bash scan sc
expect_completion bash $'--format\n--facts-out' scan --f
expect_completion bash $'text\njson\nsarif\ngithub' gate --format ""
expect_completion bash $'text\njson\nmarkdown' pair --format ""
# (in the order the glob gives: "-" sorts before ".", so megatron-core-ratchet.json comes first)
expect_completion bash $'gridlock-legacy\nmegatron-core-ratchet\nmegatron-core\nmpi' scan --rules ""
expect_completion bash "" scan -- -D
expect_completion zsh "$(printf '%s\n' 'scan:Inventory of global process-group reads' \
  'gate:Fail when any count of global reads rises' \
  'callers:Every site that reaches a function or constructor' \
  'rewrite:Thread groups explicitly: rewrite global reads' \
  'merge:Merge the facts of the shards of one scan into its report or gate verdict' \
  'grid:the rank layout the runtime builds, as JSON' \
  'shard:the shard widths the runtime uses, as JSON' \
  'pair:Paired validation: run the same tests on a baseline and a change, compare per test')" sc
expect_completion zsh $'text\njson\nsarif\ngithub' gate --format ""
expect_completion zsh $'text\njson\nmarkdown' pair --format ""
expect_completion zsh $'gridlock-legacy\nmegatron-core\nmegatron-core-ratchet\nmpi\n<files>' scan --rules ""
expect_completion zsh "<files>" scan -- -D
# Not `zsh_complete ... | grep -q`: under pipefail, grep -q leaving at its first match can kill
# the completion with SIGPIPE before it has printed the rest, which fails the pipeline at random.
offered=$(zsh_complete scan --fo)
grep -qx -- --format <<<"$offered" || fail "zsh does not offer --format for scan --fo"
cd "$tmp"

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
