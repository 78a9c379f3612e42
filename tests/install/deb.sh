#!/usr/bin/env bash
# CPack's .deb: its Depends are real Debian packages (apt resolves them) covering every library
# the binary needs directly (DT_NEEDED -> the package that owns it); it holds the tool, the packs,
# the schemas, the CPU runtime and its CMake package under /usr, and its licence: the LICENSE of
# the source tree and a Debian copyright file in the machine-readable format that says the
# same, under the maintainer the package names; unpacked anywhere, its binary runs and finds its
# packs by name.
# Usage: deb.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1"); src=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-deb-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "deb: FAIL: $*" >&2; exit 1; }
trap 'echo "deb: FAIL: a command failed at line $LINENO" >&2' ERR

(cd "$build" && cpack -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log"; fail "cpack failed"; }
debs=("$tmp"/out/gridlock_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "expected one gridlock_*.deb, got: ${debs[*]}"
deb=${debs[0]}

[ "$(dpkg-deb -f "$deb" Package)" = gridlock ] || fail "Package is not gridlock"
depends=$(dpkg-deb -f "$deb" Depends)
want="libclang-cpp19, libllvm19, libclang-common-19-dev, libpugixml1v5, libssl3, libstdc++6, libgcc-s1, libc6, libopenmpi3, openmpi-bin"
[ "$depends" = "$want" ] || fail "Depends: '$depends', expected '$want'"
# What a Python rewrite needs, named where apt shows it (docs/install.md).
recommends=$(dpkg-deb -f "$deb" Recommends)
[ "$recommends" = "libopenmpi-dev, cmake, python3" ] || fail "Recommends: '$recommends'"
suggests=$(dpkg-deb -f "$deb" Suggests)
[ "$suggests" = "nodejs" ] || fail "Suggests: '$suggests', expected 'nodejs'"
maintainer=$(dpkg-deb -f "$deb" Maintainer)
want="Seed 54ffb646 maintainers <maintainers@users.noreply.a-seed-54ffb646.example>"
[ "$maintainer" = "$want" ] || fail "Maintainer: '$maintainer', expected '$want'"

dpkg-deb -c "$deb" >"$tmp/listing"
awk '{print $NF}' "$tmp/listing" | sed 's|^\./|/|' >"$tmp/files"
for f in /usr/bin/gridlock /usr/lib/libgridlock_plugin.so /usr/share/gridlock/rules/gridlock-legacy.json \
         /usr/share/gridlock/rules/mpi.json /usr/share/gridlock/schema/rule-pack.schema.json \
         /usr/share/gridlock/schema/config.schema.json /usr/share/gridlock/schema/scan-report.schema.json \
         /usr/share/gridlock/schema/gate-report.schema.json /usr/share/gridlock/schema/callers-report.schema.json \
         /usr/share/gridlock/schema/pair-report.schema.json /usr/include/gridlock/process_group.h \
         /usr/lib/libgridlock_runtime.a /usr/lib/libgridlock_layout.a \
         /usr/lib/cmake/gridlock/gridlockConfig.cmake /usr/lib/cmake/gridlock/gridlockTargets.cmake \
         /usr/share/doc/gridlock/LICENSE /usr/share/doc/gridlock/copyright; do
  grep -qxF "$f" "$tmp/files" || fail "$f is not in the package"
done
if grep -q runtime_cuda "$tmp/files"; then fail "the CUDA runtime is in the package"; fi

dpkg-deb -x "$deb" "$tmp/root"
cmp -s "$src/LICENSE" "$tmp/root/usr/share/doc/gridlock/LICENSE" ||
  fail "/usr/share/doc/gridlock/LICENSE is not the source tree's LICENSE"
/usr/bin/python3 "$src/tests/install/check_copyright.py" "$tmp/root/usr/share/doc/gridlock/copyright" \
  "$maintainer" || fail "/usr/share/doc/gridlock/copyright is not what the package says"
bin=$tmp/root/usr/bin/gridlock
# Every library the binary needs directly is owned by a package it depends on.
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || fail "readelf found no NEEDED entries"
ldconfig -p >"$tmp/ldcache"
for lib in $needed; do
  # Whole outputs to files, no early-exiting readers: under pipefail a SIGPIPE would fail here.
  path=$(awk -v l="$lib" '$1 == l && /x86-64/ && !found {print $NF; found = 1}' "$tmp/ldcache")
  [ -n "$path" ] || fail "$lib is not in the loader's cache"
  # dpkg knows a file by the path its package ships (/lib/... or /usr/lib/... with usrmerge).
  dpkg -S "$path" >"$tmp/owner" 2>/dev/null || dpkg -S "$(realpath "$path")" >"$tmp/owner" ||
    fail "no package owns $path"
  owner=$(sed -n '1s/:.*//p' "$tmp/owner")
  [[ ", $depends," == *", $owner,"* ]] || fail "$lib comes from $owner, which is not in Depends"
done
# apt can install it here: every dependency names a package it knows.
apt-get install -s -o Debug::NoLocking=1 "$deb" >"$tmp/apt.log" 2>&1 ||
  { cat "$tmp/apt.log"; fail "apt cannot install the package"; }
grep -q '^Inst gridlock ' "$tmp/apt.log" || { cat "$tmp/apt.log"; fail "apt would not install gridlock"; }

cd "$tmp" && "$bin" --version >"$tmp/version" || fail "the unpacked binary does not run"
grep -q '^gridlock ' "$tmp/version" || fail "--version printed '$(cat "$tmp/version")'"
rc=0; "$bin" scan -p "$build/fixtures/scan" --rules nope 2>"$tmp/err" >/dev/null || rc=$?
want="gridlock: error: unknown rule pack \"nope\": no nope.json in $tmp/root/usr/share/gridlock/rules (installed), $tmp/root/usr/share/gridlock/rules/examples (installed examples); the shipped packs are gridlock-legacy, megatron-core, megatron-core-ratchet, mpi; the examples are deepspeed-autotp, hpccg, infinitrain, llmc, lulesh, minife"
[ "$rc" = 2 ] && [ "$(cat "$tmp/err")" = "$want" ] || fail "unknown pack: exit $rc, '$(cat "$tmp/err")'"
echo "deb: OK ($(basename "$deb"): Depends: $depends)"
