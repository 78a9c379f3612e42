#!/usr/bin/env bash
# scripts/npm_package.sh (what scripts/setup.sh fetches tree-sitter-python and pyright with)
# goes through npm and the registry npm is configured with, never a URL of its own: here npm's
# user config names a registry on 127.0.0.1 (tests/install/npm_registry.py), and curl and
# wget on PATH fail. The pinned version is fetched (not the registry's latest), only the paths
# asked for are unpacked, a package already there is kept without asking the registry, and a
# tarball whose sha512 is not the pinned integrity is refused, nothing unpacked. setup.sh and
# npm_package.sh name no URL.
# Usage: npm_package.sh SOURCE_DIR
set -euo pipefail
src=$(realpath "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-npm-XXXXXX")
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "npm_package: FAIL: $*" >&2; exit 1; }
command -v npm >/dev/null || fail "npm is not installed (scripts/setup.sh installs it)"

# No URL in the scripts: the registry is npm's to know.
if grep -nE '(https?|ftp)://' "$src/scripts/setup.sh" "$src/scripts/npm_package.sh"; then
  fail "scripts/setup.sh or scripts/npm_package.sh names a URL"
fi

# The registry: gridlock-demo 1.2.3 (pinned) and 2.0.0 (latest), 1.2.4 whose tarball is not
# what the pin says.
reg=$tmp/registry
mkdir -p "$reg"
tarball() {  # VERSION -> registry file, prints its integrity
  local v=$1 d=$tmp/pkg-$1
  mkdir -p "$d/package/src"
  printf '{"name": "gridlock-demo", "version": "%s"}\n' "$v" >"$d/package/package.json"
  printf 'int demo_%s;\n' "${v//./_}" >"$d/package/src/demo.c"
  printf 'readme\n' >"$d/package/README.md"
  tar -czf "$reg/gridlock-demo_-_gridlock-demo-$v.tgz" -C "$d" package
  echo "sha512-$(openssl dgst -sha512 -binary "$reg/gridlock-demo_-_gridlock-demo-$v.tgz" | base64 -w0)"
}
i123=$(tarball 1.2.3); i124=$(tarball 1.2.4); i200=$(tarball 2.0.0)
/usr/bin/python3 "$src/tests/install/npm_registry.py" "$reg" &
server=$!
for _ in $(seq 100); do [ -f "$reg/port" ] && break; sleep 0.1; done
[ -f "$reg/port" ] || fail "the registry did not start"
url="http://127.0.0.1:$(cat "$reg/port")"
/usr/bin/python3 - "$reg/gridlock-demo" "$url" "$i123" "$i124" "$i200" <<'PY'
import json, sys
out, url, *integrity = sys.argv[1:]
versions = {v: {"name": "gridlock-demo", "version": v,
                "dist": {"tarball": f"{url}/gridlock-demo/-/gridlock-demo-{v}.tgz",
                         "integrity": i}}
            for v, i in zip(["1.2.3", "1.2.4", "2.0.0"], integrity)}
json.dump({"name": "gridlock-demo", "dist-tags": {"latest": "2.0.0"}, "versions": versions},
          open(out, "w"))
PY

# npm as configured by its user config; curl and wget fail if anything calls them.
mkdir -p "$tmp/bin" "$tmp/home"
for tool in curl wget; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/fetchers"\nexit 1\n' "$tool" "$tmp" >"$tmp/bin/$tool"
  chmod +x "$tmp/bin/$tool"
done
printf 'registry=%s/\n' "$url" >"$tmp/npmrc"
run() {  # DEPS NAME VERSION INTEGRITY PATH...
  env PATH="$tmp/bin:$PATH" HOME="$tmp/home" npm_config_userconfig="$tmp/npmrc" \
    npm_config_cache="$tmp/npm-cache" "$src/scripts/npm_package.sh" "$@"
}

deps=$tmp/deps
run "$deps" gridlock-demo 1.2.3 "$i123" src >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; fail "fetching the pinned gridlock-demo 1.2.3 failed"; }
[ ! -s "$tmp/fetchers" ] || fail "npm_package.sh fetched by itself: $(cat "$tmp/fetchers")"
grep -qx '/gridlock-demo' "$reg/requests" || fail "npm did not ask the configured registry"
grep -qx '/gridlock-demo/-/gridlock-demo-1.2.3.tgz' "$reg/requests" ||
  fail "the pinned tarball was not fetched from the registry: $(cat "$reg/requests")"
[ "$(cat "$deps/gridlock-demo-1.2.3/src/demo.c")" = "int demo_1_2_3;" ] ||
  fail "src/demo.c of 1.2.3 is not there"
grep -q '"version": "1.2.3"' "$deps/gridlock-demo-1.2.3/package.json" || fail "no package.json"
[ ! -e "$deps/gridlock-demo-1.2.3/README.md" ] || fail "README.md was unpacked, not asked for"
[ "$(ls "$deps")" = gridlock-demo-1.2.3 ] || fail "deps holds $(ls "$deps")"

# Already there: kept, the registry not asked (it is stopped).
kill "$server"; wait "$server" 2>/dev/null || true; server=
: >"$reg/requests"
run "$deps" gridlock-demo 1.2.3 "$i123" src >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; fail "a package already there was not kept"; }
[ ! -s "$reg/requests" ] || fail "the registry was asked again"

# A tarball that is not the pinned one: refused, nothing unpacked.
/usr/bin/python3 "$src/tests/install/npm_registry.py" "$reg" &
server=$!
rm -f "$reg/port"
for _ in $(seq 100); do [ -f "$reg/port" ] && break; sleep 0.1; done
url2="http://127.0.0.1:$(cat "$reg/port")"
sed -i "s|$url|$url2|g" "$reg/gridlock-demo"
printf 'registry=%s/\n' "$url2" >"$tmp/npmrc"
rc=0; run "$deps" gridlock-demo 1.2.4 "$i123" src >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/out"; fail "a tarball with the wrong integrity exited $rc, not 1"; }
grep -qF "setup: gridlock-demo-1.2.4.tgz has integrity $i124, expected $i123: refusing it" \
  "$tmp/out" || { cat "$tmp/out"; fail "the refusal does not name both integrities"; }
[ ! -e "$deps/gridlock-demo-1.2.4" ] || fail "a refused package was unpacked"
echo "npm_package: OK"
