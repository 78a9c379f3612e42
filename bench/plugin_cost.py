#!/usr/bin/env python3
"""Benchmark (not a test): what gridlock's Clang plugin adds to a compile of a real codebase.

K units of a compile database (every (N/K)-th in path order), each compiled with its own
command (its output sent to a temporary object), alternately without and with the plugin
(-fplugin=PLUGIN -fplugin-arg-gridlock-out/root/rules), --repeat times each, every compile
under /usr/bin/time -v. Per unit it keeps the median wall and CPU time of each side and the
peak resident memory; the table gives them and the ratio of the totals.

It checks, and exits 1 if a check fails: every compile succeeds, the plugin's directory holds
one facts file per unit, and `gridlock merge` of that directory reports what
`gridlock scan --no-cache` of the same units reports (JSON, all but summary.cache).

  python3 bench/plugin_cost.py --gridlock build/tool/cli/gridlock \\
      --plugin build/tool/plugin/libgridlock_plugin.so --checkout CODEBASE -p CODEBASE/build \\
      --rules bench/infinitrain.json --exclude 'third_party/*' --units 8 --repeat 3

The units must be compiled by clang (the plugin is a clang plugin): --exclude those nvcc
compiles. Prints the Markdown table on stdout, progress on stderr. Only the Python standard
library is used.
"""

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile

from benchlib import (compile_command, entry_file, every_kth, filtered_database,
                      report_without_cache, timed)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gridlock", required=True)
    ap.add_argument("--plugin", required=True, help="libgridlock_plugin.so")
    ap.add_argument("--checkout", required=True, help="the codebase's checkout (the plugin's root)")
    ap.add_argument("-p", dest="build", required=True, help="its build directory")
    ap.add_argument("--rules", action="append", required=True)
    ap.add_argument("--exclude", action="append", default=[],
                    help="units to leave out, a glob relative to the checkout (repeatable)")
    ap.add_argument("--units", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--work", help="where objects and facts go (default: a temporary directory)")
    args = ap.parse_args()

    checkout = os.path.realpath(args.checkout)
    work = os.path.realpath(args.work or tempfile.mkdtemp(prefix="gridlock-plugin-bench-"))
    facts = os.path.join(work, "facts")
    shutil.rmtree(facts, ignore_errors=True)
    os.makedirs(facts)
    kept = filtered_database(os.path.realpath(args.build), checkout, args.exclude,
                             os.path.join(work, "all"))
    picked = every_kth(kept, args.units)
    db_dir = os.path.join(work, "db")
    os.makedirs(db_dir, exist_ok=True)
    with open(os.path.join(db_dir, "compile_commands.json"), "w") as f:
        json.dump(picked, f, indent=1)
    rules = [os.path.realpath(r) for r in args.rules]
    plugin_flags = ["-fplugin=" + os.path.realpath(args.plugin),
                    "-fplugin-arg-gridlock-out=" + facts,
                    "-fplugin-arg-gridlock-root=" + checkout]
    plugin_flags += ["-fplugin-arg-gridlock-rules=" + r for r in rules]
    obj = os.path.join(work, "unit.o")
    print("%d of %d units, %d compiles each side, work in %s" %
          (len(picked), len(kept), args.repeat, work), file=sys.stderr, flush=True)

    rows = []
    for e in picked:
        plain = compile_command(e, obj)
        # The plugin's flags go before the output, as a build's CMAKE_CXX_FLAGS would put them.
        with_plugin = plain[:1] + plugin_flags + plain[1:]
        times = {"plain": [], "plugin": []}
        rss = {"plain": 0.0, "plugin": 0.0}
        for _ in range(args.repeat):
            for side, cmd in (("plain", plain), ("plugin", with_plugin)):
                rc, _, err, wall, cpu, peak = timed(cmd, cwd=e["directory"])
                if rc != 0:
                    raise SystemExit("%s (%s): exit %d\n%s" % (entry_file(e), side, rc, err[-3000:]))
                times[side].append((wall, cpu))
                rss[side] = max(rss[side], peak)
        name = os.path.relpath(entry_file(e), checkout)
        med = {s: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
               for s, t in times.items()}
        rows.append((name, med, rss))
        print("%-60s %7.2f s -> %7.2f s CPU" % (name, med["plain"][1], med["plugin"][1]),
              file=sys.stderr, flush=True)
    if os.path.exists(obj):
        os.remove(obj)

    failures = []
    written = [f for f in os.listdir(facts) if f.endswith(".facts")]
    if len(written) != len(picked):
        failures.append("%d facts files for %d units" % (len(written), len(picked)))
    gridlock = os.path.realpath(args.gridlock)
    rc, merged, err, merge_wall, _, _ = timed([gridlock, "merge", facts, "--format", "json"])
    if rc != 0:
        failures.append("merge: exit %d: %s" % (rc, err[-2000:]))
    scan_cmd = [gridlock, "scan", "-p", db_dir, "--root", checkout, "--no-cache", "--format",
                "json", "--allow-parse-errors"]
    for r in rules:
        scan_cmd += ["--rules", r]
    rc, scanned, err, _, _, _ = timed(scan_cmd)
    if rc != 0:
        failures.append("scan: exit %d: %s" % (rc, err[-2000:]))
    same = not failures and report_without_cache(merged) == report_without_cache(scanned)
    if not same and not failures:
        failures.append("the merge of the plugin's facts differs from the scan's report")

    print("| unit | wall (s) | with plugin | CPU (s) | with plugin | peak RSS (MiB) | with plugin |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    tot = {"plain": [0.0, 0.0], "plugin": [0.0, 0.0]}
    for name, med, peak in rows:
        for s in tot:
            tot[s][0] += med[s][0]
            tot[s][1] += med[s][1]
        print("| %s | %.2f | %.2f | %.2f | %.2f | %.0f | %.0f |" %
              (name, med["plain"][0], med["plugin"][0], med["plain"][1], med["plugin"][1],
               peak["plain"], peak["plugin"]))
    print("| total | %.2f | %.2f | %.2f | %.2f | | |" %
          (tot["plain"][0], tot["plugin"][0], tot["plain"][1], tot["plugin"][1]))
    print()
    print("- units: %d of %d, median of %d compiles per side" % (len(picked), len(kept), args.repeat))
    print("- with the plugin / without: %.3f of the wall time, %.3f of the CPU time" %
          (tot["plugin"][0] / tot["plain"][0], tot["plugin"][1] / tot["plain"][1]))
    print("- merge of the %d facts files: %.2f s; its report equals the scan's: %s" %
          (len(written), merge_wall, "yes" if same else "NO"))
    for f in failures:
        print("FAILED: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
