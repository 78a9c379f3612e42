#!/usr/bin/env python3
"""Benchmark (not a test): what the facts cache and sharded scans cost on a real codebase.

In one run, over the units of a compile database (optionally a deterministic subset), each step
under /usr/bin/time -v (wall time, CPU time = user + sys, peak resident memory):

  cold          gridlock scan with an empty cache: every unit parsed, every entry written
  warm          the same again, nothing changed: no parse at all
  .cc edited    after an edit of --cc (a comment appended): that unit parsed again
  its TU alone  gridlock scan --no-cache of that unit alone: the budget of `.cc edited` is
                this + 1 s
  header touched  after `touch` of --header (new mtime, same bytes): every includer checks
                  the header's digest, none is parsed
  header edited   after an edit of --header (a comment appended): every includer parsed again
  shard 1/2, 2/2  scan --shard i/2 --facts-out, each with an empty cache of its own
  merge         gridlock merge of the two facts files
  cold again    the cold scan once more, with an empty cache of its own: the shards' CPU is
                compared with the mean of the two cold scans around them

It checks, and exits 1 if any check fails: every scan reports what the cold scan reports (JSON,
all but summary.cache: the edits append comments, which move no read), and the merge gives the
cold scan's bytes exactly (both say 0 hits and every unit a miss). Edited files get their bytes
and mtimes back afterwards, also when the run fails.

The cache's size after the cold scan is compared with the size of the build's object files:
--objects DIR sums the .o files under DIR; --built sums the object file each unit's own
command writes (-o), of a build already built: the objects of exactly the units scanned;
without either, --sample-objects K compiles K units
(every (N/K)-th in path order) with their own compile commands (-o a temporary file) and
scales their total to all N units.

  python3 bench/cache_bench.py --gridlock build/tool/cli/gridlock --checkout CODEBASE \\
      -p CODEBASE/build --rules bench/infinitrain.json --exclude 'third_party/**' \\
      --cc path/in/codebase.cc --header path/in/codebase.h --sample-objects 8

--exclude GLOB (repeatable, relative to the checkout) leaves units out of the compile
database the scans get (a filtered copy in the work directory). Prints the Markdown table on
stdout, progress on stderr. Only the Python standard library is used.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from benchlib import (compile_command, entry_file, every_kth, filtered_database,
                      report_without_cache, split_output, timed)


def cache_counts(report):
    c = json.loads(report)["summary"].get("cache", {})
    return c.get("hits"), c.get("misses")


def du(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(d, f))
            except OSError:
                pass
    return total


class Edit:
    """Appends a comment to a file, or only touches it; restore() puts its bytes and times back."""

    def __init__(self, path):
        self.path = path
        self.bytes = open(path, "rb").read()
        st = os.stat(path)
        self.times = (st.st_atime_ns, st.st_mtime_ns)

    def append(self):
        with open(self.path, "ab") as f:
            f.write(b"\n// gridlock cache benchmark edit\n")

    def touch(self):
        os.utime(self.path)

    def restore(self):
        with open(self.path, "wb") as f:
            f.write(self.bytes)
        os.utime(self.path, ns=self.times)


def sample_object_bytes(entries, k, work):
    """Compiles every (N/k)-th unit (path order) with its own command to a temporary object;
    returns (objects' bytes scaled to all N units, units compiled, their bytes)."""
    picked = every_kth(entries, k)
    total = 0
    for i, e in enumerate(picked):
        obj = os.path.join(work, "sample-%d.o" % i)
        print("compiling %s" % os.path.basename(entry_file(e)), file=sys.stderr, flush=True)
        p = subprocess.run(compile_command(e, obj), cwd=e["directory"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise SystemExit("cannot compile %s:\n%s" % (entry_file(e), p.stderr.decode()[-2000:]))
        total += os.path.getsize(obj)
        os.remove(obj)
    return total * len(entries) / len(picked), len(picked), total


def built_object_bytes(entries):
    """The bytes of each unit's own object file (its -o, or the entry's output), and the
    units whose object is missing. A file two entries write is counted once."""
    total, missing, seen = 0, [], set()
    for e in entries:
        out = split_output(e)[1]
        path = out if out and os.path.isabs(out) else os.path.join(e["directory"], out or "")
        if not out or not os.path.isfile(path):
            missing.append(entry_file(e))
        elif path not in seen:
            seen.add(path)
            total += os.path.getsize(path)
    return total, missing


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gridlock", required=True)
    ap.add_argument("--checkout", required=True, help="the codebase's checkout (--root)")
    ap.add_argument("-p", dest="build", required=True, help="its build directory")
    ap.add_argument("--rules", action="append", required=True)
    ap.add_argument("--exclude", action="append", default=[],
                    help="units to leave out, a glob relative to the checkout (repeatable)")
    ap.add_argument("--cc", required=True, help="a unit to edit, relative to the checkout")
    ap.add_argument("--header", required=True,
                    help="a widely included header to touch and edit, relative to the checkout")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--objects", help="directory of the build's object files")
    ap.add_argument("--built", action="store_true",
                    help="the units' own object files (their -o), of a build already built")
    ap.add_argument("--sample-objects", type=int, default=0,
                    help="without --objects: compile this many units to estimate them")
    ap.add_argument("--targets-only", action="store_true",
                    help="stop after `header touched`: no header edit, no shards, no merge")
    ap.add_argument("--work", help="where caches and outputs go (default: a temporary directory)")
    args = ap.parse_args()

    checkout = os.path.realpath(args.checkout)
    work = os.path.realpath(args.work or tempfile.mkdtemp(prefix="gridlock-cache-bench-"))
    os.makedirs(work, exist_ok=True)
    db_dir = os.path.join(work, "db")
    units = filtered_database(os.path.realpath(args.build), checkout, args.exclude, db_dir)
    cache = os.path.join(work, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    base = [os.path.realpath(args.gridlock), "scan", "-p", db_dir, "--root", checkout, "--jobs",
            str(args.jobs), "--allow-parse-errors"]
    for r in args.rules:
        base += ["--rules", os.path.realpath(r)]
    rows, failures = [], []
    print("%d units, work in %s" % (len(units), work), file=sys.stderr, flush=True)

    def step(name, cmd, note=""):
        rc, out, err, wall, cpu, rss = timed(cmd)
        if rc != 0:
            raise SystemExit("%s: exit %d: %s\n%s" % (name, rc, " ".join(cmd), err[-3000:]))
        rows.append([name, wall, cpu, rss, note])
        print("%-15s %8.2f s wall %8.2f s cpu %7.0f MiB  %s" % (name, wall, cpu, rss, note),
              file=sys.stderr, flush=True)
        return out

    cold = None

    def scan(name, note=""):
        out = step(name, base + ["--format", "json", "--cache-dir", cache])
        hits, misses = cache_counts(out)
        rows[-1][4] = (note + ": " if note else "") + "%s hits, %s misses" % (hits, misses)
        if cold is not None and report_without_cache(out) != report_without_cache(cold):
            failures.append("%s: the report differs from the cold scan's" % name)
        return out

    cold = scan("cold")
    cache_bytes = du(cache)
    scan("warm")
    cc = Edit(os.path.join(checkout, args.cc))
    header = Edit(os.path.join(checkout, args.header))
    try:
        cc.append()
        scan(".cc edited", args.cc)
        step("its TU alone", base + ["--format", "json", "--no-cache",
                                     os.path.join(checkout, args.cc)],
             "scan --no-cache of %s" % args.cc)
        cc.restore()
        scan("restored")  # the unit parsed again as it was: not a row of the table
        rows.pop()
        header.touch()
        scan("header touched", args.header)
        if not args.targets_only:
            header.append()
            scan("header edited", args.header)
    finally:
        cc.restore()
        header.restore()

    facts = []
    for i in (() if args.targets_only else (1, 2)):
        f = os.path.join(work, "shard-%d.facts" % i)
        shard_cache = os.path.join(work, "shard-cache-%d" % i)
        shutil.rmtree(shard_cache, ignore_errors=True)
        step("shard %d/2" % i, base + ["--shard", "%d/2" % i, "--facts-out", f, "--cache-dir",
                                       shard_cache], "own empty cache")
        facts.append(f)
    merged = cold if args.targets_only else step("merge", [os.path.realpath(args.gridlock), "merge", "--format", "json"] + facts)
    same = merged == cold
    if not same:
        failures.append("merge differs from the cold scan")
    if not args.targets_only:
        rows[-1][4] = "bytes equal to the cold scan's: %s" % ("yes" if same else "NO")
        # CPU time on a shared machine drifts by several percent between runs minutes apart:
        # the shards are compared with a cold scan before them and one after them.
        again = os.path.join(work, "cache-again")
        shutil.rmtree(again, ignore_errors=True)
        step("cold again", base + ["--format", "json", "--cache-dir", again],
             "after the shards, own empty cache")
        shutil.rmtree(again, ignore_errors=True)

    by = {r[0]: r for r in rows}
    shard_cpu = 0 if args.targets_only else by["shard 1/2"][2] + by["shard 2/2"][2]
    print("| step | wall (s) | CPU (s) | peak RSS (MiB) | notes |")
    print("|---|---:|---:|---:|---|")
    for name, wall, cpu, rss, note in rows:
        print("| %s | %.2f | %.2f | %.0f | %s |" % (name, wall, cpu, rss, note))
    print()
    print("- units: %d" % len(units))
    print("- warm / cold: %.2f%% of the wall time, %.2f%% of the CPU time" %
          (100.0 * by["warm"][1] / by["cold"][1], 100.0 * by["warm"][2] / by["cold"][2]))
    print("- .cc edited: %.2f s wall; its TU alone + 1 s: %.2f s" %
          (by[".cc edited"][1], by["its TU alone"][1] + 1))
    if not args.targets_only:
        colds = (by["cold"][2] + by["cold again"][2]) / 2
        print("- shards' CPU / cold scans' mean CPU: %.3f (%.3f of the first, %.3f of the one "
              "after the shards); merge: %.2f s" %
              (shard_cpu / colds, shard_cpu / by["cold"][2], shard_cpu / by["cold again"][2],
               by["merge"][1]))
    print("- cache after the cold scan: %d bytes, %.2f MiB (%.0f KiB per unit)" %
          (cache_bytes, cache_bytes / 2**20, cache_bytes / 1024.0 / len(units)))
    objects = None
    if args.objects:
        objects = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.objects)
                      for f in fs if f.endswith(".o"))
        print("- object files under %s: %.1f MiB" % (args.objects, objects / 2**20))
    elif args.built:
        objects, missing = built_object_bytes(units)
        if missing:
            raise SystemExit("--built: %d units have no object file, e.g. %s" %
                             (len(missing), missing[0]))
        print("- object files of the %d units (their -o): %d bytes, %.1f MiB" %
              (len(units), objects, objects / 2**20))
    elif args.sample_objects:
        objects, k, sample = sample_object_bytes(units, args.sample_objects, work)
        print("- object files, estimated: %d units compiled with their own commands, %.1f MiB, "
              "scaled to %d units: %.1f MiB" % (k, sample / 2**20, len(units), objects / 2**20))
    if objects:
        print("- cache / object files: %.1f%%" % (100.0 * cache_bytes / objects))
    for f in failures:
        print("FAILED: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
