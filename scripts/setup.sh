#!/usr/bin/env bash
# Installs every Debian package the build and tests need. Fast when they are already there:
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
