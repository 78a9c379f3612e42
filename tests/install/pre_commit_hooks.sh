#!/usr/bin/env bash
# The repository's .pre-commit-hooks.yaml as a project uses it with Debian's pre-commit, offline:
# a hooks repository holding the file at a tag, and a Python project (configured by its
# pyproject.toml's [tool.gridlock]) whose .pre-commit-config.yaml names it by `repo:` and `rev:`.
# A commit that adds a Python read is refused with the read at its file:line:col; one that adds
# none is made; a CUDA file runs the hook too; a commit of a Markdown file alone skips it. The
# local hook of docs/examples/pre-commit-config.yaml is the same hook.
# Usage: pre_commit_hooks.sh GRIDLOCK_BIN SOURCE_DIR
set -euo pipefail
bin=$(realpath "$1"); src=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-pre-commit-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "pre_commit_hooks: FAIL: $*" >&2; exit 1; }
trap 'echo "pre_commit_hooks: FAIL: a command failed at line $LINENO" >&2' ERR
command -v pre-commit >/dev/null || fail "pre-commit is not installed (scripts/setup.sh installs it)"
mkdir -p "$tmp/bin"
ln -s "$bin" "$tmp/bin/gridlock"
export PATH="$tmp/bin:$PATH" PRE_COMMIT_HOME="$tmp/pre-commit-home" GIT_CONFIG_GLOBAL=/dev/null \
  GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.com GIT_COMMITTER_NAME=ci \
  GIT_COMMITTER_EMAIL=ci@example.com GRIDLOCK_PROGRESS_INTERVAL=1000000000

# The local hook the docs show is the published one, but for how pre-commit finds it.
/usr/bin/python3 - "$src/.pre-commit-hooks.yaml" "$src/docs/examples/pre-commit-config.yaml" <<'PY'
import sys, yaml
published = yaml.safe_load(open(sys.argv[1]))
local = yaml.safe_load(open(sys.argv[2]))["repos"][0]["hooks"][0]
assert len(published) == 1, published
hook = published[0]
for key in ("id", "name", "entry", "language", "pass_filenames", "types_or"):
    assert local.get(key) == hook.get(key), (key, local.get(key), hook.get(key))
assert "python" in hook["types_or"], hook["types_or"]
PY

# The hooks repository: the file under test, committed and tagged.
mkdir "$tmp/hooks" && cd "$tmp/hooks"
git init -q -b main . && cp "$src/.pre-commit-hooks.yaml" . && git add -A && git commit -q -m hooks
git tag v0.1.0

# The project: one read of pkg.ps.get_tp, in pkg/use.py; its baseline committed.
mkdir -p "$tmp/project/pkg" "$tmp/project/csrc" && cd "$tmp/project"
: >pkg/__init__.py
printf '_G = None\n\n\ndef get_tp():\n    return _G\n' >pkg/ps.py
printf 'from pkg import ps\n\n\ndef f():\n    return ps.get_tp()\n' >pkg/use.py
printf '__global__ void k() {}\n' >csrc/kernel.cu
cat >py.json <<'END'
{"name": "py", "scope": {"include": ["pkg/**"]},
 "accessors": [{"python": "pkg.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]}
END
cat >pyproject.toml <<'END'
[project]
name = "pkg"

[tool.gridlock]
rules = ["py.json"]
baseline = "gridlock-baseline.json"
END
cat >.pre-commit-config.yaml <<END
repos:
  - repo: $tmp/hooks
    rev: v0.1.0
    hooks:
      - id: gridlock-gate
END
git init -q -b main .
gridlock gate -q --update >/dev/null
# The facts cache (.gridlock-cache at the root: no build directory) ignores itself.
[ -f .gridlock-cache/.gitignore ] || fail "the cache directory has no .gitignore"
git add -A && git commit -q -m project
[ -z "$(git ls-files .gridlock-cache)" ] || fail "git add -A took the cache: $(git ls-files .gridlock-cache | head -3)"
pre-commit install >/dev/null

# A new read: refused, the read at its place.
printf '\n\ndef g():\n    return ps.get_tp()\n' >>pkg/use.py
git add pkg/use.py
rc=0; git commit -q -m "a new global read" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" != 0 ] || { cat "$tmp/out"; fail "the hook let a commit add a global read"; }
grep -qxF 'pkg/use.py:9:15: error: new global read: global tp group from pkg.ps.get_tp in pkg.use.g; fix: thread a group parameter [gridlock-gate]' \
  "$tmp/out" || { cat "$tmp/out"; fail "the hook does not show the new read at its place"; }
grep -q '^gridlock gate\.*Failed$' "$tmp/out" || { cat "$tmp/out"; fail "pre-commit did not say Failed"; }
git reset -q --hard HEAD

# No new read: the hook runs and passes.
printf '\n\ndef h():\n    return None\n' >>pkg/use.py
git commit -q -am "no new read" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "a commit adding no read was refused"; }
grep -q '^gridlock gate\.*Passed$' "$tmp/out" || { cat "$tmp/out"; fail "the hook did not run on Python"; }

# CUDA runs it too (types_or); a Markdown file alone does not.
printf '__global__ void k2() {}\n' >>csrc/kernel.cu
git commit -q -am "cuda" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the CUDA commit was refused"; }
grep -q '^gridlock gate\.*Passed$' "$tmp/out" || { cat "$tmp/out"; fail "the hook did not run on CUDA"; }
printf 'notes\n' >README.md
git add README.md
git commit -q -m "docs" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the docs commit was refused"; }
grep -q '^gridlock gate\.*(no files to check)Skipped$' "$tmp/out" ||
  { cat "$tmp/out"; fail "the hook was not skipped on a Markdown file"; }
echo "pre_commit_hooks: OK"
