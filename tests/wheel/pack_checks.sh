#!/usr/bin/env bash
# scripts/wheel_pack.py's checks on small stand-ins for the binary, compiled here (no gridlock
# build needed): a C program needing glibc alone is packed, tagged with the highest GLIBC_x.y it
# needs (on glibc 2.34 and later every program's crt binds __libc_start_main@GLIBC_2.34, and
# puts/strcmp are older: manylinux_2_34), into the same bytes twice; a C++ program linking
# libstdc++.so.6, one with a RUNPATH, one whose --version names another version and the full
# gridlock (libclang-cpp, libLLVM) are refused (exit 1) with the reason, and write no wheel.
# Usage: pack_checks.sh SOURCE_DIR [FULL_GRIDLOCK]
set -euo pipefail
src=$(realpath "$1"); full=${2:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-pack-checks-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "pack_checks: FAIL: $*" >&2; exit 1; }
cc=${CC:-clang-19}; cxx=${CXX:-clang++-19}
version=$(sed -n 's/^project(gridlock VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
arch=$(uname -m)
pack() {  # BINARY OUT: runs wheel_pack.py, its output in $tmp/log
  SOURCE_DATE_EPOCH=1700000000 /usr/bin/python3 "$src/scripts/wheel_pack.py" --binary "$1" \
    --source "$src" --out "$2" >"$tmp/log" 2>&1
}
refused() {  # NAME BINARY MESSAGE
  local rc=0
  pack "$2" "$tmp/out-$1" || rc=$?
  [ "$rc" = 1 ] || { cat "$tmp/log"; fail "$1: exit $rc, expected 1"; }
  grep -qF "$3" "$tmp/log" || { cat "$tmp/log"; fail "$1: no '$3' in the refusal"; }
  [ -z "$(ls -A "$tmp/out-$1" 2>/dev/null)" ] || fail "$1: a refused binary left $(ls "$tmp/out-$1")"
}

cat >"$tmp/stand_in.c" <<END
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--version") == 0) puts("gridlock $version (a stand-in)");
  return 0;
}
END
"$cc" -O1 -o "$tmp/stand-in" "$tmp/stand_in.c"
pack "$tmp/stand-in" "$tmp/out" || { cat "$tmp/log"; fail "the C stand-in was refused"; }
want="gridlock-$version-py3-none-manylinux_2_34_$arch.whl"
[ "$(ls "$tmp/out")" = "$want" ] || fail "wrote '$(ls "$tmp/out")', expected $want"
/usr/bin/python3 -m wheel unpack -d "$tmp/unpacked" "$tmp/out/$want" >/dev/null ||
  fail "wheel unpack refused $want (RECORD)"
(cd "$tmp/unpacked/gridlock-$version" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/files"
{
  echo "gridlock-$version.data/data/share/gridlock/rules/"{gridlock-legacy,megatron-core-ratchet,megatron-core,mpi}.json
  echo "gridlock-$version.data/data/share/gridlock/schema/"{baseline,callers-report,config,gate-report,pair-report,rule-pack,scan-report}.schema.json
  echo "gridlock-$version.data/scripts/gridlock"
  echo "gridlock-$version.dist-info/"{LICENSE,METADATA,RECORD,WHEEL}
} | tr ' ' '\n' | LC_ALL=C sort >"$tmp/want-files"
diff "$tmp/want-files" "$tmp/files" || fail "the wheel's files differ (- expected, + packed)"
grep -qx "Tag: py3-none-manylinux_2_34_$arch" "$tmp/unpacked/gridlock-$version/gridlock-$version.dist-info/WHEEL" ||
  fail "WHEEL has no Tag: py3-none-manylinux_2_34_$arch"
grep -qx "Root-Is-Purelib: false" "$tmp/unpacked/gridlock-$version/gridlock-$version.dist-info/WHEEL" ||
  fail "WHEEL says the wheel is pure Python"
mv "$tmp/out/$want" "$tmp/first.whl"
pack "$tmp/stand-in" "$tmp/out" || { cat "$tmp/log"; fail "the second pack failed"; }
cmp -s "$tmp/first.whl" "$tmp/out/$want" || fail "two packs of the same inputs differ"

printf '#include <string>\nint main(int c, char **v) { return std::string(v[0]).size() > 1000 + c; }\n' \
  >"$tmp/cxx.cpp"
"$cxx" -O1 -o "$tmp/cxx" "$tmp/cxx.cpp"
refused libstdcxx "$tmp/cxx" "needs libstdc++.so.6"
"$cc" -O1 -o "$tmp/runpath" "$tmp/stand_in.c" -Wl,-rpath,/opt/elsewhere -Wl,--enable-new-dtags
refused runpath "$tmp/runpath" "has a library search path (/opt/elsewhere)"
sed 's/gridlock [0-9.]* /gridlock 0.0.0 /' "$tmp/stand_in.c" >"$tmp/other.c"
"$cc" -O1 -o "$tmp/other" "$tmp/other.c"
refused version "$tmp/other" "not gridlock $version (the source tree)"
if [ -n "$full" ]; then
  refused full "$full" "libclang-cpp.so.19.1"
fi
echo "pack_checks: OK ($want; libstdc++, RUNPATH, another version${full:+, the full build} refused)"
