"""What the benchmarks share: timing a command, reading a compile database, picking units."""

import fnmatch
import json
import os
import re
import shlex
import subprocess
import tempfile


def timed(cmd, cwd=None):
    """Runs cmd under /usr/bin/time -v: (rc, stdout bytes, stderr text, wall s, cpu s, rss MiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        full = ["/usr/bin/time", "-v", "-o", t.name] + cmd
        p = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
        text = open(t.name).read()

    def field(name):
        m = re.search(re.escape(name) + r":\s*(.+)", text)
        return m.group(1).strip() if m else "0"

    seconds = 0.0
    for part in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"):
        seconds = seconds * 60 + float(part)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    rss = int(field("Maximum resident set size (kbytes)")) / 1024.0
    return p.returncode, p.stdout, p.stderr.decode(errors="replace"), seconds, cpu, rss


def entry_file(e):
    f = e["file"]
    return f if os.path.isabs(f) else os.path.normpath(os.path.join(e["directory"], f))


def filtered_database(build, checkout, excludes, out_dir):
    """A copy of BUILD/compile_commands.json without the units --exclude names; the kept entries."""
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    kept = []
    for e in db:
        rel = os.path.relpath(entry_file(e), checkout)
        if not any(fnmatch.fnmatch(rel, g) for g in excludes):
            kept.append(e)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as f:
        json.dump(kept, f, indent=1)
    return kept


def every_kth(entries, k):
    """k of the entries, every (N/k)-th in path order: the same units in every run."""
    entries = sorted(entries, key=entry_file)
    step = max(1, len(entries) // k)
    return entries[::step][:k]


def split_output(e):
    """The entry's command without its output flag (`-o F` or `-oF`), and F (the entry's
    "output" when the command names none)."""
    args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
    rest, output = [], e.get("output")
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-o":
            output = args[i + 1] if i + 1 < len(args) else output
            i += 2
            continue
        if a.startswith("-o") and len(a) > 2:
            output = a[2:]
        else:
            rest.append(a)
        i += 1
    return rest, output


def compile_command(e, obj):
    """The entry's own compile command with its output sent to obj."""
    return split_output(e)[0] + ["-o", obj]


def report_without_cache(text):
    """A JSON report minus summary.cache, the one field that says how facts were obtained."""
    j = json.loads(text)
    j["summary"].pop("cache", None)
    return json.dumps(j, indent=2)
