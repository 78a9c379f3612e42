#!/usr/bin/env bash
# Installs every Debian package the build and tests need, and the one npm package (the
# tree-sitter Python grammar). Fast when they are already there:
# dpkg is asked first and apt runs only for what is missing.
set -euo pipefail
PACKAGES=(
  cmake ninja-build git
  clang-19 libclang-19-dev llvm-19-dev
  clang-format-19  # scripts/check-format.sh (ctest format_check)
  nlohmann-json3-dev libcli11-dev libpugixml-dev
  libgtest-dev libgmock-dev
  libopenmpi-dev openmpi-bin
  python3-jsonschema  # tests/install/validate_packs.py: packs against the published schema
  libtree-sitter-dev  # tool/python: the tree-sitter runtime (0.20.7: grammar ABI 13-14)
  curl ca-certificates openssl  # the Python grammar's tarball and its integrity, below
  python3-debian  # tests/install/check_copyright.py: the .deb's Debian copyright file
  python3-torch python3-pytest  # fixtures/pymodel: its pytest suite, torch.distributed on gloo (CPU)
  python3-yaml  # scripts/check_workflow.py: the documented GitHub workflow
  bear  # scripts/ci-recipes.sh: README's recipe for a build without CMake
  zsh groff-base  # tests/install: the zsh completion runs, the man page renders without warnings
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

# The Python grammar of tree-sitter (tool/python): its generated parser from the npm registry,
# pinned by version and checked against the registry's sha512 integrity, unpacked into the
# git-ignored .deps/ of this checkout (never committed). CMake compiles its src/parser.c and
# src/scanner.c against the Debian runtime above (libtree-sitter-dev, ABI 13-14).
TS_PYTHON_VERSION=0.23.6
TS_PYTHON_INTEGRITY="sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A=="
TS_PYTHON_DIR="$(cd "$(dirname "$0")/.." && pwd)/.deps/tree-sitter-python-$TS_PYTHON_VERSION"
if [ ! -f "$TS_PYTHON_DIR/src/parser.c" ]; then
  echo "setup: fetching tree-sitter-python $TS_PYTHON_VERSION from registry.npmjs.org" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  curl -fsSL --retry 3 -o "$work/grammar.tgz" \
    "https://registry.npmjs.org/tree-sitter-python/-/tree-sitter-python-$TS_PYTHON_VERSION.tgz"
  got="sha512-$(openssl dgst -sha512 -binary "$work/grammar.tgz" | base64 -w0)"
  if [ "$got" != "$TS_PYTHON_INTEGRITY" ]; then
    echo "setup: tree-sitter-python-$TS_PYTHON_VERSION.tgz has integrity $got," \
      "expected $TS_PYTHON_INTEGRITY: refusing it" >&2
    exit 1
  fi
  mkdir "$work/grammar"
  tar -xzf "$work/grammar.tgz" -C "$work/grammar" --strip-components=1 \
    package/src package/LICENSE package/package.json
  mkdir -p "$(dirname "$TS_PYTHON_DIR")"
  rm -rf "$TS_PYTHON_DIR"
  mv "$work/grammar" "$TS_PYTHON_DIR"  # whole or not at all: parser.c is what configure checks
fi
