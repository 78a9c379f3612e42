#!/usr/bin/env bash
# Installs every Debian package the build and tests need, and two npm packages (the
# tree-sitter Python grammar, pyright). Fast when they are already there:
# dpkg is asked first and apt runs only for what is missing.
set -euo pipefail
PACKAGES=(
  cmake ninja-build git
  clang-19 libclang-19-dev llvm-19-dev
  clang-format-19  # scripts/check-format.sh (ctest format_check)
  nlohmann-json3-dev libcli11-dev libpugixml-dev
  libssl-dev  # tool/support/md5.cpp: MD5 from OpenSSL's libcrypto (digests, cache keys)
  libgtest-dev libgmock-dev
  libopenmpi-dev openmpi-bin
  python3-jsonschema  # tests/install/validate_packs.py: packs against the published schema
  libtree-sitter-dev  # tool/python: the tree-sitter runtime (0.20.7: grammar ABI 13-14)
  curl ca-certificates openssl  # the npm packages' tarballs and their integrity, below
  nodejs  # pyright (tool/python/verify), below
  python3-debian  # tests/install/check_copyright.py: the .deb's Debian copyright file
  python3-torch python3-pytest  # fixtures/pymodel: its pytest suite, torch.distributed on gloo (CPU)
  python3-yaml  # scripts/check_workflow.py: the documented GitHub workflow
  bear  # scripts/ci-recipes.sh: README's recipe for a build without CMake
  zsh groff-base  # tests/install: the zsh completion runs, the man page renders without warnings
  jq  # scripts/oracle.sh: --expect reads SARIF
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm packages, fetched from the npm registry without npm: each pinned by version and checked
# against the registry's sha512 integrity, unpacked into the git-ignored .deps/NAME-VERSION of
# this checkout (never committed). A package already there with the pinned version in its
# package.json is kept, so setup needs no network once it has run.
DEPS="$(cd "$(dirname "$0")/.." && pwd)/.deps"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm_package() {  # NAME VERSION INTEGRITY PATH-IN-PACKAGE...
  local name=$1 version=$2 integrity=$3
  shift 3
  local dir="$DEPS/$name-$version"
  grep -qs "\"version\": \"$version\"" "$dir/package.json" && return 0
  echo "setup: fetching $name $version from registry.npmjs.org" >&2
  curl -fsSL --retry 3 -o "$work/$name.tgz" \
    "https://registry.npmjs.org/$name/-/$name-$version.tgz"
  local got
  got="sha512-$(openssl dgst -sha512 -binary "$work/$name.tgz" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "setup: $name-$version.tgz has integrity $got, expected $integrity: refusing it" >&2
    exit 1
  fi
  mkdir "$work/$name"
  tar -xzf "$work/$name.tgz" -C "$work/$name" --strip-components=1 --exclude='*.map' \
    "${@/#/package/}" package/package.json
  mkdir -p "$DEPS"
  rm -rf "$dir"
  mv "$work/$name" "$dir"  # whole or not at all: package.json is what the check above reads
}

# The Python grammar of tree-sitter (tool/python): its generated parser. CMake compiles its
# src/parser.c and src/scanner.c against the Debian runtime above (libtree-sitter-dev, ABI 13-14).
npm_package tree-sitter-python 0.23.6 \
  "sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A==" \
  src LICENSE

# pyright (tool/python/verify): the independent checker of Python rewrites, run by Debian's
# nodejs (>= 14). Its bundled dist/ needs nothing else from npm.
npm_package pyright 1.1.414 \
  "sha512-FPZZb51jepDX4eP7TEYDeNFtmE3WgwkkEcJpvH3/QmUSsj0EAy3LXu+xB4T/FWDejtsXlCfFr/rbWFjwuwuXww==" \
  index.js dist LICENSE.txt
