#!/usr/bin/env python3
"""Benchmark (not a test): gridlock's Python scan of megatron/core against Megatron-LM's own
checker (PR #6258, tools/check_process_group_usage.py --stats), side by side in one run.

Per round, on the same tree:
  (a) the checker, `python3 CHECKER --stats` with its root set to the tree;
  (b) gridlock cold: gridlock_bench_python_scan TREE --rules rules/megatron-core-ratchet.json
      with an empty cache directory (every module parsed, the program resolved);
  (c) gridlock warm: the same again on the cache (b) filled, nothing changed.
One untimed warm-up of each first (the page cache). Prints the medians of each side's wall
time (the whole process, start-up included), its CPU time (user + system) and its peak
memory, the ratios the issue sets as goals (cold at most 0.5x the checker's wall time; warm at
most 5% of cold), the counts both found (they must agree), and the load average before and
after (the machine may be shared). With --baseline OTHER (another build of the same bench, the
code before a change), its cold and warm runs join each round, interleaved, with their ratios.

  cmake --build build --target gridlock_bench_python_scan
  python3 bench/megatron_scan.py --bench build/tool/python/gridlock_bench_python_scan \\
      --checker CHECKER.py TREE
scripts/megatron-check.sh fetches a tree and the checker. Only the standard library is used.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CHECKER = r"""
import importlib.util, pathlib, sys
spec = importlib.util.spec_from_file_location("cpgu", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
m.REPO_ROOT = pathlib.Path(sys.argv[2]).resolve()
m.SCAN_ROOT = m.REPO_ROOT / "megatron" / "core"
sys.argv = ["check_process_group_usage.py", "--stats"]
sys.exit(m.main())
"""


def run(cmd):
    """The process's own output, wall time, CPU time and peak memory (os.wait4: its own)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    out = proc.stdout.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit("megatron_scan: %s exited %d" % (cmd[0], proc.returncode))
    return {"out": out, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "rss_mb": usage.ru_maxrss / 1024}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", required=True, help="the built gridlock_bench_python_scan")
    ap.add_argument("--checker", required=True, help="tools/check_process_group_usage.py")
    ap.add_argument("--rules", default=os.path.join(os.path.dirname(__file__), "..", "rules",
                                                    "megatron-core-ratchet.json"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baseline", help="another gridlock_bench_python_scan, run beside --bench")
    ap.add_argument("tree")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="gridlock-megatron-bench-")
    cache = os.path.join(work, "cache")

    def scan(bench, cache, cold):
        def cmd():
            if cold:
                shutil.rmtree(cache, ignore_errors=True)
            return [bench, a.tree, "--rules", a.rules, "--cache", cache]
        return cmd

    sides = {"checker --stats": lambda: [sys.executable, "-c", CHECKER, a.checker, a.tree],
             "gridlock cold": scan(a.bench, cache, True),
             "gridlock warm": scan(a.bench, cache, False)}
    if a.baseline:
        sides["baseline cold"] = scan(a.baseline, cache + "-baseline", True)
        sides["baseline warm"] = scan(a.baseline, cache + "-baseline", False)
    load = os.getloadavg()
    results = {k: [] for k in sides}
    try:
        for k, cmd in sides.items():
            first = run(cmd())
        for _ in range(a.rounds):
            for k, cmd in sides.items():
                results[k].append(run(cmd()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = {k: {f: statistics.median(r[f] for r in rs) for f in ("wall", "cpu", "rss_mb")}
           for k, rs in results.items()}
    print("load average (1, 5, 15 min): %.2f %.2f %.2f before, %.2f %.2f %.2f after"
          % (load + os.getloadavg()))
    for k in sides:
        # Milliseconds: a warm run takes a few hundredths of a second.
        print("%-16s median %7.3f s wall, %6.3f s CPU, %6.1f MB peak (walls %s)"
              % (k, med[k]["wall"], med[k]["cpu"], med[k]["rss_mb"],
                 ", ".join("%.3f" % r["wall"] for r in results[k])))
    checker = results["checker --stats"][-1]["out"].splitlines()[0]
    ours = json.loads(results["gridlock cold"][-1]["out"].strip().splitlines()[-1])
    warm = json.loads(results["gridlock warm"][-1]["out"].strip().splitlines()[-1])
    print("checker: %s" % checker)
    print("gridlock: %d reads in %d modules (warm: %d reads, %d of %d from the cache, %d files "
          "read)" % (ours["reads"], ours["modules"], warm["reads"], warm["hits"], warm["modules"],
                     warm.get("files_read", -1)))
    chk = med["checker --stats"]
    for who in ["gridlock"] + (["baseline"] if a.baseline else []):
        cold, hot = med[who + " cold"], med[who + " warm"]
        print("%s cold / checker: %.2fx wall (goal <= 0.5), %.2fx CPU"
              % (who, cold["wall"] / chk["wall"], cold["cpu"] / chk["cpu"]))
        print("%s warm / cold: %.1f%% wall (goal <= 5%%), %.1f%% CPU"
              % (who, 100 * hot["wall"] / cold["wall"], 100 * hot["cpu"] / cold["cpu"]))
    if a.baseline:
        base = json.loads(results["baseline warm"][-1]["out"].strip().splitlines()[-1])
        if base["reads"] != warm["reads"]:
            sys.exit("megatron_scan: the baseline counts %d reads, --bench %d"
                     % (base["reads"], warm["reads"]))
        print("warm / baseline warm: %.2fx wall, %.2fx CPU"
              % (med["gridlock warm"]["wall"] / med["baseline warm"]["wall"],
                 med["gridlock warm"]["cpu"] / med["baseline warm"]["cpu"]))


if __name__ == "__main__":
    main()
