#!/usr/bin/env bash
# CPack's two .debs: gridlock (the tool) and gridlock-runtime (the CPU runtime). Their Depends
# are real Debian packages (apt resolves them) covering every library the binary needs directly
# (DT_NEEDED -> the package that owns it), and the tool's name no Open MPI package, as its
# binary links none: MPI comes with the runtime alone. The tool holds the binary, the plugin,
# the packs and the schemas, the runtime its headers, libraries and CMake package, each under
# /usr with its licence in /usr/share/doc/PACKAGE: the LICENSE of the source tree and a Debian
# copyright file in the machine-readable format that says the same, under the maintainer the
# package names; no file is in both. Unpacked anywhere, the tool's binary runs and finds its
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
version=$(sed -n 's/^project(gridlock VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
arch=$(dpkg --print-architecture)
(cd "$tmp/out" && ls -- *.deb) | LC_ALL=C sort >"$tmp/debs"
printf '%s\n' "gridlock-runtime_${version}_$arch.deb" "gridlock_${version}_$arch.deb" >"$tmp/want-debs"
cmp -s "$tmp/debs" "$tmp/want-debs" || fail "cpack wrote $(tr '\n' ' ' <"$tmp/debs"), expected $(tr '\n' ' ' <"$tmp/want-debs")"
deb=$(ls "$tmp"/out/gridlock_*.deb); runtime_deb=$(ls "$tmp"/out/gridlock-runtime_*.deb)

field() {  # DEB FIELD WANT
  local got; got=$(dpkg-deb -f "$1" "$2")
  [ "$got" = "$3" ] || fail "$(basename "$1") $2: '$got', expected '$3'"
}
field "$deb" Package gridlock
field "$runtime_deb" Package gridlock-runtime
depends=$(dpkg-deb -f "$deb" Depends)
field "$deb" Depends "libclang-cpp19, libllvm19, libclang-common-19-dev, libpugixml1v5, libssl3, libzstd1, zlib1g, libstdc++6, libgcc-s1, libc6"
if [[ $depends == *mpi* ]]; then fail "the tool depends on MPI: $depends"; fi
# What a Python rewrite needs, named where apt shows it (docs/install.md).
field "$deb" Recommends "python3"
field "$deb" Suggests "nodejs, gridlock-runtime"
field "$runtime_deb" Depends "libopenmpi3, openmpi-bin"
field "$runtime_deb" Recommends "libopenmpi-dev, cmake"
maintainer="Seed 54ffb646 maintainers <maintainers@users.noreply.a-seed-54ffb646.example>"
field "$deb" Maintainer "$maintainer"
field "$runtime_deb" Maintainer "$maintainer"

files_of() {  # DEB OUT: the paths it installs
  dpkg-deb -c "$1" | awk '{print $NF}' | sed 's|^\./|/|' >"$2"
}
files_of "$deb" "$tmp/files"
files_of "$runtime_deb" "$tmp/runtime-files"
for f in /usr/bin/gridlock /usr/lib/libgridlock_plugin.so /usr/share/gridlock/rules/gridlock-legacy.json \
         /usr/share/gridlock/rules/mpi.json /usr/share/gridlock/schema/rule-pack.schema.json \
         /usr/share/gridlock/schema/config.schema.json /usr/share/gridlock/schema/scan-report.schema.json \
         /usr/share/gridlock/schema/gate-report.schema.json /usr/share/gridlock/schema/callers-report.schema.json \
         /usr/share/gridlock/schema/pair-report.schema.json /usr/share/man/man1/gridlock.1 \
         /usr/share/doc/gridlock/LICENSE /usr/share/doc/gridlock/copyright; do
  grep -qxF "$f" "$tmp/files" || fail "$f is not in the tool's package"
done
for f in /usr/include/gridlock/process_group.h /usr/lib/libgridlock_runtime.a /usr/lib/libgridlock_layout.a \
         /usr/lib/cmake/gridlock/gridlockConfig.cmake /usr/lib/cmake/gridlock/gridlockTargets.cmake \
         /usr/share/doc/gridlock-runtime/LICENSE /usr/share/doc/gridlock-runtime/copyright; do
  grep -qxF "$f" "$tmp/runtime-files" || fail "$f is not in the runtime's package"
done
if grep -q -e '^/usr/include' -e 'libgridlock_runtime' -e '/cmake/' "$tmp/files"; then
  fail "the tool's package holds the runtime: $(grep -e '^/usr/include' -e 'libgridlock_runtime' -e '/cmake/' "$tmp/files" | head -3)"
fi
if grep -q runtime_cuda "$tmp/files" "$tmp/runtime-files"; then fail "the CUDA runtime is in a package"; fi
# dpkg refuses two packages that ship one file: no file (directories apart) is in both.
grep -v '/$' "$tmp/files" | sort >"$tmp/a"; grep -v '/$' "$tmp/runtime-files" | sort >"$tmp/b"
comm -12 "$tmp/a" "$tmp/b" >"$tmp/both"
[ ! -s "$tmp/both" ] || fail "in both packages: $(tr '\n' ' ' <"$tmp/both")"

dpkg-deb -x "$deb" "$tmp/root"
dpkg-deb -x "$runtime_deb" "$tmp/runtime-root"
for doc in "$tmp/root/usr/share/doc/gridlock" "$tmp/runtime-root/usr/share/doc/gridlock-runtime"; do
  cmp -s "$src/LICENSE" "$doc/LICENSE" || fail "$doc/LICENSE is not the source tree's LICENSE"
  /usr/bin/python3 "$src/tests/install/check_copyright.py" "$doc/copyright" "$maintainer" ||
    fail "$doc/copyright is not what the package says"
  grep -qF "/usr/share/doc/$(basename "$doc")/LICENSE" "$doc/copyright" ||
    fail "$doc/copyright does not point at its own package's LICENSE"
done
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
# apt can install them here: every dependency names a package it knows.
apt-get install -s -o Debug::NoLocking=1 "$deb" "$runtime_deb" >"$tmp/apt.log" 2>&1 ||
  { cat "$tmp/apt.log"; fail "apt cannot install the packages"; }
for p in gridlock gridlock-runtime; do
  grep -q "^Inst $p " "$tmp/apt.log" || { cat "$tmp/apt.log"; fail "apt would not install $p"; }
done
# What installing the tool alone pulls (its Depends, and theirs, as apt resolves them; this
# machine's installed packages do not hide any): no Open MPI.
IFS=', ' read -ra tool_depends <<<"$depends"
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances "${tool_depends[@]}" >"$tmp/closure" 2>&1 ||
  { cat "$tmp/closure"; fail "apt-cache cannot resolve the tool's Depends"; }
if grep -v '^ ' "$tmp/closure" | grep -i mpi >"$tmp/mpi"; then
  fail "installing the tool would install $(tr '\n' ' ' <"$tmp/mpi")"
fi

cd "$tmp" && "$bin" --version >"$tmp/version" || fail "the unpacked binary does not run"
grep -q '^gridlock ' "$tmp/version" || fail "--version printed '$(cat "$tmp/version")'"
rc=0; "$bin" scan -p "$build/fixtures/scan" --rules nope 2>"$tmp/err" >/dev/null || rc=$?
want="gridlock: error: unknown rule pack \"nope\": no nope.json in $tmp/root/usr/share/gridlock/rules (installed), $tmp/root/usr/share/gridlock/rules/examples (installed examples); the shipped packs are gridlock-legacy, megatron-core, megatron-core-ratchet, mpi; the examples are deepspeed-autotp, hpccg, infinitrain, llmc, lulesh, minife"
[ "$rc" = 2 ] && [ "$(cat "$tmp/err")" = "$want" ] || fail "unknown pack: exit $rc, '$(cat "$tmp/err")'"
echo "deb: OK ($(basename "$deb"): Depends: $depends; $(basename "$runtime_deb"): Depends: $(dpkg-deb -f "$runtime_deb" Depends))"
