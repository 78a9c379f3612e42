#!/usr/bin/env bash
# One npm package, pinned by version and checked against its sha512 integrity, unpacked into
# DEPS/NAME-VERSION (the git-ignored .deps/ of a checkout, never committed): only the paths
# named and its package.json. npm itself fetches it (`npm pack NAME@VERSION`), through the
# registry, proxy and cache npm is configured with (npm config get registry); npm checks the
# tarball against the registry's integrity, and this script against the pinned one. A package
# already there with the pinned version in its package.json is kept, so this needs no network
# once it has run.
# Usage: npm_package.sh DEPS NAME VERSION INTEGRITY PATH-IN-PACKAGE...
set -euo pipefail
deps=$1 name=$2 version=$3 integrity=$4
shift 4
dir="$deps/$name-$version"
grep -qs "\"version\": \"$version\"" "$dir/package.json" && exit 0
command -v npm >/dev/null || { echo "setup: npm is not installed (Debian: npm)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "setup: fetching $name $version with npm from $(npm config get registry)" >&2
# --ignore-scripts: a packed registry tarball runs nothing, and never should here.
(cd "$work" && npm pack --ignore-scripts --silent "$name@$version" >"$work/packed") || {
  echo "setup: npm pack $name@$version failed" >&2
  exit 1
}
tgz="$work/$name-$version.tgz"
[ -f "$tgz" ] || { echo "setup: npm pack wrote $(cat "$work/packed"), not $tgz" >&2; exit 1; }
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
if [ "$got" != "$integrity" ]; then
  echo "setup: $name-$version.tgz has integrity $got, expected $integrity: refusing it" >&2
  exit 1
fi
mkdir "$work/$name"
tar -xzf "$tgz" -C "$work/$name" --strip-components=1 --exclude='*.map' \
  "${@/#/package/}" package/package.json
mkdir -p "$deps"
rm -rf "$dir"
mv "$work/$name" "$dir"  # whole or not at all: package.json is what the check above reads
