#!/usr/bin/env bash
# Fails when a C++ file of tool/, runtime/, tests/ or bench/ is not as clang-format-19 writes it
# with the root's .clang-format. fixtures/ are input to the rewriter and keep their own layout.
# Usage: scripts/check-format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=${CLANG_FORMAT:-clang-format-19}
if ! command -v "$fmt" >/dev/null; then
  echo "check-format: $fmt not found (scripts/setup.sh installs it)" >&2
  exit 2
fi
mapfile -t files < <(find tool runtime tests bench -type f \
  \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "check-format: no C++ files found under tool/ runtime/ tests/ bench/" >&2
  exit 2
fi
if [ "${1:-}" = "--fix" ]; then
  "$fmt" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi
"$fmt" --dry-run -Werror "${files[@]}"
echo "check-format: all ${#files[@]} files are as .clang-format says"
