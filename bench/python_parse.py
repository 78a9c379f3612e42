#!/usr/bin/env python3
"""Benchmark (not a test): the Python frontend's per-file step against CPython's own parser.

Times, in one run and over the same .py files (ROOT/DIR, e.g. a Megatron-LM checkout and
megatron/core),
  (a) gridlock_bench_python_extract ROOT DIR --jobs 1   tree-sitter parse + gridlock's extraction
  (b) gridlock_bench_python_extract ROOT DIR --jobs J   the same on J threads (default: all cores)
  (c) python3: ast.parse of every file, one process (what an embedded interpreter would do
      under its GIL)
alternating a, b, c, a, b, c, ... after one untimed warm-up of each, and prints the medians:
each side's own in-process wall time (file reading included, start-up excluded), and the CPU
time of its whole process (user + system, start-up included), which a loaded machine
disturbs less.

  cmake --build build --target gridlock_bench_python_extract
  python3 bench/python_parse.py --bench build/tool/python/gridlock_bench_python_extract ROOT DIR
Only the Python standard library is used.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys

AST = r"""
import ast, pathlib, sys, time
root = pathlib.Path(sys.argv[1]) / sys.argv[2]
files = sorted(p for p in root.rglob("*.py")
               if not any(part.startswith(".") or part == "__pycache__"
                          for part in p.relative_to(root).parts[:-1]))
start = time.perf_counter()
errors = 0
for f in files:
    try:
        ast.parse(f.read_bytes())
    except SyntaxError:
        errors += 1
print('{"files": %d, "with_errors": %d, "seconds": %.3f}' % (len(files), errors,
                                                            time.perf_counter() - start))
"""


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd):
    before = cpu()
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=True).stdout
    result = json.loads(out.decode().strip().splitlines()[-1])
    result["cpu"] = cpu() - before
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", required=True, help="the built gridlock_bench_python_extract")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("root")
    ap.add_argument("dir", nargs="?", default="")
    a = ap.parse_args()
    sides = {
        "tree-sitter, 1 thread": [a.bench, a.root, a.dir, "--jobs", "1"],
        "tree-sitter, %d threads" % a.jobs: [a.bench, a.root, a.dir, "--jobs", str(a.jobs)],
        "CPython ast.parse (%s)" % sys.version.split()[0]: [sys.executable, "-c", AST, a.root,
                                                            a.dir],
    }
    times = {k: [] for k in sides}
    cpus = {k: [] for k in sides}
    info = {}
    for k, cmd in sides.items():  # warm-up: the page cache, not timed
        info[k] = run(cmd)
    for _ in range(a.rounds):
        for k, cmd in sides.items():
            r = run(cmd)
            times[k].append(r["seconds"])
            cpus[k].append(r["cpu"])
    for k in sides:
        print("%-32s %4d files, %d with syntax errors: median %.2f s wall, %.2f s CPU (walls %s)"
              % (k, info[k]["files"], info[k]["with_errors"], statistics.median(times[k]),
                 statistics.median(cpus[k]), ", ".join("%.2f" % t for t in times[k])))


if __name__ == "__main__":
    main()
