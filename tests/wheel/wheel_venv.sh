#!/usr/bin/env bash
# The wheel as a Python maintainer uses it: scripts/wheel.sh builds it (or GRIDLOCK_WHEEL names
# one), its RECORD holds (pypa's wheel unpacks it checking every hash), its tag states the
# highest glibc the binary needs, `pip install --no-index` puts it into a fresh venv offline,
# and the venv's `gridlock` (first on PATH, as after `activate`) tells the Python story on
# fixtures/pymodel (python_story.py). The venv lies outside every build tree, so the binary
# finds its packs where pip put them (<venv>/share/gridlock), never in the source tree.
# Exit 77 (skipped, and says so) only when Debian's python3-venv is missing.
# Usage: wheel_venv.sh SOURCE_DIR WORK_DIR   (WORK_DIR keeps the wheel's build between runs)
set -euo pipefail
src=$(realpath "$1"); work=$2
mkdir -p "$work"; work=$(realpath "$work")
fail() { echo "wheel_venv: FAIL: $*" >&2; exit 1; }
python=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-wheel-venv-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! "$python" -m venv "$tmp/probe" >"$tmp/probe.log" 2>&1; then
  if ! dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed"; then
    echo "wheel_venv: SKIPPED: python3 -m venv cannot make a virtualenv here: Debian's" \
      "python3-venv is not installed (scripts/setup.sh installs it)" >&2
    exit 77
  fi
  cat "$tmp/probe.log" >&2
  fail "python3 -m venv failed although python3-venv is installed"
fi

if [ -n "${GRIDLOCK_WHEEL:-}" ]; then
  wheel=$(realpath "$GRIDLOCK_WHEEL")
else
  # Its own build directory, configured once and rebuilt incrementally on later runs.
  WHEEL_BUILD_DIR=$work/build-python DIST_DIR=$work/dist JOBS=${JOBS:-2} \
    "$src/scripts/wheel.sh" || fail "scripts/wheel.sh failed"
  wheels=("$work"/dist/gridlock-*.whl)
  [ ${#wheels[@]} = 1 ] && [ -f "${wheels[0]}" ] || fail "expected one wheel, got: ${wheels[*]}"
  wheel=${wheels[0]}
fi
version=$(sed -n 's/^project(gridlock VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
name=$(basename "$wheel")
[[ $name =~ ^gridlock-$version-py3-none-manylinux_([0-9]+)_([0-9]+)_(x86_64|aarch64)\.whl$ ]] ||
  fail "$name is not gridlock-$version-py3-none-manylinux_X_Y_ARCH.whl"
tag_glibc="${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"

# Every file's hash against RECORD (wheel unpack refuses a mismatch), then what the binary needs.
"$python" -m wheel unpack -d "$tmp/unpacked" "$wheel" >/dev/null || fail "wheel unpack: bad RECORD"
bin=$tmp/unpacked/gridlock-$version/gridlock-$version.data/scripts/gridlock
[ -f "$bin" ] || fail "the wheel holds no gridlock-$version.data/scripts/gridlock"
readelf -d -W "$bin" >"$tmp/dynamic"
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$tmp/dynamic" | sort | tr '\n' ' ')
for lib in $needed; do
  case $lib in
    libc.so.6 | libm.so.6 | ld-linux-x86-64.so.2 | ld-linux-aarch64.so.1) ;;
    *) fail "the packaged binary needs $lib (NEEDED: $needed): only glibc may remain" ;;
  esac
done
# The highest GLIBC_x.y it needs is the tag's; no other symbol versions (libstdc++ is static).
readelf -V -W "$bin" | sed -n '/\.gnu\.version_r/,$ s/.*Name: \([^ ]*\) .*Flags.*/\1/p' |
  sort -u >"$tmp/versions"
grep -v '^GLIBC_[0-9.]*$' "$tmp/versions" >"$tmp/other" && fail "needs $(tr '\n' ' ' <"$tmp/other")"
highest=$(sed 's/^GLIBC_//' "$tmp/versions" | sort -t. -k1,1n -k2,2n -k3,3n | tail -1 | cut -d. -f1,2)
[ "$highest" = "$tag_glibc" ] || fail "the binary needs glibc $highest, the tag says $tag_glibc"

# A fresh venv, offline: no index, no configuration, no cache.
"$python" -m venv "$tmp/venv" || fail "python3 -m venv failed"
PIP_CONFIG_FILE=/dev/null "$tmp/venv/bin/pip" install --no-index --no-cache-dir "$wheel" \
  >"$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log"; fail "pip install --no-index failed"; }
outer_path=$PATH
export PATH="$tmp/venv/bin:$PATH"
[ "$(command -v gridlock)" = "$tmp/venv/bin/gridlock" ] ||
  fail "gridlock on PATH is $(command -v gridlock), not the venv's"
cmp -s "$bin" "$tmp/venv/bin/gridlock" || fail "the venv's gridlock is not the wheel's binary"
for f in rules/megatron-core.json rules/mpi.json schema/rule-pack.schema.json; do
  [ -f "$tmp/venv/share/gridlock/$f" ] || fail "pip put no share/gridlock/$f in the venv"
done
[ -f "$tmp/venv/share/man/man1/gridlock.1" ] || fail "pip put no share/man/man1/gridlock.1"

# pyright for the rewrite's type check: the copy scripts/setup.sh unpacked, named as a user
# would name theirs (the venv's binary is no build tree's, so it does not look there itself).
pyright=$(ls -d "$src"/.deps/pyright-*/index.js 2>/dev/null | head -1 || true)
cd "$tmp"
GRIDLOCK_PYRIGHT=$pyright "$python" "$src/tests/wheel/python_story.py" "$src" "$tmp/story" "$version" ||
  fail "the Python story from the venv failed"

# docs/examples/github-workflow-python.yml with this wheel: its `run:` lines as written, the pip
# line too (a fresh venv first on PATH stands for actions/setup-python's Python, wheels/ for the
# download), on a copy of fixtures/downstream: green, with each read the annotations count.
export PATH=$outer_path
"$python" -m venv "$tmp/ci-python" || fail "python3 -m venv failed"
cp -r "$src/fixtures/downstream" "$tmp/py-project"
mkdir "$tmp/py-project/wheels" && cp "$wheel" "$tmp/py-project/wheels/"
"$python" "$src/scripts/recipe_commands.py" workflow "$src/docs/examples/github-workflow-python.yml" |
  sed 's/^# installed by the test instead: \(pip install \)/\1/' >"$tmp/py-workflow.sh"
grep -q '^pip install ' "$tmp/py-workflow.sh" || fail "the Python workflow installs nothing with pip"
reads=$(grep -r --include='*.py' 'expect-read:' "$src/fixtures/downstream" | grep -vc ' edge$')
(cd "$tmp/py-project" && PATH="$tmp/ci-python/bin:$PATH" PIP_CONFIG_FILE=/dev/null \
  bash -eo pipefail "$tmp/py-workflow.sh") >"$tmp/py.out" 2>"$tmp/py.err" ||
  { cat "$tmp/py.out" "$tmp/py.err"; fail "the Python workflow failed with the wheel"; }
[ -x "$tmp/ci-python/bin/gridlock" ] || fail "the Python workflow's pip line installed no gridlock"
grep -qx "gate: passed: $reads global reads, as in the baseline" "$tmp/py.err" ||
  { cat "$tmp/py.out" "$tmp/py.err"; fail "the Python workflow's gate did not pass on the $reads reads"; }
echo "wheel_venv: OK ($name, $(stat -c %s "$wheel") bytes; NEEDED: $needed)"
