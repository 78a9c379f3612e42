#!/usr/bin/env bash
# Installs every Debian package the build and tests need, and two npm packages (the
# tree-sitter Python grammar, pyright) with npm. Fast when they are already there:
# dpkg is asked first and apt runs only for what is missing.
set -euo pipefail
PACKAGES=(
  cmake ninja-build git
  clang-19 libclang-19-dev llvm-19-dev
  clang-format-19  # scripts/check-format.sh (ctest format_check)
  nlohmann-json3-dev libcli11-dev libpugixml-dev
  libzstd-dev zlib1g-dev  # tool/cache/packed.cpp: the cache's compression, LLVM's formats
  libssl-dev  # tool/support/md5.cpp: MD5 from OpenSSL's libcrypto (digests, cache keys)
  libgtest-dev libgmock-dev
  libopenmpi-dev openmpi-bin
  python3-jsonschema  # tests/install/validate_packs.py: packs against the published schema
  libtree-sitter-dev  # tool/python: the tree-sitter runtime (0.20.7: grammar ABI 13-14)
  ca-certificates openssl  # the npm packages below: the registry's TLS, their integrity
  nodejs  # pyright (tool/rewrite/python/checks), below
  libtomlplusplus-dev  # toml++ (header-only here): [tool.gridlock] and black's settings in pyproject.toml
  pre-commit  # tests/install/pre_commit_hooks.sh: .pre-commit-hooks.yaml as pre-commit runs it
  python3-debian  # tests/install/check_copyright.py: the .deb's Debian copyright file
  python3-torch python3-pytest  # fixtures/pymodel: its pytest suite, torch.distributed on gloo (CPU)
  python3-yaml  # scripts/check_workflow.py: the documented GitHub workflow
  bear  # scripts/ci-recipes.sh: README's recipe for a build without CMake
  zsh groff-base  # tests/install: the zsh completion runs, the man page renders without warnings
  jq  # scripts/oracle.sh: --expect reads SARIF
  python3-wheel binutils  # scripts/wheel.sh: pypa's wheel packs it (0.32+: `wheel pack`), readelf checks the binary
  python3-venv  # tests/wheel: the wheel installed into a fresh virtualenv with pip
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches the npm packages below. Debian's nodejs comes without it (package npm); a nodejs
# that bundles its own (NodeSource's) conflicts with that package, so it is asked for only when
# no npm runs.
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm packages, each pinned by version and checked against its sha512 integrity, unpacked into
# the git-ignored .deps/NAME-VERSION of this checkout (never committed): scripts/npm_package.sh.
DEPS="$(cd "$(dirname "$0")/.." && pwd)/.deps"
npm_package() {  # NAME VERSION INTEGRITY PATH-IN-PACKAGE...
  "$(dirname "$0")/npm_package.sh" "$DEPS" "$@"
}

# The Python grammar of tree-sitter (tool/python): its generated parser. CMake compiles its
# src/parser.c and src/scanner.c against the Debian runtime above (libtree-sitter-dev, ABI 13-14).
npm_package tree-sitter-python 0.23.6 \
  "sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A==" \
  src LICENSE

# pyright (tool/rewrite/python/checks): the independent checker of Python rewrites, run by Debian's
# nodejs (>= 14). Its bundled dist/ needs nothing else from npm.
npm_package pyright 1.1.414 \
  "sha512-FPZZb51jepDX4eP7TEYDeNFtmE3WgwkkEcJpvH3/QmUSsj0EAy3LXu+xB4T/FWDejtsXlCfFr/rbWFjwuwuXww==" \
  index.js dist LICENSE.txt
