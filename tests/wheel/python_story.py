#!/usr/bin/python3
"""The Python story on fixtures/pymodel with the `gridlock` first on PATH (the wheel's, in a
venv: tests/wheel/wheel_venv.sh), every expectation from the fixture's annotations and docs:

  --version   names the version and says it is the Python build;
  scan        every read at the line and as the `# expect-read:` annotation beside it says;
  gate        passes on the committed baseline (25 reads: the 26 annotations but the edge);
              fails (exit 1) on a copy with one more read, naming it at file:line:col;
  callers     minimodel.mlp.MLP's tp_group: the three constructions, each passing it by keyword;
  rewrite     --apply leaves only the annotations whose move is fix=none (the edge's shim);
  C++         a compile database (-p) is refused with exit 2, naming the full build.

usage: python_story.py SOURCE_DIR WORK_DIR VERSION"""

import json
import os
import re
import shutil
import subprocess
import sys

# The move an annotation's fix= names -> the scan's hint (tests/scan/annotations.h, Move).
HINT_OF_MOVE = {'require': 'require', 'none': 'none', 'substitute': 'thread', 'thread': 'thread',
                'store': 'thread'}


def annotations(root):
    """(file, line, kind, group, guard, hint, edge) of every `# expect-read:` under root."""
    out = []
    for dirpath, dirnames, files in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ('__pycache__', '.gridlock-cache'))
        for name in sorted(files):
            if not name.endswith('.py'):
                continue
            path = os.path.join(dirpath, name)
            with open(path) as f:
                for n, line in enumerate(f, 1):
                    m = re.search(r'# expect-read: ([^#]*)', line)
                    if not m:
                        continue
                    words = m.group(1).split()
                    kind, group, guard, fix, edge = words[0], '', 'none', None, False
                    for w in words[1:]:
                        if w.startswith('guard='):
                            guard = w[6:]
                        elif w.startswith('fix='):
                            fix = w[4:]
                        elif w == 'edge':
                            edge = True
                        elif '=' not in w:
                            group = w
                        else:
                            raise SystemExit(f"{path}:{n}: unknown annotation word {w}")
                    out.append((os.path.relpath(path, root), n, kind, group, guard,
                                HINT_OF_MOVE[fix], edge))
    return sorted(out)


def of_report(reads):
    return sorted((r['file'], r['line'], r['kind'], r['group'], r['guard'], r['fix'],
                   r['edge']) for r in reads)


class Story:
    def __init__(self, src, work, version):
        self.src, self.work, self.version = src, work, version
        self.problems = []
        self.rules = os.path.join(src, 'fixtures', 'pymodel', 'gridlock.json')

    def copy(self, name):
        dest = os.path.join(self.work, name)
        shutil.copytree(os.path.join(self.src, 'fixtures', 'pymodel'), dest,
                        ignore=shutil.ignore_patterns('__pycache__', '.gridlock-cache'))
        return dest

    def run(self, args, cwd, want_rc):
        r = subprocess.run(['gridlock'] + args, cwd=cwd, capture_output=True, text=True)
        if r.returncode != want_rc:
            self.problems.append(f"gridlock {' '.join(args)}: exit {r.returncode}, expected "
                                 f"{want_rc}; stderr: {r.stderr.strip()}")
        return r

    def expect(self, what, got, want):
        if got != want:
            self.problems.append(f"{what}: got {got!r}, expected {want!r}")

    def version_line(self):
        r = self.run(['--version'], self.work, 0)
        first = r.stdout.splitlines()[0] if r.stdout else ''
        if not first.startswith(f'gridlock {self.version} ') or 'Python build' not in first:
            self.problems.append(f"--version: '{first}', expected 'gridlock {self.version} "
                                 "(... Python build ...)'")

    def scan(self, tree, name):
        out = os.path.join(self.work, f'{name}.json')
        self.run(['scan', '--rules', self.rules, '--root', '.', '--format', 'json', '-o', out],
                 tree, 0)
        with open(out) as f:
            return json.load(f)

    def scan_and_gate(self):
        tree = self.copy('baseline')
        expected = annotations(tree)
        self.expect('annotated reads', len(expected), 26)
        report = self.scan(tree, 'scan-baseline')
        self.expect('scan: reads against the annotations', of_report(report['reads']), expected)
        self.expect('scan: parse errors', report['parse_errors'], [])
        baseline = os.path.join(self.src, 'fixtures', 'pymodel', 'gridlock-baseline.json')
        counted = sum(1 for a in expected if not a[6])
        r = self.run(['gate', '--rules', self.rules, '--baseline', baseline], tree, 0)
        self.expect('gate', (r.stdout + r.stderr).strip(),
                    f'gate: passed: {counted} global reads, as in the baseline')
        # One more read, in a function of its own at the end of mlp.py (which imports
        # parallel_state): line 31 after the 27 lines and two blank ones, column 27 after
        # `    return parallel_state.`.
        mlp = os.path.join(tree, 'minimodel', 'mlp.py')
        with open(mlp) as f:
            lines = f.read().count('\n')
        self.expect('lines of minimodel/mlp.py', lines, 27)
        with open(mlp, 'a') as f:
            f.write('\n\ndef data_group():\n    return parallel_state.get_data_parallel_group()\n')
        r = self.run(['gate', '--rules', self.rules, '--baseline', baseline], tree, 1)
        if not r.stdout.startswith('minimodel/mlp.py:31:27: error: new global read: '):
            self.problems.append(f"gate with a new read: stdout {r.stdout!r}, expected "
                                 "minimodel/mlp.py:31:27 first")
        want = f'gate: FAILED: global reads rose ({counted} in the baseline, {counted + 1} now)'
        if want not in r.stdout + r.stderr:
            self.problems.append(f"gate with a new read: no '{want}' in {r.stdout + r.stderr!r}")

    def callers(self):
        tree = os.path.join(self.work, 'baseline')
        r = self.run(['callers', '--rules', self.rules, '--function', 'minimodel.mlp.MLP',
                      '--param', 'tp_group', '--format', 'json'], tree, 0)
        sites = sorted((s['file'], s['line'], s['column'], s['supplied'], s['passed'])
                       for s in json.loads(r.stdout or '{"sites": []}')['sites'])
        # `self.mlp = MLP(...)` at 8 columns in, `y = MLP(...)` at 4.
        self.expect('callers MLP tp_group', sites, [
            ('minimodel/language_model.py', 50, 20, 'explicit', 'keyword'),
            ('minimodel/vision.py', 36, 20, 'explicit', 'keyword'),
            ('tests/test_layers.py', 39, 9, 'explicit', 'keyword'),
        ])

    def rewrite(self):
        tree = self.copy('change')
        checker = [] if os.environ.get('GRIDLOCK_PYRIGHT') else ['--python-checker', 'warn']
        self.run(['rewrite', '--rules', self.rules, '--root', '.', '--apply'] + checker, tree, 0)
        left = [a for a in annotations(os.path.join(self.src, 'fixtures', 'pymodel'))
                if a[5] == 'none']
        report = self.scan(tree, 'scan-change')
        self.expect('scan after the rewrite: reads left',
                    [(r['file'], r['kind'], r['edge']) for r in report['reads']],
                    [(a[0], a[2], a[6]) for a in left])

    def cpp_input(self):
        db = os.path.join(self.work, 'cpp')
        os.makedirs(db)
        with open(os.path.join(db, 'a.cpp'), 'w') as f:
            f.write('int main() { return 0; }\n')
        with open(os.path.join(db, 'compile_commands.json'), 'w') as f:
            json.dump([{'directory': db, 'file': 'a.cpp', 'command': 'c++ -c a.cpp'}], f)
        r = self.run(['scan', '-p', db, '--rules', 'mpi'], db, 2)
        if 'full build' not in r.stderr:
            self.problems.append(f"scan -p: stderr {r.stderr!r} names no full build")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, work, version = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    story = Story(os.path.realpath(src), os.path.realpath(work), version)
    for step in (story.version_line, story.scan_and_gate, story.callers, story.rewrite,
                 story.cpp_input):
        step()
    for p in story.problems:
        print(f"python_story: {p}")
    if not story.problems:
        print("python_story: OK (version, scan, gate, callers, rewrite, C++ refused)")
    return 1 if story.problems else 0


if __name__ == '__main__':
    sys.exit(main())
