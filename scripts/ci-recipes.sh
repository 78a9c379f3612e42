#!/usr/bin/env bash
# Runs the commands the documented recipes run, on a copy of fixtures/ci in a fresh git
# repository, so that they cannot rot (ctest ci_recipes):
#   1. README.md, "Use it in your project": every line but the package install (the build under
#      test is installed into a temporary prefix instead, as its comment offers);
#   2. docs/examples/github-workflow.yml: the `run:` of each step, in order (the same install
#      left out; the checkout, cache and upload-sarif actions are not run, the SARIF they would
#      upload is checked): green on the baseline, red with SARIF `new` on a change that adds a
#      read; and what GitHub needs of it that running cannot show (scripts/check_workflow.py:
#      permissions, apt-get update, the cache saved when the gate fails);
#   3. docs/examples/pre-commit as the repository's git hook: a commit adding a read is refused,
#      one that does not is made; docs/examples/pre-commit-config.yaml runs the same command;
#   4. README.md's lines for a build without CMake: bear records the database of a Makefile
#      build of the same project, and the gate reads it;
#   5. docs/examples/github-workflow-python.yml on a copy of fixtures/downstream (a Python
#      project configured by its pyproject.toml): no CMake step, the facts cache where the
#      workflow's cache steps look for it (and out of git), green on the baseline, an ::error
#      annotation at a new read; and, as in a container job, a checkout another uid owns:
#      ignored with a warning, trusted with GRIDLOCK_SAFE_DIRECTORIES as docs/ci.md sets it.
# Usage: ci-recipes.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1"); src=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-ci-recipes-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "ci-recipes: FAIL: $*" >&2; exit 1; }
trap 'echo "ci-recipes: FAIL: a command failed at line $LINENO" >&2' ERR
recipe() { python3 "$src/scripts/recipe_commands.py" "$@"; }

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
export PATH="$tmp/prefix/bin:$PATH" CMAKE_PREFIX_PATH="$tmp/prefix"
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.com GIT_COMMITTER_NAME=ci \
  GIT_COMMITTER_EMAIL=ci@example.com GIT_CONFIG_GLOBAL=/dev/null
[ "$(command -v gridlock)" = "$tmp/prefix/bin/gridlock" ] || fail "gridlock on PATH is not the install"

cp -r "$src/fixtures/ci" "$tmp/project"
cd "$tmp/project"
git init -q -b main . && printf 'build/\n' >.gitignore && git add -A && git commit -q -m project

# 1. README: from the install to a green gate.
recipe readme "$src/README.md" >"$tmp/readme.sh"
grep -q '^# installed by the test instead: sudo apt install' "$tmp/readme.sh" ||
  fail "README's recipe no longer starts with the package install: $(head -1 "$tmp/readme.sh")"
bash -eo pipefail "$tmp/readme.sh" >"$tmp/readme.out" 2>&1 ||
  { cat "$tmp/readme.out"; fail "README's recipe failed"; }
grep -qx 'gate: passed: 1 global reads, as in the baseline' "$tmp/readme.out" ||
  { cat "$tmp/readme.out"; fail "README's last gate did not pass on the one read"; }
[ -z "$(git status --porcelain)" ] || fail "README's recipe left uncommitted files: $(git status --porcelain)"

# 2. The workflow's steps: green now.
/usr/bin/python3 "$src/scripts/check_workflow.py" "$src/docs/examples/github-workflow.yml" ||
  fail "the workflow lacks what GitHub needs of it"
recipe workflow "$src/docs/examples/github-workflow.yml" >"$tmp/workflow.sh"
grep -q '^gridlock gate' "$tmp/workflow.sh" || fail "the workflow runs no gridlock gate"
sarif_states() {  # baselineState -> count, e.g. "new=1 unchanged=1"
  python3 -c 'import collections, json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0", d["version"]
c = collections.Counter(r.get("baselineState") for r in d["runs"][0]["results"])
print(" ".join("%s=%d" % kv for kv in sorted(c.items())))' gridlock.sarif
}
bash -eo pipefail "$tmp/workflow.sh" >"$tmp/workflow.out" 2>&1 ||
  { cat "$tmp/workflow.out"; fail "the workflow failed on the baseline"; }
[ "$(sarif_states)" = "unchanged=1" ] || fail "workflow SARIF on the baseline: $(sarif_states)"
rm gridlock.sarif

# A change that adds a read: the same steps fail, the new read in the log and marked new.
cat >>src/model.cpp <<'END'

int model_world() { return gridlock::parallel_state::get_data_parallel_world_size(); }
END
git commit -q -am "a new global read"
rc=0; bash -eo pipefail "$tmp/workflow.sh" >"$tmp/workflow.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/workflow.out"; fail "the workflow exited $rc on a new read, not 1"; }
grep -q '^src/model.cpp:11:54: error: new global read: ' "$tmp/workflow.out" ||
  { cat "$tmp/workflow.out"; fail "the workflow log does not show the new read at its place"; }
[ "$(sarif_states)" = "new=1 unchanged=1" ] || fail "workflow SARIF with a new read: $(sarif_states)"
git reset -q --hard HEAD~1 && rm -f gridlock.sarif

# 3. The pre-commit hook, as git runs it.
cp "$src/docs/examples/pre-commit" .git/hooks/pre-commit
chmod +x .git/hooks/pre-commit
cat >>src/model.cpp <<'END'

int model_world() { return gridlock::parallel_state::get_data_parallel_world_size(); }
END
git add src/model.cpp
rc=0; git commit -q -m "a new global read" >"$tmp/hook.out" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "the hook let a commit add a global read"
grep -q '^src/model.cpp:11:54: error: new global read: ' "$tmp/hook.out" ||
  { cat "$tmp/hook.out"; fail "the hook does not show the new read at its place"; }
git checkout -q HEAD -- src/model.cpp
echo '// a comment, no read' >>src/model.cpp
git commit -q -am "no new read" >"$tmp/hook.out" 2>&1 ||
  { cat "$tmp/hook.out"; fail "the hook refused a commit that adds no read"; }
hook=$(grep '^exec ' "$src/docs/examples/pre-commit" | sed 's/^exec //')
entry=$(recipe entry "$src/docs/examples/pre-commit-config.yaml")
[ "$entry" = "$hook" ] || fail "pre-commit-config.yaml runs '$entry', the hook '$hook'"

# 4. Not CMake: README's bear lines on a Makefile build of the same sources (compiled, not
# linked), then the gate: the one read, as with CMake's database.
cp -r "$src/fixtures/ci" "$tmp/make-project"
cd "$tmp/make-project"
rm CMakeLists.txt
cat >Makefile <<END
CXXFLAGS = -std=c++20 -I$tmp/prefix/include $(mpicxx --showme:compile)
OBJS = src/model.o train/main.o
all: \$(OBJS)
clean: ; rm -f \$(OBJS)
END
printf '{"build": "build", "rules": ["gridlock-legacy", "mpi"], "baseline": ".gridlock-baseline.json"}\n' \
  >.gridlock.json
recipe readme-bear "$src/README.md" >"$tmp/bear.sh"
bash -eo pipefail "$tmp/bear.sh" >"$tmp/bear.out" 2>&1 ||
  { cat "$tmp/bear.out"; fail "README's bear lines failed"; }
gridlock gate >"$tmp/bear.out" 2>&1 || { cat "$tmp/bear.out"; fail "the gate on bear's database failed"; }
grep -qx 'gate: passed: 1 global reads, as in the baseline' "$tmp/bear.out" ||
  { cat "$tmp/bear.out"; fail "the gate on bear's database did not pass on the one read"; }

# 5. The Python workflow on a Python project: its pyproject.toml, its committed baseline.
pyflow="$src/docs/examples/github-workflow-python.yml"
/usr/bin/python3 "$src/scripts/check_workflow.py" "$pyflow" || fail "the Python workflow lacks what GitHub needs of it"
cp -r "$src/fixtures/downstream" "$tmp/py-project"
cd "$tmp/py-project"
git init -q -b main . && git add -A && git commit -q -m project
recipe workflow "$pyflow" >"$tmp/py-workflow.sh"
grep -q '^gridlock gate' "$tmp/py-workflow.sh" || fail "the Python workflow runs no gridlock gate"
if grep -Eq '^[^#]*\bcmake\b' "$tmp/py-workflow.sh"; then fail "the Python workflow runs CMake"; fi
bash -eo pipefail "$tmp/py-workflow.sh" >"$tmp/py.out" 2>"$tmp/py.err" ||
  { cat "$tmp/py.out" "$tmp/py.err"; fail "the Python workflow failed on the baseline"; }
[ ! -s "$tmp/py.out" ] || { cat "$tmp/py.out"; fail "the Python workflow annotated a passing gate"; }
grep -qx 'gate: passed: 4 global reads, as in the baseline' "$tmp/py.err" ||
  { cat "$tmp/py.err"; fail "the Python workflow's gate did not pass on the four reads"; }
cache=$(/usr/bin/python3 -c 'import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["jobs"]["gate"]["steps"]
print(next(s["with"]["path"] for s in steps if str(s.get("uses", "")).startswith("actions/cache/restore@")))' "$pyflow")
[ -d "$cache/entries" ] || fail "the workflow caches $cache, where gridlock wrote no cache"
[ -z "$(git status --porcelain)" ] || fail "the Python workflow left files git sees: $(git status --porcelain)"
printf '\n\ndef cp_group():\n    return parallel_state.get_context_parallel_group()\n' \
  >>nemo/collections/llm/layers.py
git commit -q -am "a new global read"
rc=0; bash -eo pipefail "$tmp/py-workflow.sh" >"$tmp/py.out" 2>"$tmp/py.err" || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/py.out" "$tmp/py.err"; fail "the Python workflow exited $rc on a new read, not 1"; }
want='::error file=nemo/collections/llm/layers.py,line=29,col=27,endLine=29,endColumn=55,title=gridlock-gate::new global read: global cp group from megatron.core.parallel_state.get_context_parallel_group in nemo.collections.llm.layers.cp_group; fix: thread a group parameter'
[ "$(cat "$tmp/py.out")" = "$want" ] || { cat "$tmp/py.out"; fail "the new read's annotation is not '$want'"; }
grep -qx 'gate: FAILED: global reads rose (4 in the baseline, 5 now)' "$tmp/py.err" ||
  { cat "$tmp/py.err"; fail "the verdict is not on stderr"; }
git reset -q --hard HEAD~1

# A container job: the checkout belongs to the runner's uid, the job runs as another (root here,
# the file owned by nobody). The configuration is ignored, with a warning naming the way out;
# docs/ci.md's GRIDLOCK_SAFE_DIRECTORIES (the workspace) trusts it.
if [ "$(id -u)" = 0 ]; then
  chown -R 65534:65534 "$tmp/py-project"
  rc=0; gridlock gate -q >"$tmp/py.out" 2>"$tmp/py.err" || rc=$?
  [ "$rc" = 2 ] || { cat "$tmp/py.err"; fail "a checkout of another uid: exit $rc, not 2"; }
  grep -qF "gridlock: warning: $(pwd -P)/pyproject.toml: ignored, not a configuration of yours: owned by uid 65534" \
    "$tmp/py.err" || { cat "$tmp/py.err"; fail "no warning names the ignored configuration"; }
  grep -q 'GRIDLOCK_SAFE_DIRECTORIES: ${{ github.workspace }}' "$src/docs/ci.md" ||
    fail "docs/ci.md does not set GRIDLOCK_SAFE_DIRECTORIES for a container job"
  GRIDLOCK_SAFE_DIRECTORIES="$(pwd -P)" gridlock gate -q >"$tmp/py.out" 2>&1 ||
    { cat "$tmp/py.out"; fail "GRIDLOCK_SAFE_DIRECTORIES did not trust the checkout"; }
fi
echo "ci-recipes: OK"
